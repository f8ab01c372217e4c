#!/usr/bin/env bash
# Elasticsearch (integ-test-zip from Maven Central) on 127.0.0.1:${CHSR_ES_PORT:-19200}.
# Usage: elasticsearch.sh {install|start|stop|status|restart}
# See deploy/local/README.md and ELASTICSEARCH.md (what the integ-test-zip can analyse).
CHSR_ENGINE=elasticsearch
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ES_PORT="${CHSR_ES_PORT:-19200}"
ES_TRANSPORT_PORT="${CHSR_ES_TRANSPORT_PORT:-19300}"
# Heap 512m..1g: enough for SciFact-sized indices, leaves room on a 24 GiB / 2-core box.
ES_HEAP_MIN="${CHSR_ES_HEAP_MIN:-512m}"
ES_HEAP_MAX="${CHSR_ES_HEAP_MAX:-1g}"
# Elasticsearch refuses to run as root; when we are root it runs as this system user.
ES_USER="${CHSR_ES_USER:-chsr}"
ES_HOME="$CHSR_BIN_DIR/elasticsearch-$CHSR_ES_VERSION"
ES_DATA="$CHSR_DATA_ROOT/elasticsearch"
ES_LOGS="$CHSR_LOG_DIR/elasticsearch"
ES_OUT="$CHSR_LOG_DIR/elasticsearch.log"
ES_PIDFILE="$CHSR_RUN_DIR/elasticsearch.pid"
ES_PATTERN="org.elasticsearch.bootstrap.Elasticsearch"
ES_URL="http://$CHSR_HOST:$ES_PORT"

es_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^[[:space:]]*java.specification.version = \([0-9]*\).*/\1/p'
}

# ES 8.19 needs Java 17+. Order: explicit override, JAVA_HOME, `java` on PATH, /usr/lib/jvm/*.
es_java_home() {
  local c major path_java=""
  command -v java >/dev/null && path_java="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  for c in "${CHSR_ES_JAVA_HOME:-}" "${JAVA_HOME:-}" "$path_java" /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    major="$(es_java_major "$c")"
    if [ -n "$major" ] && [ "$major" -ge 17 ]; then printf '%s\n' "$c"; return 0; fi
  done
  return 1
}

# Command prefix that drops root to ES_USER (empty when not root).
ES_AS_USER=()
if [ "$(id -u)" -eq 0 ]; then
  ES_AS_USER=(setpriv --reuid="$ES_USER" --regid="$ES_USER" --init-groups)
fi
es_as_user() { "${ES_AS_USER[@]}" "$@"; }

# Root only: create the system user and let it traverse (not list) the path to CHSR_LOCAL_DIR.
es_prepare_user() {
  [ "$(id -u)" -eq 0 ] || return 0
  if ! getent passwd "$ES_USER" >/dev/null; then
    chsr_log "creating system user $ES_USER (Elasticsearch refuses to run as root)"
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$ES_USER"
  fi
  local d path="" parts
  IFS=/ read -r -a parts <<<"${CHSR_LOCAL_DIR#/}"
  for d in "${parts[@]}"; do
    path="$path/$d"
    es_as_user test -x "$path" && continue
    if ! command -v setfacl >/dev/null; then
      chsr_log "installing acl (setfacl) to grant $ES_USER traverse-only access"
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q acl >>"$ES_OUT" 2>&1 || true
    fi
    if command -v setfacl >/dev/null && setfacl -m "u:$ES_USER:--x" "$path"; then
      chsr_log "granted $ES_USER traverse (x) ACL on $path"
    else
      chsr_log "WARNING: setfacl unavailable; chmod o+x $path"
      chmod o+x "$path"
    fi
  done
}

