#!/usr/bin/env bash
# Prometheus on 127.0.0.1:${CHSR_PROM_PORT:-19090}, from Debian's `prometheus` package (/usr/bin/prometheus,
# /usr/bin/promtool; the package's own service is never started or used: we run our own instance with
# our config, port, data dir and pidfile). Where apt is unavailable (not root, no apt-get, or the
# install fails) it falls back to building github.com/prometheus/prometheus from the Go module proxy
# (~13 min cold on 2 cores). CHSR_PROM_SOURCE=apt|go forces one source (default auto).
# Usage: prometheus.sh {install|start|stop|status|restart}
# Config: $CHSR_PROM_CONFIG, else deploy/prometheus/prometheus.yml, else a generated self-scrape config.
CHSR_ENGINE=prometheus
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PROM_PORT="${CHSR_PROM_PORT:-19090}"
PROM_SOURCE="${CHSR_PROM_SOURCE:-auto}"
PROM_DEB_BIN=/usr/bin
PROM_MODULE=github.com/prometheus/prometheus
PROM_GO_BIN="$CHSR_BIN_DIR/prometheus/$CHSR_PROM_MODULE_VERSION"
PROM_DATA="$CHSR_DATA_ROOT/prometheus"
PROM_LOG="$CHSR_LOG_DIR/prometheus.log"
PROM_PIDFILE="$CHSR_RUN_DIR/prometheus.pid"
# Only our instance has this flag (the package's service, if something started it, uses
# /var/lib/prometheus/metrics2), so the pidfile check never mistakes one for the other.
PROM_PATTERN="--storage.tsdb.path=$PROM_DATA/tsdb"
PROM_URL="http://$CHSR_HOST:$PROM_PORT"
# Go-module fallback: built without the `builtinassets` tag, so the web UI is not embedded; API,
# /metrics, /-/ready and lifecycle endpoints work.
PROM_LDFLAGS="-s -w \
 -X github.com/prometheus/common/version.Version=$CHSR_PROM_VERSION \
 -X github.com/prometheus/common/version.Revision=gomod-$CHSR_PROM_MODULE_VERSION \
 -X github.com/prometheus/common/version.Branch=HEAD \
 -X github.com/prometheus/common/version.BuildUser=chsr-local"

prom_deb_installed() { [ -x "$PROM_DEB_BIN/prometheus" ] && [ -x "$PROM_DEB_BIN/promtool" ]; }
prom_go_installed() {
  [ -x "$PROM_GO_BIN/prometheus" ] && [ -x "$PROM_GO_BIN/promtool" ] && [ -f "$PROM_GO_BIN/.chsr-built" ]
}

# prom_bindir: the folder holding the prometheus + promtool we run (Debian's first), or fail.
prom_bindir() {
  case "$PROM_SOURCE" in
    apt) prom_deb_installed && { echo "$PROM_DEB_BIN"; return 0; } ;;
    go) prom_go_installed && { echo "$PROM_GO_BIN"; return 0; } ;;
    *)
      if prom_deb_installed; then echo "$PROM_DEB_BIN"; return 0; fi
      if prom_go_installed; then echo "$PROM_GO_BIN"; return 0; fi ;;
  esac
  return 1
}

# "2.42.0+ds (debian)" or "3.16.0 (module v0.316.0)"; "?" when not installed.
prom_version() {
  local dir v
  dir="$(prom_bindir)" || { echo '?'; return 0; }
  v="$("$dir/prometheus" --version 2>&1 | sed -n '1s/^prometheus, version \([^ ]*\).*/\1/p')"
  if [ "$dir" = "$PROM_DEB_BIN" ]; then
    echo "${v:-?} (debian $(dpkg-query -W -f='${Version}' prometheus 2>/dev/null || echo '?'))"
  else
    echo "${v:-?} (module $CHSR_PROM_MODULE_VERSION)"
  fi
}

