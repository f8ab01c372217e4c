#!/usr/bin/env bash
# The fast tier (README "Fast tier"): the unit tests and the end-to-end tests on the embedded default,
# side by side (one per core), no engines. A newcomer's check after changing a line; CI runs everything.
#   bash scripts/fast_tests.sh            # after `bash scripts/setup_and_test.sh` (or a pip install of .[all,dev])
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
logs=$(mktemp -d)
start=$SECONDS
CHSR_TEST_PORT_BASE=56000 "$PY" -m pytest -m unit -q -p no:cacheprovider >"$logs/unit.log" 2>&1 &
unit=$!
CHSR_TEST_PORT_BASE=58000 "$PY" -m pytest -m "e2e and not elasticsearch and not weaviate" -q -p no:cacheprovider >"$logs/e2e.log" 2>&1 &
e2e=$!
wait $unit; unit_rc=$?
wait $e2e; e2e_rc=$?
for kind in unit e2e; do
  printf '%-4s %s\n' "$kind" "$(tail -n 1 "$logs/$kind.log")"
done
echo "fast tier: $((SECONDS - start)) s (logs: $logs)"
if [ $unit_rc -ne 0 ] || [ $e2e_rc -ne 0 ]; then
  grep -h -E "^(FAILED|ERROR)" "$logs/unit.log" "$logs/e2e.log" | head -20
  exit 1
fi
