#!/usr/bin/env bash
# The gate through the mesh, scored like the held-out check: `chsr run` (query text only, K = 8)
# on the curriculum dev cases, a sample of the generated set and the validation cases (measured only, never
# tuned on), then ../shared/tools/curriculum_score.py.
#   CHSR_CURRICULUM_DIR=../shared/data/curriculum bash scripts/bench_gate_mesh.sh [OUT_DIR] [embedded|engines]
#   CHSR_GEN_SAMPLE=5 (every 5th generated case; 1 = all 6,900)   CHSR_BENCH_PIPELINES=B,C,E
#   CHSR_BENCH_SETS=dev,generated,validation,authored ("authored": the independently written cases in
#   benchmarks/cerb-generalisation/authored, measured like validation)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${CHSR_CURRICULUM_DIR:-../shared/data/curriculum}
SCORER=${CHSR_SCORER:-../shared/tools/curriculum_score.py}
OUT=${1:-benchmarks/cerb-generalisation/mesh}
BACKEND=${2:-embedded}
PIPELINES=${CHSR_BENCH_PIPELINES:-B,C,E}
SETS=${CHSR_BENCH_SETS:-dev,generated,validation}
PORT=${CHSR_BENCH_PORT:-57051}
DATA_DIR=${CHSR_BENCH_DATA_DIR:-$HOME/.cache/chsr/bench-curriculum-$BACKEND}
GW=127.0.0.1:$PORT
export CHSR_VOCABULARY_PATH=$DATA/corpus.jsonl
if [ "$BACKEND" = engines ]; then
  deploy/local/engines.sh start elasticsearch weaviate redis
  export CHSR_ES_INDEX=chsr-curriculum CHSR_WEAVIATE_COLLECTION=ChsrCurriculum
fi
mkdir -p "$OUT"
.venv/bin/python -m tools.gate.mesh_report queries "$DATA/cases.dev.jsonl" "$OUT/dev.queries.jsonl"
.venv/bin/python -m tools.gate.mesh_report queries "$DATA/cases.validation.jsonl" "$OUT/validation.queries.jsonl"
AUTHORED=benchmarks/cerb-generalisation/authored/cases.jsonl
.venv/bin/python -m tools.gate.mesh_report queries "$AUTHORED" "$OUT/authored.queries.jsonl"
.venv/bin/python -m tools.gate.mesh_report queries benchmarks/cerb-generalisation/generated.jsonl \
  "$OUT/generated.queries.jsonl" --sample "${CHSR_GEN_SAMPLE:-5}" --cases-out "$OUT/generated.cases.jsonl"
.venv/bin/chsr up --backend "$BACKEND" --data-dir "$DATA_DIR" --port "$PORT" --metrics-base $((PORT + 8)) \
  > "$OUT/up.log" 2>&1 &
UP=$!
trap 'kill $UP 2>/dev/null; wait $UP 2>/dev/null' EXIT
# `chsr up` prints this line once every server answers SERVING.
for _ in $(seq 1 300); do grep -q "^chsr mesh up" "$OUT/up.log" 2>/dev/null && break; kill -0 $UP || exit 1; sleep 1; done
.venv/bin/chsr ingest "$DATA/corpus.jsonl" --gateway "$GW"
for set in ${SETS//,/ }; do
  cases=$DATA/cases.$set.jsonl
  [ "$set" = generated ] && cases=$OUT/generated.cases.jsonl
  [ "$set" = authored ] && cases=$AUTHORED
  for p in ${PIPELINES//,/ }; do
    .venv/bin/chsr run "$OUT/$set.queries.jsonl" -p "$p" -k 8 --concurrency 1 --gateway "$GW" \
      --out "$OUT/$set-$p.run.jsonl"
    .venv/bin/python "$SCORER" --corpus "$DATA/corpus.jsonl" --cases "$cases" --run "$OUT/$set-$p.run.jsonl" \
      -k 8 --json "$OUT/$set-$p.score.json" > "$OUT/$set-$p.score.md"
  done
done
.venv/bin/python -m tools.gate.mesh_report summary "$OUT" --pipelines "$PIPELINES" --sets "$SETS" | tee "$OUT/summary.md"
.venv/bin/python -m tools.gate.mesh_report breakdown "$OUT" --sets "$SETS" | tee "$OUT/breakdown.md"
