# shellcheck shell=bash
# Shared helpers for deploy/local/*.sh (sourced, never executed).
#
# Layout (docs/ARCHITECTURE.md): everything lives under ${CHSR_LOCAL_DIR:-$HOME/.cache/chsr-local}
#   bin/            downloaded / built engine binaries, one versioned folder per engine
#   build/          writable source copies for builds that need patching
#   data/<engine>/  engine data (and generated config)
#   logs/           <engine>.log (stdout/stderr) and per-engine log folders
#   run/            <engine>.pid and <engine>.lock

set -euo pipefail

CHSR_DEPLOY_LOCAL="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC2034  # used by prometheus.sh
CHSR_REPO_ROOT="$(cd "$CHSR_DEPLOY_LOCAL/../.." && pwd)"
# shellcheck source=versions.env
. "$CHSR_DEPLOY_LOCAL/versions.env"

CHSR_LOCAL_DIR="${CHSR_LOCAL_DIR:-$HOME/.cache/chsr-local}"
CHSR_BIN_DIR="$CHSR_LOCAL_DIR/bin"
CHSR_BUILD_DIR="$CHSR_LOCAL_DIR/build"
CHSR_DATA_ROOT="$CHSR_LOCAL_DIR/data"
CHSR_LOG_DIR="$CHSR_LOCAL_DIR/logs"
CHSR_RUN_DIR="$CHSR_LOCAL_DIR/run"
# Seconds `start` waits for an engine to report healthy before failing.
CHSR_START_TIMEOUT="${CHSR_START_TIMEOUT:-180}"
# Seconds `stop` waits after SIGTERM before SIGKILL.
CHSR_STOP_TIMEOUT="${CHSR_STOP_TIMEOUT:-60}"
CHSR_HOST=127.0.0.1

chsr_log() { printf '[%s] [%s] %s\n' "$(date +%H:%M:%S)" "${CHSR_ENGINE:-engines}" "$*" >&2; }
chsr_die() { chsr_log "ERROR: $*"; exit 1; }

chsr_dirs() {
  mkdir -p "$CHSR_BIN_DIR" "$CHSR_BUILD_DIR" "$CHSR_DATA_ROOT" "$CHSR_LOG_DIR" "$CHSR_RUN_DIR"
}

# Serialise install/start/stop of one engine across concurrent invocations.
chsr_lock() {
  local name="$1"
  chsr_dirs
  exec {CHSR_LOCK_FD}>"$CHSR_RUN_DIR/$name.lock"
  flock -w 1800 "$CHSR_LOCK_FD" || chsr_die "could not lock $CHSR_RUN_DIR/$name.lock"
}

# Run a command without the engine lock fd so a daemon it forks does not hold the lock forever.
chsr_spawn() {
  if [ -n "${CHSR_LOCK_FD:-}" ]; then "$@" {CHSR_LOCK_FD}>&-; else "$@"; fi
}

# Print the pid stored in a pidfile (non-empty, numeric) or fail.
chsr_pid_read() {
  local pid=""
  [ -s "$1" ] || return 1
  read -r pid <"$1" || true
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  printf '%s\n' "$pid"
}

