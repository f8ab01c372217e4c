#!/usr/bin/env bash
# The README's set-up/test command: installs everything, starts the real engines,
# and runs the whole test suite. Safe to rerun; downloads and builds are cached
# (pip cache, ~/.m2, Go build cache, ~/.cache/chsr-local).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

log() { printf '[setup %4ss] %s\n' "$(( $(date +%s) - start ))" "$*"; }

# Go tools, pinned and cached under ~/.cache/chsr-local/bin (deploy/local/tools.sh): kustomize, kube-score and
# promtool (tests/ops), buf (the API check), grpcurl, grpc-health-probe, protoc-gen-go(-grpc) (tests/clients).
# A cold build takes minutes on 2 cores (promtool is the slowest; buf comes from npm in a second); a cached one
# milliseconds. It runs in the background while pip installs and the tests start; a test that needs a tool waits
# for that one (its lock), and the command fails at the end if any tool failed to build.
tools_log="${XDG_CACHE_HOME:-$HOME/.cache}/chsr-local/logs/tools-install.log"
mkdir -p "$(dirname "$tools_log")"
log "building Go tools in the background (kustomize, kube-score, promtool, buf, grpcurl, grpc-health-probe, protoc-gen-go, protoc-gen-go-grpc; cached)"
# Niced (as is the engines' provisioning below): pip, which the tests wait for, gets the CPU first; the builds
# use what pip and the tests leave idle. Cold (2026-12-05): the tests start at 137 s instead of 334 s; the whole
# command is unchanged (17 min 31 s vs 17 min 32 s), since the engines' start then sets the pace.
nice -n 10 deploy/local/tools.sh install >"$tools_log" 2>&1 &
tools_pid=$!

# The engines' binaries (Elasticsearch's Maven zip, Weaviate built from its Go module: ~4 min cold on 2 cores,
# seconds cached; Debian's redis-server and prometheus) are provisioned in the background from the start too,
# so a fresh machine's Weaviate build overlaps pip, the checks and the tests that need no engine.
ENGINES=${CHSR_TEST_ENGINES:-1}
[ -x deploy/local/engines.sh ] || ENGINES=0
engines_log="${XDG_CACHE_HOME:-$HOME/.cache}/chsr-local/logs/engines-install.log"
if [ "$ENGINES" = "1" ]; then
  log "provisioning the engines in the background (Elasticsearch, Weaviate, Redis, Prometheus; cached; log: $engines_log)"
  nice -n 10 deploy/local/engines.sh install all >"$engines_log" 2>&1 &
fi

if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  python3 -m venv .venv
fi
log "installing Python dependencies (cached by pip)"
.venv/bin/python -m pip install -q --upgrade pip
# constraints.txt pins every dependency (and the grpcio-tools the stubs were generated with).
.venv/bin/python -m pip install -q -c constraints.txt -e ".[all,dev]"

log "installing the document typesetter's font for the ingest tests (Debian, cached by apt)"
bash scripts/install_docgen.sh .venv/bin/python >/dev/null

log "installing the gate's French, German and Spanish dictionaries (Debian FreeDict, cached by apt)"
bash scripts/install_dictionaries.sh >/dev/null

log "checking generated gRPC stubs are up to date"
bash scripts/check_protos.sh

log "checking the layering (import-linter contracts in pyproject.toml)"
.venv/bin/lint-imports

# The tests do not wait for the whole Go tool build (promtool alone is minutes cold): a test that needs a tool
# asks deploy/local/tools.sh for it, which waits on that tool's lock while the background build holds it. Only
# buf is needed now (the API check); it comes from npm in seconds.
log "checking the API contract (buf lint, buf breaking against protos/baseline/v1.binpb)"
deploy/local/tools.sh install buf >/dev/null
bash scripts/check_api.sh

lanes_before_engines=""
if [ "$ENGINES" = "1" ]; then
  # Stop them afterwards only if this run started them (engines someone else runs stay up).
  cleanup=":"
  if ! deploy/local/engines.sh status >/dev/null 2>&1; then
    cleanup="deploy/local/engines.sh stop all >/dev/null 2>&1 || true"
  fi
  if [ -x deploy/local/clusters.sh ] && [ "${CHSR_TEST_CLUSTERS:-1}" = "1" ]; then
    cleanup="deploy/local/clusters.sh wipe all >/dev/null 2>&1 || true; $cleanup"
  fi
  trap 'eval "$cleanup"' EXIT
  # Redis and Prometheus first (packaged: seconds; the local lane's ops tests read Prometheus). Each engine's
  # start waits on its lock while the background install still holds it, then finds the binary installed.
  log "starting Redis and Prometheus"
  deploy/local/engines.sh start redis prometheus
  # Elasticsearch and Weaviate (and the 3-node clusters: 3 x Elasticsearch, 3 x Weaviate, Redis primary + replica
  # + Sentinels, for the node-fault tests, marker `cluster`; they share the cached builds and are wiped
  # afterwards) start while the local test lane runs (scripts/test_lanes.sh, CHSR_LANES_BEFORE_ENGINES).
  lanes_before_engines="deploy/local/engines.sh start all || { tail -n 40 '$engines_log' >&2; exit 1; }"
  if [ -x deploy/local/clusters.sh ] && [ "${CHSR_TEST_CLUSTERS:-1}" = "1" ]; then
    lanes_before_engines="$lanes_before_engines; deploy/local/clusters.sh start all"
  fi
  export CHSR_REQUIRE_ENGINES=1
fi

set +e
if [ $# -eq 0 ]; then
  # The whole suite in two lanes side by side, phased so no test stops an engine another test is using.
  log "running tests (scripts/test_lanes.sh: two pytest processes side by side)"
  CHSR_LANES_BEFORE_ENGINES="$lanes_before_engines" bash scripts/test_lanes.sh
else
  if [ -n "$lanes_before_engines" ]; then
    log "starting Elasticsearch, Weaviate and the clusters"
    bash -c "$lanes_before_engines" || exit 1
  fi
  log "running tests (pytest $*)"
  .venv/bin/python -m pytest "$@"
fi
rc=$?
if ! wait "$tools_pid"; then   # the tests that needed a tool waited for it; a tool no test reached must build too
  tail -n 30 "$tools_log" >&2
  log "building the Go tools failed (log: $tools_log)"
  rc=1
fi
set -e
log "done (pytest exit $rc)"
exit $rc