es_install() {
  chsr_dirs
  if [ -x "$ES_HOME/bin/elasticsearch" ] && [ -f "$ES_HOME/.chsr-installed" ]; then
    chsr_log "installed: $ES_HOME"
    return 0
  fi
  local dl="$CHSR_BIN_DIR/dl" zip
  zip="$dl/elasticsearch-$CHSR_ES_VERSION.zip"
  if [ ! -s "$zip" ]; then
    command -v mvn >/dev/null || chsr_die "mvn not found (apt-get install -y maven)"
    chsr_log "fetching $CHSR_ES_ARTIFACT from Maven Central (cached in ~/.m2)"
    mkdir -p "$dl"
    (cd "$CHSR_BUILD_DIR" && mvn -B -q \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact="$CHSR_ES_ARTIFACT" -DoutputDirectory="$dl") >>"$ES_OUT" 2>&1 ||
      { chsr_tail_logs "$ES_OUT"; chsr_die "maven could not fetch $CHSR_ES_ARTIFACT"; }
  fi
  chsr_log "unpacking $zip"
  rm -rf "$ES_HOME" "$ES_HOME.tmp"
  mkdir -p "$ES_HOME.tmp"
  (cd "$ES_HOME.tmp" && unzip -q "$zip")
  mv "$ES_HOME.tmp/elasticsearch-$CHSR_ES_VERSION" "$ES_HOME"
  rm -rf "$ES_HOME.tmp"
  touch "$ES_HOME/.chsr-installed"
  chsr_log "installed: $ES_HOME (modules: $(ls "$ES_HOME/modules" | tr '\n' ' '))"
}

# The integ-test-zip lacks analysis-common (no english/porter/kstem/snowball), but core
# Lucene keeps the `hunspell` token filter. Give it the en_US dictionary from Debian's
# hunspell-en-us so indices can stem English (see ELASTICSEARCH.md). CHSR_ES_HUNSPELL=0 skips.
ES_HUNSPELL_SRC="${CHSR_ES_HUNSPELL_DIR:-/usr/share/hunspell}"
es_hunspell() {
  local conf="$1"
  [ "${CHSR_ES_HUNSPELL:-1}" = 1 ] || return 0
  if [ ! -s "$ES_HUNSPELL_SRC/en_US.dic" ] && [ "$(id -u)" -eq 0 ]; then
    chsr_log "installing hunspell-en-us (Debian) for the hunspell stemmer"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q hunspell-en-us >>"$ES_OUT" 2>&1 || true
  fi
  if [ -s "$ES_HUNSPELL_SRC/en_US.dic" ] && [ -s "$ES_HUNSPELL_SRC/en_US.aff" ]; then
    mkdir -p "$conf/hunspell/en_US"
    cp -f "$ES_HUNSPELL_SRC/en_US.dic" "$ES_HUNSPELL_SRC/en_US.aff" "$conf/hunspell/en_US/"
  else
    chsr_log "WARNING: no en_US hunspell dictionary in $ES_HUNSPELL_SRC; hunspell filter unavailable"
  fi
}

es_healthy() {
  curl -fsS -o /dev/null --max-time 3 \
    "$ES_URL/_cluster/health?wait_for_status=yellow&timeout=2s" 2>/dev/null
}

# Regenerated on every start so port/heap overrides take effect.
es_write_config() {
  local conf="$ES_DATA/config"
  mkdir -p "$conf/jvm.options.d" "$ES_DATA/data" "$ES_DATA/tmp" "$ES_LOGS"
  cp -f "$ES_HOME/config/jvm.options" "$ES_HOME/config/log4j2.properties" "$conf/"
  cat >"$conf/elasticsearch.yml" <<EOF
# Generated by deploy/local/elasticsearch.sh; edits are overwritten on start.
cluster.name: chsr-local
node.name: chsr-es-1
path.data: $ES_DATA/data
path.logs: $ES_LOGS
network.host: $CHSR_HOST
http.port: $ES_PORT
transport.port: $ES_TRANSPORT_PORT
discovery.type: single-node
# x-pack-security ships in the integ-test-zip; disabled for a loopback dev node.
xpack.security.enabled: false
# The disk is shared with other work: never flip indices read-only on disk usage.
cluster.routing.allocation.disk.threshold_enabled: false
EOF
  printf -- '-Xms%s\n-Xmx%s\n' "$ES_HEAP_MIN" "$ES_HEAP_MAX" >"$conf/jvm.options.d/chsr-heap.options"
  es_hunspell "$conf"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R "$ES_USER:$ES_USER" "$ES_DATA" "$ES_LOGS"
  fi
}