# chsr_pid_alive PIDFILE PATTERN: the pid is running, not a zombie, and its command
# line contains PATTERN (guards against pid reuse after a crash).
chsr_pid_alive() {
  local pid state
  pid="$(chsr_pid_read "$1")" || return 1
  [ -d "/proc/$pid" ] || return 1
  state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo Z)"
  [ "$state" != "Z" ] || return 1
  if [ -n "${2:-}" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -F -- "$2" >/dev/null || return 1
  fi
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
chsr_port_busy() {
  (exec 3<>"/dev/tcp/$CHSR_HOST/$1") 2>/dev/null
}

chsr_require_port_free() {
  local port="$1" what="$2"
  if chsr_port_busy "$port"; then
    chsr_die "$what port $CHSR_HOST:$port is already in use by another process (not ours: no live pidfile). Free it or override the port env var."
  fi
}

chsr_http_ok() { curl -fsS -o /dev/null --max-time 3 "$1" 2>/dev/null; }

chsr_tail_logs() {
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    printf '%s\n' "----- last 60 lines of $f -----" >&2
    tail -n 60 "$f" >&2 || true
  done
  printf '%s\n' "-----" >&2
}

# chsr_wait_healthy NAME PIDFILE PATTERN TIMEOUT LOGS CHECK...
# Polls CHECK until it succeeds; fails (log tail printed) on timeout or when the
# process dies. LOGS is a space-separated list of files to print on failure.
chsr_wait_healthy() {
  local name="$1" pidfile="$2" pattern="$3" timeout="$4" logs="$5"
  shift 5
  local start=$SECONDS grace=15
  while :; do
    if "$@"; then
      chsr_log "$name healthy after $((SECONDS - start))s"
      return 0
    fi
    if ! chsr_pid_alive "$pidfile" "$pattern"; then
      # Daemonising engines write their pidfile a moment after launch.
      if [ -s "$pidfile" ] || (( SECONDS - start > grace )); then
        chsr_log "ERROR: $name process is not running (pidfile $pidfile)"
        # shellcheck disable=SC2086
        chsr_tail_logs $logs
        return 1
      fi
    fi
    if (( SECONDS - start >= timeout )); then
      chsr_log "ERROR: $name not healthy within ${timeout}s"
      # shellcheck disable=SC2086
      chsr_tail_logs $logs
      return 1
    fi
    sleep 1
  done
}

# chsr_stop_pidfile NAME PIDFILE PATTERN: SIGTERM, wait, SIGKILL after CHSR_STOP_TIMEOUT.
chsr_stop_pidfile() {
  local name="$1" pidfile="$2" pattern="$3" pid waited=0
  if ! chsr_pid_alive "$pidfile" "$pattern"; then
    [ -e "$pidfile" ] && chsr_log "$name: removing stale pidfile $pidfile"
    rm -f "$pidfile"
    chsr_log "$name: not running"
    return 0
  fi
  pid="$(chsr_pid_read "$pidfile")"
  chsr_log "$name: stopping pid $pid (SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || true
  while chsr_pid_alive "$pidfile" "$pattern"; do
    if (( waited >= CHSR_STOP_TIMEOUT )); then
      chsr_log "$name: still alive after ${CHSR_STOP_TIMEOUT}s, SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 1
    waited=$((waited + 1))
  done
  rm -f "$pidfile"
  chsr_log "$name: stopped"
}

# One status line: NAME STATE PID ENDPOINTS VERSION. Returns 0 only when running+healthy.
chsr_status_line() {
  local name="$1" pidfile="$2" pattern="$3" endpoints="$4" version="$5"
  shift 5
  local pid state rc=0
  if chsr_pid_alive "$pidfile" "$pattern"; then
    pid="$(chsr_pid_read "$pidfile")"
    if "$@"; then state=healthy; else state=unhealthy; rc=1; fi
  else
    pid=-
    state=stopped
    rc=3
  fi
  printf '%-14s %-10s pid=%-8s %-44s %s\n' "$name" "$state" "$pid" "$endpoints" "$version"
  return $rc
}

# Go builds: keep module + build caches between runs, strip local paths.
chsr_go_env() {
  command -v go >/dev/null || chsr_die "go toolchain not found on PATH"
  export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath -buildvcs=false"
}

# chsr_go_module_src MODULE VERSION DEST: writable copy of a module from the Go module cache
# (used when a build needs a patch or `go install pkg@version` is refused).
chsr_go_module_src() {
  local mod="$1" ver="$2" dest="$3" dir
  if [ -f "$dest/go.mod" ]; then return 0; fi
  dir="$(go mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] && [ -f "$dir/go.mod" ] || chsr_die "go mod download $mod@$ver gave no source dir"
  rm -rf "$dest.tmp"
  mkdir -p "$(dirname "$dest")"
  cp -r "$dir" "$dest.tmp"
  chmod -R u+w "$dest.tmp"
  mv "$dest.tmp" "$dest"
}
