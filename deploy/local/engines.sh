#!/usr/bin/env bash
# Single entrypoint for the local (no-Docker) engines.
#   deploy/local/engines.sh {install|start|stop|status|restart} [elasticsearch|weaviate|redis|prometheus|all]...
# Each engine is handled by deploy/local/<engine>.sh. With several engines, every one is
# attempted (install/start/restart in parallel unless CHSR_ENGINES_PARALLEL=0) and the exit
# code is non-zero if any failed (status: 0 only if all are running and healthy, else 3).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ALL=(redis prometheus elasticsearch weaviate)

usage() {
  echo "usage: $0 {install|start|stop|status|restart} [elasticsearch|weaviate|redis|prometheus|all]..." >&2
  exit 2
}

action="${1:-}"
case "$action" in install | start | stop | status | restart) ;; *) usage ;; esac
shift

engines=()
[ $# -eq 0 ] && set -- all
for arg in "$@"; do
  case "$arg" in
    all) engines+=("${ALL[@]}") ;;
    es | elasticsearch) engines+=(elasticsearch) ;;
    weaviate) engines+=(weaviate) ;;
    redis) engines+=(redis) ;;
    prom | prometheus) engines+=(prometheus) ;;
    *) echo "unknown engine: $arg" >&2; usage ;;
  esac
done
# Stop in reverse order of start.
if [ "$action" = stop ]; then
  rev=()
  for ((i = ${#engines[@]} - 1; i >= 0; i--)); do rev+=("${engines[i]}"); done
  engines=("${rev[@]}")
fi

failed=()
t0=$SECONDS
if [ "${CHSR_ENGINES_PARALLEL:-1}" = 1 ] && [ ${#engines[@]} -gt 1 ] &&
  { [ "$action" = start ] || [ "$action" = restart ] || [ "$action" = install ]; }; then
  # Engines are independent: start them side by side (log lines are tagged per engine).
  pids=()
  for e in "${engines[@]}"; do
    "$HERE/$e.sh" "$action" &
    pids+=($!)
  done
  for i in "${!engines[@]}"; do
    wait "${pids[i]}" || failed+=("${engines[i]}")
  done
else
  for e in "${engines[@]}"; do
    "$HERE/$e.sh" "$action" || failed+=("$e")
  done
fi

if [ "$action" != status ]; then
  echo "[engines] $action ${engines[*]}: $((SECONDS - t0))s" >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
  if [ "$action" = status ]; then
    echo "[engines] not running or not healthy: ${failed[*]}" >&2
    exit 3
  fi
  echo "[engines] $action FAILED for: ${failed[*]}" >&2
  exit 1
fi
