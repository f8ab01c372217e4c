#!/usr/bin/env bash
# The SciFact report with a bi-encoder fine-tuned on the *train* qrels (the best pipeline).
#   CHSR_SCIFACT_DIR=../shared/data/scifact bash scripts/bench_scifact_finetuned.sh [OUT_DIR]
# ~35 min of CPU on a busy 2-core machine for training (29 steps), ~5 min to re-embed the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${CHSR_SCIFACT_DIR:-../shared/data/scifact}
MODEL=${CHSR_FT_MODEL:-$HOME/.cache/chsr/models/minilm-scifact-e1}
[ -f "$MODEL/model.safetensors" ] || .venv/bin/chsr train-dense "$DATA" "$MODEL" --epochs 1 --seed 42
export CHSR_MODEL_PATH=$MODEL
export CHSR_BENCH_DATA_DIR=${CHSR_BENCH_DATA_DIR:-$HOME/.cache/chsr/bench-scifact-ft}
export CHSR_BENCH_PIPELINES=${CHSR_BENCH_PIPELINES:-rrf,dense,hybrid_fixed,hybrid_calibrated,entropy_zscore,adaptive,linear_0.3,linear_0.7}
exec bash scripts/bench_scifact.sh "${1:-benchmarks/scifact-finetuned-dense}"
