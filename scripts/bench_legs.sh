#!/usr/bin/env bash
# Reproduce the new legs' and the reranking reports through the mesh (embedded backend):
#   benchmarks/scifact-legs      SciFact test: tfidf, ppmi, ppmi_rrf, kg, kg_rrf, ... vs BM25
#   benchmarks/scifact-rerank    cross-encoder blends vs the fusion each reranks (tuned on train)
#   benchmarks/strategies        seed 003's fifteen strategies on SciFact test and the curriculum dev cases
#   benchmarks/cerb-dev-rerank   the blend on the curriculum dev cases (a corpus it was not tuned on)
#   benchmarks/legs-cost         build time, size and query time of TF-IDF, PPMI and the graph (+ engines path)
# Usage: CHSR_SCIFACT_DIR=../shared/data/scifact CHSR_CURRICULUM_DIR=../shared/data/curriculum \
#        CHSR_CROSS_ENCODER_PATH=~/.cache/chsr/models/ce-scifact-v6 bash scripts/bench_legs.sh [steps]
# steps (default all): cost scifact rerank tune strategies curriculum (scifact = the legs, rerank = the blends). The cross-encoder comes from
#   chsr train-reranker ../shared/data/scifact ~/.cache/chsr/models/ce-scifact-v6 --negatives-per-query 3 \
#     --random-negatives-per-query 1 --max-length 128 --epochs 2 --batch-size 32 --lr 1e-4 --holdout-every 3
# (every 3rd group of train claims sharing a judged abstract is kept out of training; `tune` tunes the
# blend on those queries only)
# `tune` rewrites benchmarks/scifact-rerank/tuning.json from train queries; the weights it picks are
# copied into gateway/pipelines.py (CE_TUNED) before the test-split runs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${CHSR_PY:-.venv/bin/python}
CLI="$PY -m tools.cli.main"
SF=${CHSR_SCIFACT_DIR:-../shared/data/scifact}
CUR=${CHSR_CURRICULUM_DIR:-../shared/data/curriculum}
CE=${CHSR_CROSS_ENCODER_PATH:?set CHSR_CROSS_ENCODER_PATH to a chsr train-reranker output}
PORT=${CHSR_BENCH_PORT:-58151}
GW=127.0.0.1:$PORT
STEPS=${*:-cost scifact rerank tune strategies curriculum}
export CHSR_QUERY_VECTOR_CACHE=8192 CHSR_CROSS_ENCODER_PATH="$CE" CHSR_CROSS_ENCODER_RUNTIME=onnx-int8 \
  CHSR_CROSS_ENCODER_MAX_LENGTH=128 CHSR_DEFAULT_DEADLINE_MS=30000

up() {  # $1 = data dir; waits until the gateway answers
  $CLI up --data-dir "$1" --port "$PORT" --metrics-base $((PORT - 48900)) --log-dir "$1/logs" &
  UP=$!
  trap 'kill $UP 2>/dev/null; wait $UP 2>/dev/null' EXIT
  for _ in $(seq 1 120); do $CLI index stats --gateway "$GW" >/dev/null 2>&1 && return; sleep 2; done
  echo "mesh did not come up" >&2; exit 1
}
down() { kill "$UP"; wait "$UP" 2>/dev/null || true; trap - EXIT; }

has() { [[ " $STEPS " == *" $1 "* ]]; }
squeeze() { gzip -f9 "$1"/per_query.jsonl "$1"/runs/*.trec 2>/dev/null || true; }  # keep reports small

if has cost; then
  $PY -m tools.bench.legs_cost --out benchmarks/legs-cost ${CHSR_BENCH_ES_URL:+--es-url "$CHSR_BENCH_ES_URL"}
fi
if has scifact || has rerank || has tune || has strategies; then
  D=$HOME/.cache/chsr/bench-legs-scifact
  up "$D"
  $CLI ingest "$SF/corpus.jsonl" --gateway "$GW"
  if [ ! -f "$D/calibration/cdf_dense.npz" ]; then  # train split only; reused while the corpus is the same
    $CLI calibrate --beir "$SF" --split train --max-queries 200 --depth 5000 \
      --sparse 127.0.0.1:$((PORT + 2)) --dense 127.0.0.1:$((PORT + 3)) --out "$D/calibration"
    sleep 3
  fi
  if has tune; then
    $PY -m tools.eval.tune_rerank "$SF" --gateway "$GW" --cross-encoder "$CE" --pipelines rrf,hybrid_fixed,hybrid_calibrated \
      --pools 10,20,30,50 --max-length 128 --max-queries 400 --out benchmarks/scifact-rerank/tuning.json
  fi
  if has scifact; then
    $CLI eval beir "$SF" --split test --gateway "$GW" --concurrency 2 --baseline sparse --out benchmarks/scifact-legs \
      --pipelines rrf,sparse,dense,tfidf,ppmi,ppmi_rrf,kg,kg_rrf,kg_rrf_plain,rrf_tfidf
    squeeze benchmarks/scifact-legs
  fi
  if has rerank; then
    $CLI eval beir "$SF" --split test --gateway "$GW" --concurrency 1 --baseline rrf --h1-pipeline hybrid_calibrated \
      --pipelines rrf,rrf_ce,hybrid_fixed,hybrid_fixed_rerank,linear_0.5,linear_0.5_ce,hybrid_calibrated,hybrid_calibrated_rerank,hybrid_fixed_ce_alone \
      --pairs rrf_ce:rrf,hybrid_fixed_rerank:hybrid_fixed,linear_0.5_ce:linear_0.5,hybrid_calibrated_rerank:hybrid_calibrated,hybrid_fixed_ce_alone:hybrid_fixed \
      --out benchmarks/scifact-rerank
    squeeze benchmarks/scifact-rerank
  fi
  has strategies && $CLI eval strategies scifact "$SF" --gateway "$GW" --out benchmarks/strategies
  down
fi
if has strategies || has curriculum; then
  D=$HOME/.cache/chsr/bench-legs-curriculum
  up "$D"
  $CLI ingest "$CUR/corpus.jsonl" --gateway "$GW"
  has strategies && $CLI eval strategies curriculum "$CUR" --gateway "$GW" --out benchmarks/strategies
  if has curriculum; then
    $CLI eval cerb --corpus "$CUR/corpus.jsonl" --cases "$CUR/cases.dev.jsonl" --gateway "$GW" \
      --pipelines hybrid_fixed,hybrid_fixed_rerank,rrf,rrf_ce,C,kg_rrf --out benchmarks/cerb-dev-rerank
  fi
  down
fi
$PY -m tools.eval.strategies_report benchmarks/strategies
