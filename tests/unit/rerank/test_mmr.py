"""MMR with lambda 0.7 (seed 003) on a hand-computed example."""

import pytest

from services.rerank.mmr import mmr

from .helpers import item

pytestmark = pytest.mark.unit

# rel = min-max of (1.0, 0.6, 0.5) = (1, 0.2, 0); J(a, b) = 1, J(a, c) = J(b, c) = 0
ITEMS = [item("a", 1.0, "x y"), item("b", 0.6, "x y"), item("c", 0.5, "z w")]


def test_lambda_07_promotes_the_novel_candidate():
    out = mmr(ITEMS, 0.7)
    # step 1: a = 0.7*1 = 0.7; step 2: b = 0.7*0.2 - 0.3*1 = -0.16, c = 0 -> c; step 3: b = -0.16
    assert [i.doc_id for i in out] == ["a", "c", "b"]
    assert [i.score for i in out] == pytest.approx([0.7, 0.0, -0.16])
    assert out[1].features["mmr"] == pytest.approx(0.0)


def test_lambda_one_is_pure_relevance():
    assert [i.doc_id for i in mmr(ITEMS, 1.0)] == ["a", "b", "c"]


def test_scores_never_increase_along_the_ranking():
    texts = ["alpha beta", "alpha gamma", "beta gamma", "delta", "alpha beta delta", "gamma"]
    out = mmr([item(str(i), 1.0 - i * 0.1, t) for i, t in enumerate(texts)], 0.7)
    scores = [i.score for i in out]
    assert scores == sorted(scores, reverse=True)


def test_edge_cases():
    assert mmr([], 0.7) == []
    tie = mmr([item("a", 1.0, "p"), item("b", 1.0, "q")], 0.7)   # equal scores: keep fused order
    assert [i.doc_id for i in tie] == ["a", "b"]
    with pytest.raises(ValueError):
        mmr(ITEMS, 1.5)
