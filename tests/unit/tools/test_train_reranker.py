"""`chsr train-reranker` logic on tiny BEIR-shaped data (issue 4: a CI test on tiny data).

The training test is marked ``slow`` (about a minute on a loaded 2-core CPU) but is not
skipped: it trains the bundled MiniLM for a few steps, reloads the saved directory through
the rerank service's own scorer and requires every training query's positive to outscore
its unrelated documents.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from services.rerank.cross_encoder import CrossEncoderScorer
from tools.train.reranker import main, mine_bm25_negatives, read_qrels, train_cross_encoder

pytestmark = pytest.mark.unit

DOCS = {
    "d0": ("Photosynthesis", "Plants convert sunlight, water and carbon dioxide into glucose and oxygen in chloroplasts."),
    "d1": ("Volcanoes", "Magma rises through the crust and erupts as lava, ash and volcanic gases."),
    "d2": ("Insulin", "The pancreas secretes insulin, which lowers blood glucose by helping cells absorb sugar."),
    "d3": ("Tides", "Ocean tides are caused by the gravitational pull of the moon and the sun on the oceans."),
    "d4": ("Antibiotics", "Antibiotics kill bacteria or stop their growth; they do not work against viruses."),
    "d5": ("Plate tectonics", "Earthquakes happen where tectonic plates slide past or collide with each other."),
    "d6": ("Vaccines", "Vaccines train the immune system to recognise a virus so that later infection is milder."),
    "d7": ("Greenhouse effect", "Carbon dioxide and methane trap heat in the atmosphere and warm the planet."),
    "d8": ("Blood sugar", "Glucose in the blood comes from food; diabetes is a disease of high blood sugar."),
    "d9": ("Moon phases", "The moon shows phases because we see different parts of its sunlit half as it orbits."),
}
QUERIES = {"q0": "how do plants make glucose and oxygen from sunlight",
           "q1": "which hormone from the pancreas lowers blood glucose",
           "q2": "what causes ocean tides", "q3": "do antibiotics work against viruses"}
QRELS = {"q0": "d0", "q1": "d2", "q2": "d3", "q3": "d4"}


@pytest.fixture()
def beir_dir(tmp_path: Path) -> Path:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": d, "title": t, "text": x}) + "\n" for d, (t, x) in DOCS.items()))
    (tmp_path / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n" for q, t in QUERIES.items()))
    (tmp_path / "qrels" / "train.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, d in QRELS.items()) + "q0\td9\t0\n")
    return tmp_path


def test_read_qrels_skips_the_header(beir_dir):
    qrels = read_qrels(beir_dir / "qrels" / "train.tsv")
    assert qrels["q1"] == {"d2": 1} and qrels["q0"] == {"d0": 1, "d9": 0}


def test_bm25_negatives_exclude_positives_and_rank_lexical_matches_first():
    ids = list(DOCS)
    texts = [f"{t}\n{x}" for t, x in DOCS.values()]
    negs = mine_bm25_negatives(ids, texts, QUERIES, {q: {d} for q, d in QRELS.items()}, per_query=2)
    assert all(len(n) == 2 and QRELS[q] not in n for q, n in negs.items())
    assert negs["q1"][0] == "d8"   # "blood glucose" shares the most terms with the insulin query


def test_refuses_to_train_on_test(beir_dir, tmp_path):
    with pytest.raises(SystemExit):
        main([str(beir_dir), str(tmp_path / "out"), "--split", "test"])


@pytest.mark.slow
def test_train_tiny_model_ranks_positives_first(beir_dir, tmp_path):
    out = tmp_path / "ce"
    result = train_cross_encoder(beir_dir / "corpus.jsonl", beir_dir / "queries.jsonl",
                                 beir_dir / "qrels" / "train.tsv", out, negatives_per_query=2, epochs=8,
                                 batch_size=12, learning_rate=3e-4, max_length=64, seed=42)
    assert result.queries == 4 and result.pairs == 12 and result.steps == 8
    assert (out / "config.json").is_file() and (out / "chsr_training.json").is_file()
    assert np.isfinite(result.final_loss)
    scorer = CrossEncoderScorer(out, max_length=64)
    for qid, pos in QRELS.items():
        texts = {d: f"{t}\n{x}" for d, (t, x) in DOCS.items()}
        scores = dict(zip(texts, scorer.score(QUERIES[qid], list(texts.values()))))
        assert np.isfinite(list(scores.values())).all()
        others = [s for d, s in scores.items() if d != pos]
        assert scores[pos] > np.median(others), (qid, scores)

    # The onnx-int8 runtime scores the same saved model: same order of magnitude, same ranking signal.
    pytest.importorskip("onnxruntime")
    from services.rerank.onnx_cross_encoder import OnnxCrossEncoderScorer

    texts = [f"{t}\n{x}" for t, x in DOCS.values()]
    onnx_scorer = OnnxCrossEncoderScorer(out, tmp_path / "cache", max_length=64)
    for qid in QRELS:
        fp32 = scorer.score(QUERIES[qid], texts)
        int8 = onnx_scorer.score(QUERIES[qid], texts)
        assert int8.shape == fp32.shape and np.isfinite(int8).all()
        assert np.corrcoef(fp32, int8)[0, 1] > 0.9, (qid, fp32, int8)
    exported = list((tmp_path / "cache" / "onnx-ce").glob("*/cross-encoder-int8.onnx"))
    assert len(exported) == 1
    OnnxCrossEncoderScorer(out, tmp_path / "cache", max_length=64).ensure_loaded()  # reuses the export
    assert list((tmp_path / "cache" / "onnx-ce").glob("*/cross-encoder-int8.onnx")) == exported


def test_random_negatives_are_added_and_never_positive(beir_dir):
    from tools.train.reranker import build_pairs

    hard_only, _ = build_pairs(beir_dir / "corpus.jsonl", beir_dir / "queries.jsonl", beir_dir / "qrels" / "train.tsv",
                               2, 30, 42, None)
    mixed, n_queries = build_pairs(beir_dir / "corpus.jsonl", beir_dir / "queries.jsonl",
                                   beir_dir / "qrels" / "train.tsv", 2, 30, 42, None, random_negatives_per_query=3)
    assert n_queries == 4 and len(mixed) == len(hard_only) + 4 * 3
    by_query = {}
    for q, text, label in mixed:
        by_query.setdefault(q, []).append((text, label))
    for qid, pos in QRELS.items():
        rows = by_query[QUERIES[qid]]
        positive_text = "\n".join(DOCS[pos])
        assert [lab for t, lab in rows if t == positive_text] == [1.0]
        assert len({t for t, _ in rows}) == len(rows)  # no document twice for one query


def test_holdout_keeps_every_nth_sorted_query_out():
    from tools.train.reranker import holdout_ids

    assert holdout_ids(["q3", "q1", "q2", "q4", "q5"], 2) == {"q1", "q3", "q5"}
    assert holdout_ids(["a", "b"], 0) == set()


def test_holdout_by_document_keeps_queries_that_share_a_judged_document_together():
    from tools.train.reranker import holdout_ids

    positives = {"q1": {"d1"}, "q2": {"d2"}, "q3": {"d1", "d3"}, "q4": {"d3"}, "q5": {"d5"}}
    # groups in order of first id: {q1, q3, q4} (d1, d3), {q2}, {q5}; every 2nd group from the first
    assert holdout_ids(list(positives), 2, positives) == {"q1", "q3", "q4", "q5"}
    held = holdout_ids(list(positives), 3, positives)
    trained = set(positives) - held
    assert not {d for q in held for d in positives[q]} & {d for q in trained for d in positives[q]}
