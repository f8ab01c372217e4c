#!/usr/bin/env bash
# Reproduce benchmarks/scale: single-node Elasticsearch and Weaviate of their own (cluster "scale",
# ports shifted by 2000: ES 31200, Weaviate 30080 / gRPC 27051), grown to each size, measured, stopped.
#   bash benchmarks/scale/run.sh [SIZES]          # default 31755,100000,300000,1000000
#   CHSR_SCALE_RESUME=1 bash benchmarks/scale/run.sh 31755,100000,300000,1000000
#       keeps the engines' data and results.json's rows below the first size not yet measured
# Needs the embedding cache filled once (ingest the curriculum and SciFact corpora with any backend).
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES="${1:-31755,100000,300000,1000000}"
PY="${PY:-.venv/bin/python}"
export CHSR_CLUSTER_NAME=scale CHSR_CLUSTER_NODES=1 CHSR_CLUSTER_PORT_SHIFT=2000 CHSR_CLUSTER_ES_HEAP="${CHSR_CLUSTER_ES_HEAP:-1g}"
LOCAL="${CHSR_LOCAL_DIR:-$HOME/.cache/chsr-local}/clusters/scale"
trap 'deploy/local/clusters.sh stop es weaviate >/dev/null 2>&1 || true' EXIT
RESUME=()
if [ "${CHSR_SCALE_RESUME:-0}" = "1" ]; then
  RESUME=(--resume)
else
  deploy/local/clusters.sh wipe es weaviate >/dev/null 2>&1 || true
fi
nice -n 10 deploy/local/clusters.sh start es weaviate
OMP_WAIT_POLICY=PASSIVE PYTHONPATH=. nice -n 10 "$PY" -m tools.bench.scale --sizes "$SIZES" \
  --es-url http://127.0.0.1:31200 --weaviate-http 127.0.0.1:30080 --weaviate-grpc 127.0.0.1:27051 \
  --es-data "$LOCAL/es-1" --weaviate-data "$LOCAL/weaviate-1" --out benchmarks/scale "${RESUME[@]}"
