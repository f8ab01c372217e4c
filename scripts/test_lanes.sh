#!/usr/bin/env bash
# The whole suite as two pytest processes side by side (the README test command runs this; issue 23).
# Much of the suite's time is waiting (a mesh starting, an engine recovering), so two lanes on two cores take
# less time than one; the fault tests, which judge latency under load, run in phases of their own. What may run
# at the same moment is fixed by the engines each test needs or stops:
#   phase 1  lane "local"    no search engines: unit, contract, security, fuzz, install, ops (its live test reads
#                            the single-node Prometheus, which no test stops), the embedded e2e tests
#            lane "engines"  everything not named here (every other test that uses the single-node engines)
#   phase 2  lane "stops"    the tests that STOP a single-node engine (fault matrix, ingest crash): nothing else
#                            may use those engines meanwhile
#   phase 3  lane "cluster"  the node-fault tests, on the 3-node clusters, alone: they require every search to
#                            be answered while a node is down, and beside the fault matrix's load one search
#                            once missed its 2 s deadline on both legs (CPU, not the cluster)
# A test file not named below runs in the "engines" lane, so a new file is never left out (tests/e2e/test_bench_cli.py
# needs no engine and runs there to even the lanes: ~280 s each on the 2-core machine).
#   bash scripts/test_lanes.sh [--list [--ids]]   (--list: collect only, print each lane's test count or tests)
#   CHSR_LANES_BEFORE_ENGINES="CMD" bash scripts/test_lanes.sh   (CMD readies the engines while the local lane runs)
# Each lane's log is printed when it ends; the exit status is non-zero when any lane failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"

LOCAL=(tests/unit tests/contract tests/security tests/fuzz tests/install tests/ops
       tests/e2e/test_calibrate.py tests/e2e/test_catalogue.py tests/e2e/test_eval_cli.py
       tests/e2e/test_ingest_files.py tests/e2e/test_measured_setup.py tests/e2e/test_mesh.py
       tests/e2e/test_readiness.py tests/e2e/test_readme_example.py)
STOPS=(tests/faults/test_fault_matrix.py tests/faults/test_ingest_crash.py)
CLUSTER=(tests/faults/test_node_faults.py)

ignore() { local p; for p in "$@"; do printf -- '--ignore=%s\n' "$p"; done; }
mapfile -t ENGINES_ARGS < <(echo tests; ignore "${LOCAL[@]}" "${STOPS[@]}" "${CLUSTER[@]}")

# run_lane NAME PORT_BASE ARGS... : one pytest process in the background; its own port range and temp dir.
run_lane() {
  local name=$1 port=$2
  shift 2
  CHSR_TEST_PORT_BASE=$port "$PY" -m pytest -p no:cacheprovider --basetemp="$logs/tmp-$name" "$@" \
    >"$logs/$name.log" 2>&1 &
  echo $! >"$logs/$name.pid"
}

# finish NAME...: wait for each lane, print its log, remember a failure.
finish() {
  local name rc
  for name in "$@"; do
    wait "$(cat "$logs/$name.pid")"
    rc=$?
    printf '\n===== lane %s (exit %s, %s s since start) =====\n' "$name" "$rc" "$((SECONDS - start))"
    cat "$logs/$name.log"
    [ "$rc" -eq 0 ] || failed=1   # 5 (no test collected) fails too: an empty lane is a broken lane list
  done
}

if [ "${1:-}" = "--list" ]; then   # --list: "LANE COUNT" per lane; --list --ids: "LANE NODEID" per test
  for lane in local engines stops cluster; do
    case $lane in
      local) args=("${LOCAL[@]}") ;; engines) args=("${ENGINES_ARGS[@]}") ;;
      stops) args=("${STOPS[@]}") ;; cluster) args=("${CLUSTER[@]}") ;;
    esac
    ids=$("$PY" -m pytest -p no:cacheprovider --collect-only -q "${args[@]}" 2>/dev/null | grep '::')
    if [ "${2:-}" = "--ids" ]; then
      printf '%s\n' "$ids" | sed "s/^/$lane /"
    else
      printf '%s %s\n' "$lane" "$(printf '%s\n' "$ids" | grep -c '::')"
    fi
  done
  exit 0
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/chsr-lanes.XXXXXX")
start=$SECONDS
failed=0

echo "[lanes] phase 1: local (no engines) | engines (logs: $logs)"
run_lane local 56000 "${LOCAL[@]}"
# CHSR_LANES_BEFORE_ENGINES: a command that makes the engines ready (the README command passes the engines' and
# clusters' start, which waits for a cold Weaviate build). It runs while the local lane is already testing, so a
# fresh machine's engine build (minutes) overlaps the tests that need no engine instead of preceding them all.
if [ -n "${CHSR_LANES_BEFORE_ENGINES:-}" ]; then
  echo "[lanes] local lane running; making the engines ready: $CHSR_LANES_BEFORE_ENGINES"
  if ! bash -c "$CHSR_LANES_BEFORE_ENGINES"; then
    echo "[lanes] the engines did not become ready; stopping the local lane" >&2
    kill "$(cat "$logs/local.pid")" 2>/dev/null
    finish local
    exit 1
  fi
  echo "[lanes] engines ready after $((SECONDS - start)) s"
fi
run_lane engines 58000 "${ENGINES_ARGS[@]}"
finish local engines
echo "[lanes] phase 2: stops (engines stopped under load)"
run_lane stops 60000 "${STOPS[@]}"
finish stops
echo "[lanes] phase 3: cluster (node faults)"
run_lane cluster 62000 "${CLUSTER[@]}"
finish cluster
echo "[lanes] all lanes done in $((SECONDS - start)) s; failed: $failed"
grep -h -E "^(FAILED|ERROR) " "$logs"/*.log | head -40
exit $failed
