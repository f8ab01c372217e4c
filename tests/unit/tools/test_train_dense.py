"""`train_bi_encoder` on tiny data: it must move positives above hard negatives."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from services.inference.model_files import default_model_path
from tools.train.dense import build_triples, train_bi_encoder
from tests.conftest import REPO_ROOT
from tools.demo import DEMO_DIR

pytestmark = [pytest.mark.unit, pytest.mark.slow]
DEMO = DEMO_DIR


def _beir_from_demo(tmp_path):
    (tmp_path / "qrels").mkdir(parents=True)
    shutil.copy(DEMO / "corpus.jsonl", tmp_path / "corpus.jsonl")
    shutil.copy(DEMO / "queries.jsonl", tmp_path / "queries.jsonl")
    shutil.copy(DEMO / "qrels.tsv", tmp_path / "qrels" / "train.tsv")
    return tmp_path


def _margin(model, triples):
    q = model.encode([t[0] for t in triples], normalize_embeddings=True)
    p = model.encode([t[1] for t in triples], normalize_embeddings=True)
    n = model.encode([t[2] for t in triples], normalize_embeddings=True)
    return float(np.mean((q * p).sum(1) - (q * n).sum(1)))


def test_training_widens_the_positive_margin(tmp_path):
    from sentence_transformers import SentenceTransformer

    data = _beir_from_demo(tmp_path / "beir")
    triples = build_triples(data, "train", seed=42)[:32]
    base = SentenceTransformer(str(default_model_path()), device="cpu")
    base.max_seq_length = 64  # texts cut where training cuts them: a step's cost grows with the tokens (~18 s at 256)
    before = _margin(base, triples)
    result = train_bi_encoder(data, tmp_path / "model", epochs=1, batch_size=8, learning_rate=5e-5,
                              max_triples=32, max_seq_length=64)
    after = _margin(SentenceTransformer(result.out_dir, device="cpu"), triples)
    assert result.steps == 4
    assert after > before, (before, after)
    assert json.loads((tmp_path / "model" / "chsr_training.json").read_text())["split"] == "train"


def test_refuses_test_split(tmp_path):
    with pytest.raises(ValueError, match="split"):
        build_triples(_beir_from_demo(tmp_path), "test", seed=1)
