#!/usr/bin/env bash
# "A topic word is not a scope request": the curriculum corpus and the SciFact abstracts in ONE index;
# SciFact test claims through ungated RRF and the gated pipelines (nDCG@10 must not drop), and the
# curriculum dev cases on the same mixed index (the gate must still gate them).
#   bash scripts/bench_gate_mixed.sh [OUT_DIR] [embedded|engines]
set -euo pipefail
cd "$(dirname "$0")/.."
CUR=${CHSR_CURRICULUM_DIR:-../shared/data/curriculum}
SCI=${CHSR_SCIFACT_DIR:-../shared/data/scifact}
SCORER=${CHSR_SCORER:-../shared/tools/curriculum_score.py}
OUT=${1:-benchmarks/cerb-generalisation/mixed}
BACKEND=${2:-embedded}
PORT=${CHSR_BENCH_PORT:-56051}
DATA_DIR=${CHSR_BENCH_DATA_DIR:-$HOME/.cache/chsr/bench-mixed-$BACKEND}
GW=127.0.0.1:$PORT
export CHSR_VOCABULARY_PATH=$CUR/corpus.jsonl
if [ "$BACKEND" = engines ]; then
  deploy/local/engines.sh start elasticsearch weaviate redis
  export CHSR_ES_INDEX=chsr-mixed CHSR_WEAVIATE_COLLECTION=ChsrMixed
fi
mkdir -p "$OUT"
.venv/bin/chsr up --backend "$BACKEND" --data-dir "$DATA_DIR" --port "$PORT" --metrics-base $((PORT + 8)) > "$OUT/up.log" 2>&1 &
UP=$!
trap 'kill $UP 2>/dev/null; wait $UP 2>/dev/null' EXIT
for _ in $(seq 1 300); do grep -q "^chsr mesh up" "$OUT/up.log" 2>/dev/null && break; kill -0 $UP || exit 1; sleep 1; done
.venv/bin/chsr ingest "$CUR/corpus.jsonl" --gateway "$GW"
.venv/bin/chsr ingest "$SCI/corpus.jsonl" --gateway "$GW"
.venv/bin/chsr eval beir "$SCI" --split test --pipelines rrf,C,E --baseline rrf --gateway "$GW" --out "$OUT/scifact"
.venv/bin/python -m tools.gate.mesh_report queries "$CUR/cases.dev.jsonl" "$OUT/dev.queries.jsonl"
for p in B C E; do
  .venv/bin/chsr run "$OUT/dev.queries.jsonl" -p "$p" -k 8 --concurrency 1 --gateway "$GW" --out "$OUT/dev-$p.run.jsonl"
  .venv/bin/python "$SCORER" --corpus "$CUR/corpus.jsonl" --cases "$CUR/cases.dev.jsonl" --run "$OUT/dev-$p.run.jsonl" \
    -k 8 --json "$OUT/dev-$p.score.json" > "$OUT/dev-$p.score.md"
done
.venv/bin/python -m tools.gate.mesh_report summary "$OUT" --sets dev --pipelines B,C,E | tee "$OUT/summary.md"