# apt-get install prometheus; returns 1 (logged) when apt is unavailable or the install fails.
prom_install_apt() {
  command -v apt-get >/dev/null || { chsr_log "no apt-get on this machine"; return 1; }
  [ "$(id -u)" -eq 0 ] || { chsr_log "not root: cannot apt-get install prometheus (or: sudo apt-get install -y --no-install-recommends prometheus)"; return 1; }
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d (exit 101) keeps dpkg from starting the package's service on :9090.
  # --no-install-recommends: no prometheus-node-exporter (another service, on :9100).
  # The lock timeout: engines.sh installs engines side by side, and redis.sh may hold dpkg's lock.
  local policy=/usr/sbin/policy-rc.d ours=0 rc=0 t0=$SECONDS lock=(-o DPkg::Lock::Timeout=600)
  local apt=(apt-get "${lock[@]}" install -y -q --no-install-recommends)
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && ours=1
  fi
  chsr_log "apt-get install prometheus (pinned build $CHSR_PROM_DEB_VERSION if still served)"
  {
    "${apt[@]}" "prometheus=$CHSR_PROM_DEB_VERSION" ||
      { apt-get "${lock[@]}" update -q && "${apt[@]}" "prometheus=$CHSR_PROM_DEB_VERSION"; } ||
      "${apt[@]}" prometheus
  } >>"$PROM_LOG" 2>&1 || rc=1
  [ "$ours" = 1 ] && rm -f "$policy"
  if [ "$rc" != 0 ] || ! prom_deb_installed; then
    chsr_tail_logs "$PROM_LOG"
    chsr_log "apt-get install prometheus failed"
    return 1
  fi
  chsr_log "installed in $((SECONDS - t0))s: $PROM_DEB_BIN/prometheus $(prom_version)"
}

# Fallback: prometheus + promtool from the Go module (no apt).
prom_install_go() {
  chsr_go_env
  local blog="$CHSR_LOG_DIR/prometheus-build.log" t0=$SECONDS
  mkdir -p "$PROM_GO_BIN"
  chsr_log "building prometheus+promtool $CHSR_PROM_MODULE_VERSION with $(go version | awk '{print $3}') (log: $blog; ~13 min cold on 2 cores)"
  if ! (cd "$CHSR_BUILD_DIR" && GOBIN="$PROM_GO_BIN" go install -ldflags "$PROM_LDFLAGS" \
      "$PROM_MODULE/cmd/prometheus@$CHSR_PROM_MODULE_VERSION" \
      "$PROM_MODULE/cmd/promtool@$CHSR_PROM_MODULE_VERSION") >>"$blog" 2>&1; then
    chsr_log "go install refused; building from a copy of the module source"
    local src="$CHSR_BUILD_DIR/prometheus-$CHSR_PROM_MODULE_VERSION-src"
    chsr_go_module_src "$PROM_MODULE" "$CHSR_PROM_MODULE_VERSION" "$src" >>"$blog" 2>&1
    (cd "$src" && go build -ldflags "$PROM_LDFLAGS" -o "$PROM_GO_BIN/prometheus" ./cmd/prometheus &&
      go build -ldflags "$PROM_LDFLAGS" -o "$PROM_GO_BIN/promtool" ./cmd/promtool) >>"$blog" 2>&1 ||
      { chsr_tail_logs "$blog"; chsr_die "prometheus build failed"; }
  fi
  touch "$PROM_GO_BIN/.chsr-built"
  chsr_log "built in $((SECONDS - t0))s: $("$PROM_GO_BIN/prometheus" --version 2>&1 | head -1)"
}

prom_install() {
  chsr_dirs
  local dir
  if dir="$(prom_bindir)"; then
    chsr_log "installed: $dir/prometheus $(prom_version)"
    return 0
  fi
  case "$PROM_SOURCE" in
    apt) prom_install_apt || chsr_die "CHSR_PROM_SOURCE=apt and the Debian package could not be installed" ;;
    go) prom_install_go ;;
    auto) prom_install_apt || { chsr_log "apt unavailable: falling back to the Go module build"; prom_install_go; } ;;
    *) chsr_die "CHSR_PROM_SOURCE must be auto, apt or go (got $PROM_SOURCE)" ;;
  esac
  prom_bindir >/dev/null || chsr_die "prometheus install finished but no binaries were found"
}

