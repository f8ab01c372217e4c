#!/usr/bin/env bash
# Reproduce the CERB-style curriculum report through the mesh.
#   CHSR_CURRICULUM_DIR=../shared/data/curriculum bash scripts/bench_curriculum.sh [OUT_DIR] [embedded|engines]
# The gate indexes the corpus's papers/years/sessions at start-up (CHSR_VOCABULARY_PATH = the corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${CHSR_CURRICULUM_DIR:-../shared/data/curriculum}
OUT=${1:-benchmarks/cerb-dev}
BACKEND=${2:-embedded}
PORT=${CHSR_BENCH_PORT:-59051}
DATA_DIR=${CHSR_BENCH_DATA_DIR:-$HOME/.cache/chsr/bench-curriculum-$BACKEND}
GW=127.0.0.1:$PORT
export CHSR_VOCABULARY_PATH=$DATA/corpus.jsonl
if [ "$BACKEND" = engines ]; then
  deploy/local/engines.sh start elasticsearch weaviate redis
  export CHSR_ES_INDEX=chsr-curriculum CHSR_WEAVIATE_COLLECTION=ChsrCurriculum
fi
.venv/bin/chsr up --backend "$BACKEND" --data-dir "$DATA_DIR" --port "$PORT" --metrics-base $((PORT - 49950)) &
UP=$!
trap 'kill $UP 2>/dev/null; wait $UP 2>/dev/null' EXIT
for _ in $(seq 1 180); do .venv/bin/chsr index stats --gateway "$GW" >/dev/null 2>&1 && break; sleep 2; done
start_ingest=$(date +%s)
.venv/bin/chsr ingest "$DATA/corpus.jsonl" --gateway "$GW"
echo "ingest wall time: $(( $(date +%s) - start_ingest ))s ($BACKEND)"
.venv/bin/chsr eval cerb --corpus "$DATA/corpus.jsonl" --cases "$DATA/cases.dev.jsonl" \
  --pipelines A,B,B+,C,D,E --k 8 --gateway "$GW" --out "$OUT"
.venv/bin/chsr eval cerb --corpus "$DATA/corpus.jsonl" --cases "$DATA/cases.dev.jsonl" \
  --pipelines B,C,D,E --k 8 --hints gold --gateway "$GW" --out "$OUT-gold-hints"
