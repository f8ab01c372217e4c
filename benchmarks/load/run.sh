#!/usr/bin/env bash
# The load report (issue 22): today's default configuration on the single-node engines, one command.
#   bash benchmarks/load/run.sh [OUT]                 # starts the engines and its own mesh, ingests SciFact +
#                                                       the curriculum corpus (31.7k chunks), writes OUT
#   CHSR_LOAD_GATEWAY=host:port bash benchmarks/load/run.sh [OUT]   # drive a mesh already up and ingested
# Pipelines C, D, E at 1 and 8 clients, cache miss and hit, 1,000 mixed queries, plus the anchor: Weaviate's
# own hybrid call on the same queries and collection, the query encoded by the mesh's own encoder.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-benchmarks/load}"
PY="${PY:-.venv/bin/python}"
DATA="${CHSR_SHARED_DATA:-../shared/data}"
export CHSR_ES_INDEX="${CHSR_ES_INDEX:-chsr-load}" CHSR_WEAVIATE_COLLECTION="${CHSR_WEAVIATE_COLLECTION:-ChsrLoad}"
export CHSR_REDIS_URL="${CHSR_REDIS_URL:-redis://127.0.0.1:16379/3}" OMP_WAIT_POLICY=PASSIVE
# The dense server's query-vector LRU off: a "cache miss" run must hit no cache, and the runs send ~2,400 requests
# from a set of 1,000 queries, so with the LRU on (the default, 1,024 entries) about half of them found their
# vector there (measured 2026-12-05: 1,040 of 2,040 requests of a C + E run). Only applies to the mesh this
# script starts; with CHSR_LOAD_GATEWAY the report's config says what that mesh runs.
export CHSR_QUERY_VECTOR_CACHE="${CHSR_QUERY_VECTOR_CACHE:-0}"
deploy/local/engines.sh start elasticsearch weaviate redis >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ -n "${CHSR_LOAD_GATEWAY:-}" ]; then
  mesh=(--gateway "$CHSR_LOAD_GATEWAY")
else
  mesh=(--start-mesh --corpus "$DATA/scifact/corpus.jsonl" --corpus "$DATA/curriculum/corpus.jsonl")
fi
PYTHONPATH=. "$PY" -m tools.cli.main bench load "${mesh[@]}" --backend engines --pipelines C,D,E \
  --concurrency 1,8 --duration 8 --queries mixed --anchor --out "$OUT"
