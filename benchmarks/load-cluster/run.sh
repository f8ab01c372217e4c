#!/usr/bin/env bash
# 3-node clusters vs single node in one run (issue 22, item 4): the load benchmark on a single-node Elasticsearch +
# Weaviate, then on the 3-node clusters (deploy/local/clusters.sh), same mesh settings, queries and corpus (SciFact +
# the curriculum corpus, 31.7k chunks), then the ratios.
#   bash benchmarks/load-cluster/run.sh [OUT]     (default benchmarks/load-cluster/latest; ~25 min on 2 cores with a
#   first ingest, ~5 min when both indexes already hold the corpus)
# Every Elasticsearch node gets the same heap (CHSR_CLUSTER_ES_HEAP, default 1g) so the node count is what differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-benchmarks/load-cluster/latest}"
PY="${PY:-.venv/bin/python}"
export CHSR_CLUSTER_ES_HEAP="${CHSR_CLUSTER_ES_HEAP:-1g}"
args=(--pipelines "${CHSR_LOAD_PIPELINES:-C,E}" --no-cache-hit)
bash benchmarks/fast-defaults/run_load.sh single "$OUT/single" "${args[@]}"
# the single node's engines stop before the cluster run, so idle engines do not share the 2 cores with it
CHSR_CLUSTER_NAME=load1 CHSR_CLUSTER_NODES=1 CHSR_CLUSTER_PORT_SHIFT=4000 deploy/local/clusters.sh stop all
bash benchmarks/fast-defaults/run_load.sh cluster "$OUT/cluster" "${args[@]}"
PYTHONPATH=. "$PY" -m tools.bench.cluster_ratio "$OUT/single/report.json" "$OUT/cluster/report.json" --out "$OUT"
cat "$OUT/README.md"
