#!/usr/bin/env bash
# Redis (Debian redis-server package) as our own instance on 127.0.0.1:${CHSR_REDIS_PORT:-16379};
# the distribution's system service is never started or touched.
# Usage: redis.sh {install|start|stop|status|restart}
CHSR_ENGINE=redis
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REDIS_PORT="${CHSR_REDIS_PORT:-16379}"
# The gateway uses Redis as a cache: bound it and evict LRU instead of erroring when full.
REDIS_MAXMEMORY="${CHSR_REDIS_MAXMEMORY:-512mb}"
REDIS_DATA="$CHSR_DATA_ROOT/redis"
REDIS_LOG="$CHSR_LOG_DIR/redis.log"
REDIS_PIDFILE="$CHSR_RUN_DIR/redis.pid"
REDIS_PATTERN="redis-server"

redis_version() { redis-server --version 2>/dev/null | sed -n 's/.* v=\([^ ]*\).*/\1/p'; }

redis_install() {
  chsr_dirs
  if command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then
    chsr_log "installed: $(command -v redis-server) $(redis_version)"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || chsr_die "redis-server missing; run as root or: sudo apt-get install -y redis-server"
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d (exit 101) keeps dpkg from starting the system redis on :6379.
  local policy=/usr/sbin/policy-rc.d ours=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && ours=1
  fi
  chsr_log "apt-get install redis-server (pinned build $CHSR_REDIS_DEB_VERSION if still served)"
  {
    apt-get -o DPkg::Lock::Timeout=600 install -y -q "redis-server=$CHSR_REDIS_DEB_VERSION" ||
      { apt-get -o DPkg::Lock::Timeout=600 update -q && apt-get -o DPkg::Lock::Timeout=600 install -y -q "redis-server=$CHSR_REDIS_DEB_VERSION"; } ||
      apt-get -o DPkg::Lock::Timeout=600 install -y -q redis-server
  } >>"$REDIS_LOG" 2>&1 || {
    [ "$ours" = 1 ] && rm -f "$policy"
    chsr_tail_logs "$REDIS_LOG"
    chsr_die "apt-get install redis-server failed"
  }
  [ "$ours" = 1 ] && rm -f "$policy"
  chsr_log "installed: $(command -v redis-server) $(redis_version)"
}

redis_healthy() {
  [ "$(redis-cli -h "$CHSR_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]
}

redis_start() {
  if chsr_pid_alive "$REDIS_PIDFILE" "$REDIS_PATTERN"; then
    chsr_log "already running (pid $(chsr_pid_read "$REDIS_PIDFILE")), checking health"
    chsr_wait_healthy redis "$REDIS_PIDFILE" "$REDIS_PATTERN" "$CHSR_START_TIMEOUT" "$REDIS_LOG" redis_healthy
    return
  fi
  rm -f "$REDIS_PIDFILE"
  redis_install
  chsr_require_port_free "$REDIS_PORT" "Redis"
  mkdir -p "$REDIS_DATA"
  chsr_log "starting redis $(redis_version) on $CHSR_HOST:$REDIS_PORT"
  chsr_spawn redis-server --port "$REDIS_PORT" --bind "$CHSR_HOST" --protected-mode yes \
    --dir "$REDIS_DATA" --dbfilename dump.rdb --save "900 1 300 10" --appendonly no \
    --maxmemory "$REDIS_MAXMEMORY" --maxmemory-policy allkeys-lru \
    --daemonize yes --supervised no --pidfile "$REDIS_PIDFILE" --logfile "$REDIS_LOG" \
    </dev/null >>"$REDIS_LOG" 2>&1 || { chsr_tail_logs "$REDIS_LOG"; chsr_die "redis-server failed to launch"; }
  if ! chsr_wait_healthy redis "$REDIS_PIDFILE" "$REDIS_PATTERN" "$CHSR_START_TIMEOUT" "$REDIS_LOG" redis_healthy; then
    redis_stop >/dev/null 2>&1 || true
    exit 1
  fi
}

redis_stop() { chsr_stop_pidfile redis "$REDIS_PIDFILE" "$REDIS_PATTERN"; }

redis_status() {
  chsr_status_line redis "$REDIS_PIDFILE" "$REDIS_PATTERN" "redis://$CHSR_HOST:$REDIS_PORT/0" \
    "$(redis_version || echo '?')" redis_healthy
}

# Sourced (deploy/local/clusters.sh reuses the install and helper functions): define only.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  case "${1:-}" in
    install) chsr_lock redis; redis_install ;;
    start) chsr_lock redis; redis_start ;;
    stop) chsr_lock redis; redis_stop ;;
    restart) chsr_lock redis; redis_stop; redis_start ;;
    status) redis_status ;;
    *) echo "usage: $0 {install|start|stop|status|restart}" >&2; exit 2 ;;
  esac
fi
