#!/usr/bin/env bash
# Reproduce the SciFact report through the mesh on the embedded backend.
#   CHSR_SCIFACT_DIR=../shared/data/scifact bash scripts/bench_scifact.sh [OUT_DIR]
#   CHSR_BENCH_BACKEND=engines CHSR_BENCH_PIPELINES=sparse,dense,rrf bash scripts/bench_scifact.sh benchmarks/scifact-engines
#   Cross-encoder modes (model from `chsr train-reranker`, scored by ONNX Runtime int8, 100 queries, 1 in flight):
#   CHSR_CROSS_ENCODER_PATH=~/.cache/chsr/models/ce-scifact-v3 CHSR_CROSS_ENCODER_RUNTIME=onnx-int8 \
#   CHSR_CROSS_ENCODER_MAX_LENGTH=128 CHSR_BENCH_MAX_QUERIES=100 CHSR_BENCH_CONCURRENCY=1 \
#   CHSR_BENCH_PIPELINES=rrf,hybrid_fixed,hybrid_fixed_rerank,hybrid_calibrated,hybrid_calibrated_rerank \
#   bash scripts/bench_scifact.sh benchmarks/scifact-cross-encoder
# Steps: start a mesh on its own data dir -> ingest the corpus (embeddings cached by content) ->
# build CDF calibrators from 200 *train* queries -> evaluate every pipeline on the test split.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${CHSR_SCIFACT_DIR:-../shared/data/scifact}
OUT=${1:-benchmarks/scifact}
PORT=${CHSR_BENCH_PORT:-58051}
DATA_DIR=${CHSR_BENCH_DATA_DIR:-$HOME/.cache/chsr/bench-scifact}
PIPELINES=${CHSR_BENCH_PIPELINES:-rrf,sparse,dense,hybrid_fixed,hybrid_calibrated,entropy_raw,entropy_minmax,entropy_zscore,dbsf,adaptive,linear_0.3,linear_0.5,linear_0.7,linear_zscore,rrf_dedup,rrf_dedup_mmr,dense_ann}
GW=127.0.0.1:$PORT
BACKEND=${CHSR_BENCH_BACKEND:-embedded}
if [ "$BACKEND" = engines ]; then
  deploy/local/engines.sh start elasticsearch weaviate redis
  export CHSR_ES_INDEX=${CHSR_ES_INDEX:-chsr-scifact} CHSR_WEAVIATE_COLLECTION=${CHSR_WEAVIATE_COLLECTION:-ChsrScifact}
fi
# Quality runs reuse query vectors across pipelines (CHSR_QUERY_VECTOR_CACHE); latency is measured by
# `chsr bench load` with the cache off.
export CHSR_QUERY_VECTOR_CACHE=${CHSR_QUERY_VECTOR_CACHE:-8192}
.venv/bin/chsr up --backend "$BACKEND" --data-dir "$DATA_DIR" --port "$PORT" --metrics-base $((PORT - 48950)) &
UP=$!
trap 'kill $UP 2>/dev/null; wait $UP 2>/dev/null' EXIT
for _ in $(seq 1 120); do .venv/bin/chsr index stats --gateway "$GW" >/dev/null 2>&1 && break; sleep 2; done
start_ingest=$(date +%s)
.venv/bin/chsr ingest "$DATA/corpus.jsonl" --gateway "$GW"
echo "ingest wall time: $(( $(date +%s) - start_ingest ))s ($BACKEND)"
.venv/bin/chsr calibrate --beir "$DATA" --split train --max-queries 200 --depth 5000 \
  --sparse 127.0.0.1:$((PORT + 2)) --dense 127.0.0.1:$((PORT + 3)) --out "$DATA_DIR/calibration"
sleep 3  # fusion reloads calibrators within 2 s
.venv/bin/chsr eval beir "$DATA" --split test --pipelines "$PIPELINES" --baseline rrf --gateway "$GW" \
  --out "$OUT" --concurrency "${CHSR_BENCH_CONCURRENCY:-2}" --h1-pipeline hybrid_calibrated \
  ${CHSR_BENCH_MAX_QUERIES:+--max-queries "$CHSR_BENCH_MAX_QUERIES"}