prom_config() {
  if [ -n "${CHSR_PROM_CONFIG:-}" ]; then
    printf '%s\n' "$CHSR_PROM_CONFIG"
  elif [ -f "$CHSR_REPO_ROOT/deploy/prometheus/prometheus.yml" ]; then
    printf '%s\n' "$CHSR_REPO_ROOT/deploy/prometheus/prometheus.yml"
  else
    local gen="$PROM_DATA/prometheus.selfscrape.yml"
    mkdir -p "$PROM_DATA"
    cat >"$gen" <<EOF
# Generated by deploy/local/prometheus.sh (no deploy/prometheus/prometheus.yml found).
global:
  scrape_interval: 15s
scrape_configs:
  - job_name: prometheus
    static_configs:
      - targets: ["$CHSR_HOST:$PROM_PORT"]
EOF
    printf '%s\n' "$gen"
  fi
}

prom_healthy() { chsr_http_ok "$PROM_URL/-/ready"; }

prom_start() {
  if chsr_pid_alive "$PROM_PIDFILE" "$PROM_PATTERN"; then
    chsr_log "already running (pid $(chsr_pid_read "$PROM_PIDFILE")), checking health"
    chsr_wait_healthy prometheus "$PROM_PIDFILE" "$PROM_PATTERN" "$CHSR_START_TIMEOUT" "$PROM_LOG" prom_healthy
    return
  fi
  rm -f "$PROM_PIDFILE"
  prom_install
  chsr_require_port_free "$PROM_PORT" "Prometheus"
  local cfg bin
  cfg="$(prom_config)"
  [ -f "$cfg" ] || chsr_die "Prometheus config $cfg does not exist"
  bin="$(prom_bindir)"
  "$bin/promtool" check config --syntax-only "$cfg" >>"$PROM_LOG" 2>&1 ||
    { chsr_tail_logs "$PROM_LOG"; chsr_die "promtool rejected $cfg"; }
  mkdir -p "$PROM_DATA/tsdb"
  chsr_log "starting prometheus $(prom_version) ($bin/prometheus) on $PROM_URL (config $cfg)"
  printf '\n===== %s start =====\n' "$(date -Is)" >>"$PROM_LOG"
  nohup "$bin/prometheus" --config.file="$cfg" \
    --web.listen-address="$CHSR_HOST:$PROM_PORT" --web.enable-lifecycle \
    --storage.tsdb.path="$PROM_DATA/tsdb" \
    --storage.tsdb.retention.time="${CHSR_PROM_RETENTION:-7d}" \
    {CHSR_LOCK_FD}>&- </dev/null >>"$PROM_LOG" 2>&1 &
  echo $! >"$PROM_PIDFILE"
  if ! chsr_wait_healthy prometheus "$PROM_PIDFILE" "$PROM_PATTERN" "$CHSR_START_TIMEOUT" "$PROM_LOG" prom_healthy; then
    prom_stop >/dev/null 2>&1 || true
    exit 1
  fi
}

prom_stop() { chsr_stop_pidfile prometheus "$PROM_PIDFILE" "$PROM_PATTERN"; }

prom_status() {
  chsr_status_line prometheus "$PROM_PIDFILE" "$PROM_PATTERN" "$PROM_URL" \
    "$(prom_version)" prom_healthy
}

case "${1:-}" in
  install) chsr_lock prometheus; prom_install ;;
  start) chsr_lock prometheus; prom_start ;;
  stop) chsr_lock prometheus; prom_stop ;;
  restart) chsr_lock prometheus; prom_stop; prom_start ;;
  status) prom_status ;;
  *) echo "usage: $0 {install|start|stop|status|restart}" >&2; exit 2 ;;
esac
