#!/usr/bin/env bash
# Weaviate (built from Go module github.com/weaviate/weaviate) on 127.0.0.1:${CHSR_WEAVIATE_HTTP_PORT:-18080}
# (REST) and 127.0.0.1:${CHSR_WEAVIATE_GRPC_PORT:-15051} (gRPC).
# Usage: weaviate.sh {install|start|stop|status|restart}
CHSR_ENGINE=weaviate
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

WV_HTTP_PORT="${CHSR_WEAVIATE_HTTP_PORT:-18080}"
WV_GRPC_PORT="${CHSR_WEAVIATE_GRPC_PORT:-15051}"
# Cluster-internal ports, moved off Weaviate's defaults (7946/7947/8300/8301) to avoid clashes.
WV_GOSSIP_PORT="${CHSR_WEAVIATE_GOSSIP_PORT:-17946}"
WV_DATA_PORT="${CHSR_WEAVIATE_DATA_PORT:-17947}"
WV_RAFT_PORT="${CHSR_WEAVIATE_RAFT_PORT:-18300}"
WV_RAFT_RPC_PORT="${CHSR_WEAVIATE_RAFT_RPC_PORT:-18301}"
WV_MODULE=github.com/weaviate/weaviate
WV_BIN="$CHSR_BIN_DIR/weaviate/$CHSR_WEAVIATE_VERSION"
WV_SRC="$CHSR_BUILD_DIR/weaviate-$CHSR_WEAVIATE_VERSION-src"
WV_DATA="$CHSR_DATA_ROOT/weaviate"
WV_LOG="$CHSR_LOG_DIR/weaviate.log"
WV_PIDFILE="$CHSR_RUN_DIR/weaviate.pid"
WV_PATTERN="$WV_BIN/weaviate-server"
WV_URL="http://$CHSR_HOST:$WV_HTTP_PORT"
WV_LDFLAGS="-s -w \
 -X github.com/weaviate/weaviate/usecases/build.Revision=gomod-$CHSR_WEAVIATE_VERSION \
 -X github.com/weaviate/weaviate/usecases/build.Branch=HEAD \
 -X github.com/weaviate/weaviate/usecases/build.BuildUser=chsr-local"

# Upstream listens on ":<port>" (all interfaces) for the public gRPC API, the cluster data
# API and the optional metrics/profiling servers, with no setting to change it. The build
# patches those Sprintf(":%d") calls to prefix $CHSR_LISTEN_HOST (empty = upstream behaviour);
# REST (--host), memberlist and Raft (CLUSTER_BIND_ADDR) are configurable upstream.
WV_PATCH_FILES="adapters/handlers/grpc/server.go adapters/handlers/rest/clusterapi/grpc/server.go
 adapters/handlers/rest/clusterapi/serve.go adapters/handlers/rest/configure_api.go"

wv_patch_listen_host() {
  local f
  [ -f "$WV_SRC/.chsr-patched" ] && return 0
  for f in $WV_PATCH_FILES; do
    grep -q 'fmt.Sprintf(":%d"' "$WV_SRC/$f" || chsr_die "patch target not found in $f (upstream changed?)"
    sed -i 's/fmt\.Sprintf(":%d"/fmt.Sprintf(os.Getenv("CHSR_LISTEN_HOST")+":%d"/g' "$WV_SRC/$f"
    # grep reads to the end (no -q): with pipefail, -q's early exit can SIGPIPE sed and read as "no match".
    if ! sed -n '/^import (/,/^)/p' "$WV_SRC/$f" | grep -E '^[[:space:]]*"os"$' >/dev/null; then
      sed -i '0,/^import (/s//import (\n\t"os"/' "$WV_SRC/$f"
    fi
  done
  touch "$WV_SRC/.chsr-patched"
}