es_start() {
  if chsr_pid_alive "$ES_PIDFILE" "$ES_PATTERN"; then
    chsr_log "already running (pid $(chsr_pid_read "$ES_PIDFILE")), checking health"
    chsr_wait_healthy elasticsearch "$ES_PIDFILE" "$ES_PATTERN" "$CHSR_START_TIMEOUT" \
      "$ES_OUT $ES_LOGS/chsr-local.log" es_healthy
    return
  fi
  rm -f "$ES_PIDFILE"
  es_install
  chsr_require_port_free "$ES_PORT" "Elasticsearch HTTP"
  chsr_require_port_free "$ES_TRANSPORT_PORT" "Elasticsearch transport"
  local java_home
  java_home="$(es_java_home)" || chsr_die "no Java 17+ found (set CHSR_ES_JAVA_HOME)"
  es_prepare_user
  es_write_config
  rm -f "$ES_DATA/es.pid"
  chsr_log "starting ES $CHSR_ES_VERSION on $ES_URL (java $java_home, heap $ES_HEAP_MIN..$ES_HEAP_MAX)"
  printf '\n===== %s start =====\n' "$(date -Is)" >>"$ES_OUT"
  # -d returns once the node has started (or failed); -p writes the server JVM's pid.
  if ! (cd "$ES_LOGS" && chsr_spawn timeout "$CHSR_START_TIMEOUT" "${ES_AS_USER[@]}" env -u JAVA_HOME \
      HOME="$ES_DATA" ES_JAVA_HOME="$java_home" ES_PATH_CONF="$ES_DATA/config" \
      ES_TMPDIR="$ES_DATA/tmp" ES_JAVA_OPTS="${CHSR_ES_JAVA_OPTS:-}" \
      "$ES_HOME/bin/elasticsearch" -d -p "$ES_DATA/es.pid") >>"$ES_OUT" 2>&1 </dev/null; then
    [ -s "$ES_DATA/es.pid" ] && cp "$ES_DATA/es.pid" "$ES_PIDFILE"
    chsr_log "ERROR: elasticsearch launcher failed"
    chsr_tail_logs "$ES_OUT" "$ES_LOGS/chsr-local.log"
    es_stop >/dev/null 2>&1 || true
    exit 1
  fi
  [ -s "$ES_DATA/es.pid" ] || { chsr_tail_logs "$ES_OUT" "$ES_LOGS/chsr-local.log"; chsr_die "no pidfile written"; }
  cp "$ES_DATA/es.pid" "$ES_PIDFILE"
  if ! chsr_wait_healthy elasticsearch "$ES_PIDFILE" "$ES_PATTERN" "$CHSR_START_TIMEOUT" \
      "$ES_OUT $ES_LOGS/chsr-local.log" es_healthy; then
    es_stop >/dev/null 2>&1 || true
    exit 1
  fi
}

es_stop() { chsr_stop_pidfile elasticsearch "$ES_PIDFILE" "$ES_PATTERN"; }

es_status() {
  chsr_status_line elasticsearch "$ES_PIDFILE" "$ES_PATTERN" "$ES_URL" "$CHSR_ES_VERSION" es_healthy
}

# Sourced (deploy/local/clusters.sh reuses the install and helper functions): define only.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  case "${1:-}" in
    install) chsr_lock elasticsearch; es_install ;;
    start) chsr_lock elasticsearch; es_start ;;
    stop) chsr_lock elasticsearch; es_stop ;;
    restart) chsr_lock elasticsearch; es_stop; es_start ;;
    status) es_status ;;
    *) echo "usage: $0 {install|start|stop|status|restart}" >&2; exit 2 ;;
  esac
fi
