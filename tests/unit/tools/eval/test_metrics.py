"""Metrics via ranx, cross-checked by hand and by a pure-Python nDCG; bootstrap, Pearson, latency."""

import math

import numpy as np
import pytest

from tools.eval.metrics import (evaluate, latency_summary, mrr, ndcg, ndcg_reference, paired_bootstrap, pearson,
                               per_query, precision, recall)

pytestmark = pytest.mark.unit

QRELS = {"q1": {"a": 1, "c": 2}, "q2": {"x": 1}, "q3": {"z": 1}, "q0": {"n": 0}}
RUN = {"q1": {"a": 0.9, "b": 0.8, "c": 0.7}, "q2": {"y": 1.0, "x": 0.5}, "q4": {"a": 1.0}}


def test_ndcg_at_3_by_hand():
    # q1 ranking a(1) b(0) c(2): DCG = 1/log2(2) + 2/log2(4) = 1 + 1 = 2
    # ideal c(2) a(1):          IDCG = 2/log2(2) + 1/log2(3) = 2 + 0.630930 = 2.630930
    # nDCG@3 = 2 / 2.630930 = 0.760188
    scores = per_query(QRELS, RUN, ["ndcg@3"])["ndcg@3"]
    assert scores["q1"] == pytest.approx(2 / (2 + 1 / math.log2(3)))
    assert scores["q1"] == pytest.approx(0.7601875334318685)
    assert ndcg_reference(QRELS["q1"], ["a", "b", "c"], 3) == pytest.approx(scores["q1"])


def test_per_query_handles_unjudged_and_missing_queries():
    scores = per_query(QRELS, RUN, ["mrr@10", "precision@3", "recall@5"])
    assert set(scores["mrr@10"]) == {"q1", "q2", "q3"}     # q0 has no positive judgement; q4 is unjudged
    assert scores["mrr@10"] == {"q1": 1.0, "q2": 0.5, "q3": 0.0}   # q3 absent from the run -> 0
    assert scores["precision@3"]["q1"] == pytest.approx(2 / 3)
    assert scores["recall@5"] == {"q1": 1.0, "q2": 1.0, "q3": 0.0}


def test_means():
    assert mrr(QRELS, RUN, 10) == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    assert precision(QRELS, RUN, 3) == pytest.approx((2 / 3 + 1 / 3 + 0) / 3)
    assert recall(QRELS, RUN, 100) == pytest.approx(2 / 3)
    assert evaluate(QRELS, {}, ["ndcg@10"]) == {"ndcg@10": 0.0}


def test_ranx_ndcg_agrees_with_the_reference_implementation():
    rng = np.random.default_rng(7)
    docs = [f"d{i}" for i in range(30)]
    qrels, run = {}, {}
    for q in range(25):
        qid = f"q{q}"
        rel = rng.choice(docs, size=4, replace=False)
        qrels[qid] = {d: int(g) for d, g in zip(rel, rng.integers(1, 3, size=4))}
        scores = rng.random(len(docs))
        run[qid] = dict(zip(docs, scores.tolist()))
    mine = {q: ndcg_reference(qrels[q], sorted(run[q], key=run[q].get, reverse=True), 10) for q in qrels}
    assert per_query(qrels, run, ["ndcg@10"])["ndcg@10"] == pytest.approx(mine)
    assert ndcg(qrels, run, 10) == pytest.approx(np.mean(list(mine.values())))


def test_paired_bootstrap():
    a = np.array([0.5, 0.7, 0.2, 0.9])
    assert paired_bootstrap(a, a) == (0.0, 0.0, 0.0, 1.0)
    delta, lo, hi, p = paired_bootstrap(a + 0.1, a)
    assert (delta, lo, hi) == pytest.approx((0.1, 0.1, 0.1)) and p == 0.0
    rng = np.random.default_rng(0)
    x, y = rng.random(300), rng.random(300)
    first = paired_bootstrap(x, y, n=1000, seed=42)
    assert first == paired_bootstrap(x, y, n=1000, seed=42)      # seeded: reproducible
    assert first[1] <= first[0] <= first[2] and 0.0 <= first[3] <= 1.0
    assert paired_bootstrap(x + 0.2, y)[3] < 0.01
    with pytest.raises(ValueError):
        paired_bootstrap(np.ones(3), np.ones(4))


def test_pearson():
    r, p = pearson([1, 2, 3, 4], [2, 4, 6, 8])
    assert r == pytest.approx(1.0) and p < 1e-6
    r, _ = pearson([1, 2, 3, 4], [8, 6, 4, 2])
    assert r == pytest.approx(-1.0)
    assert all(math.isnan(v) for v in pearson([0.5, 0.5, 0.5], [1, 2, 3]))   # alpha stuck at 0.5
    assert all(math.isnan(v) for v in pearson([1, 2], [1, 2]))


def test_latency_summary():
    # numpy linear percentiles of 1..100: p50 = 50.5, p95 = 95 + 0.05 = 95.05, p99 = 99.01
    assert latency_summary(list(range(1, 101))) == pytest.approx({"p50": 50.5, "p95": 95.05, "p99": 99.01,
                                                                   "mean": 50.5})
    assert latency_summary([]) == {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0}