# The local server runs with no modules enabled (wv_env), yet upstream links every module, and seven of them
# pull in cloud SDKs (AWS Bedrock/S3/SageMaker, Azure Blob, Google Cloud Storage): a large part of a cold build
# on 2 cores. The build drops those seven from configure_api.go: their registration turns into a warning
# naming the module (three are API-based modules Weaviate enables by default; none is used here: vectors come
# from the mesh's encoder and wv_env enables no module), their names stay as literals. backup-s3 and
# offload-s3 stay (minio, which the OIDC code links anyway). Checked against the pinned version: a pattern that
# is not found stops the build. CHSR_WEAVIATE_ALL_MODULES=1 builds upstream's full module set.
WV_TRIM_FILE="adapters/handlers/rest/configure_api.go"
WV_TRIM_MODULES="modstgazure:backup-azure modstggcs:backup-gcs modgenerativeaws:generative-aws
 modmulti2vecaws:multi2vec-aws modtext2vecaws:text2vec-aws modusagegcs:usage-gcs modusages3:usage-s3"

wv_patch_trim_modules() {
  local f="$WV_SRC/$WV_TRIM_FILE" entry alias name
  [ "${CHSR_WEAVIATE_ALL_MODULES:-0}" = "1" ] && return 0
  [ -f "$WV_SRC/.chsr-trimmed" ] && return 0
  for entry in $WV_TRIM_MODULES; do
    alias="${entry%%:*}" name="${entry#*:}"
    grep -qE "^[[:space:]]$alias \"github.com/weaviate/weaviate/modules/$name\"\$" "$f" ||
      chsr_die "trim: import of $name not found in $WV_TRIM_FILE (upstream changed?)"
    grep -qF "appState.Modules.Register($alias.New())" "$f" ||
      chsr_die "trim: registration of $name not found in $WV_TRIM_FILE (upstream changed?)"
    sed -i -e "/^[[:space:]]$alias \"github.com\/weaviate\/weaviate\/modules\/$name\"\$/d" \
      -e "s/appState\.Modules\.Register($alias\.New())/appState.Logger.WithField(\"module\", \"$name\").Warn(\"not built into this local weaviate-server (deploy\/local\/weaviate.sh): skipped\")/" \
      -e "s/\b$alias\.Name\b/\"$name\"/g" "$f"
    ! grep -qE "\b$alias\." "$f" || chsr_die "trim: $alias is still used in $WV_TRIM_FILE (upstream changed?)"
  done
  touch "$WV_SRC/.chsr-trimmed"
}

# wv_env NODE DATA_DIR GRPC_PORT GOSSIP_PORT DATA_PORT RAFT_PORT RAFT_RPC_PORT BOOTSTRAP_EXPECT
# Sets the array WV_ENV to the environment every local Weaviate node runs with (`env "${WV_ENV[@]}"`),
# the single node here and each node of deploy/local/clusters.sh, which adds its join lists and
# replication settings on top: loopback only, anonymous access, no modules, no telemetry, no
# profiling or metrics listeners, and the node's own data dir, name and ports.
wv_env() {
  [ $# -eq 8 ] || chsr_die "wv_env: expected 8 arguments, got $#"
  WV_ENV=(
    CHSR_LISTEN_HOST="$CHSR_HOST"
    PERSISTENCE_DATA_PATH="$2"
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true
    DEFAULT_VECTORIZER_MODULE=none
    ENABLE_MODULES=
    QUERY_DEFAULTS_LIMIT="${CHSR_WEAVIATE_QUERY_LIMIT:-25}"
    DISABLE_TELEMETRY=true
    GO_PROFILING_DISABLE=true
    PROMETHEUS_MONITORING_ENABLED=false
    GRPC_PORT="$3"
    CLUSTER_HOSTNAME="$1"
    CLUSTER_IN_LOCALHOST=true
    CLUSTER_BIND_ADDR="$CHSR_HOST"
    CLUSTER_ADVERTISE_ADDR="$CHSR_HOST"
    CLUSTER_GOSSIP_BIND_PORT="$4"
    CLUSTER_DATA_BIND_PORT="$5"
    RAFT_PORT="$6"
    RAFT_INTERNAL_RPC_PORT="$7"
    RAFT_BOOTSTRAP_EXPECT="$8"
    LOG_LEVEL="${CHSR_WEAVIATE_LOG_LEVEL:-info}"
  )
}

wv_installed() { [ -x "$WV_BIN/weaviate-server" ] && [ -f "$WV_BIN/.chsr-built" ]; }

wv_install() {
  chsr_dirs
  if wv_installed; then
    chsr_log "installed: $WV_BIN/weaviate-server ($CHSR_WEAVIATE_VERSION)"
    return 0
  fi
  chsr_go_env
  local blog="$CHSR_LOG_DIR/weaviate-build.log" t0=$SECONDS
  mkdir -p "$WV_BIN"
  chsr_log "building weaviate-server $CHSR_WEAVIATE_VERSION with $(go version | awk '{print $3}') (log: $blog; ~4 min cold on 2 cores beside other work, seconds cached)"
  chsr_go_module_src "$WV_MODULE" "$CHSR_WEAVIATE_VERSION" "$WV_SRC" >>"$blog" 2>&1 ||
    { chsr_tail_logs "$blog"; chsr_die "go mod download $WV_MODULE@$CHSR_WEAVIATE_VERSION failed"; }
  wv_patch_listen_host
  wv_patch_trim_modules
  (cd "$WV_SRC" && go build -ldflags "$WV_LDFLAGS" -o "$WV_BIN/weaviate-server.tmp" ./cmd/weaviate-server) \
    >>"$blog" 2>&1 || { chsr_tail_logs "$blog"; rm -rf "$WV_SRC"; chsr_die "weaviate build failed (patched source removed; a rerun starts from the module cache)"; }
  mv "$WV_BIN/weaviate-server.tmp" "$WV_BIN/weaviate-server"
  touch "$WV_BIN/.chsr-built"
  chsr_log "built in $((SECONDS - t0))s: $WV_BIN/weaviate-server"
}

wv_healthy() { chsr_http_ok "$WV_URL/v1/.well-known/ready"; }

wv_start() {
  if chsr_pid_alive "$WV_PIDFILE" "$WV_PATTERN"; then
    chsr_log "already running (pid $(chsr_pid_read "$WV_PIDFILE")), checking health"
    chsr_wait_healthy weaviate "$WV_PIDFILE" "$WV_PATTERN" "$CHSR_START_TIMEOUT" "$WV_LOG" wv_healthy
    return
  fi
  rm -f "$WV_PIDFILE"
  wv_install
  local p
  for p in "$WV_HTTP_PORT" "$WV_GRPC_PORT" "$WV_GOSSIP_PORT" "$WV_DATA_PORT" "$WV_RAFT_PORT" "$WV_RAFT_RPC_PORT"; do
    chsr_require_port_free "$p" "Weaviate"
  done
  mkdir -p "$WV_DATA"
  chsr_log "starting weaviate $CHSR_WEAVIATE_VERSION on $WV_URL, gRPC $CHSR_HOST:$WV_GRPC_PORT"
  printf '\n===== %s start =====\n' "$(date -Is)" >>"$WV_LOG"
  wv_env node1 "$WV_DATA" "$WV_GRPC_PORT" "$WV_GOSSIP_PORT" "$WV_DATA_PORT" "$WV_RAFT_PORT" "$WV_RAFT_RPC_PORT" 1
  nohup env "${WV_ENV[@]}" \
    "$WV_BIN/weaviate-server" --host "$CHSR_HOST" --port "$WV_HTTP_PORT" --scheme http \
    {CHSR_LOCK_FD}>&- </dev/null >>"$WV_LOG" 2>&1 &
  echo $! >"$WV_PIDFILE"
  if ! chsr_wait_healthy weaviate "$WV_PIDFILE" "$WV_PATTERN" "$CHSR_START_TIMEOUT" "$WV_LOG" wv_healthy; then
    wv_stop >/dev/null 2>&1 || true
    exit 1
  fi
}

wv_stop() { chsr_stop_pidfile weaviate "$WV_PIDFILE" "$WV_PATTERN"; }

wv_status() {
  chsr_status_line weaviate "$WV_PIDFILE" "$WV_PATTERN" "$WV_URL grpc=$CHSR_HOST:$WV_GRPC_PORT" \
    "$CHSR_WEAVIATE_VERSION" wv_healthy
}

# Sourced (deploy/local/clusters.sh reuses the install and helper functions): define only.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  case "${1:-}" in
    install) chsr_lock weaviate; wv_install ;;
    start) chsr_lock weaviate; wv_start ;;
    stop) chsr_lock weaviate; wv_stop ;;
    restart) chsr_lock weaviate; wv_stop; wv_start ;;
    status) wv_status ;;
    *) echo "usage: $0 {install|start|stop|status|restart}" >&2; exit 2 ;;
  esac
fi
