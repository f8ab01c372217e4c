"""Retrieval metrics and the statistics of the benchmark report (seed 002 "H1/H2").

IR metrics come from ``ranx`` (a maintained, numba-compiled library whose nDCG uses
linear gains and a log2(rank + 1) discount, i.e. trec_eval / BEIR's definition);
:func:`ndcg_reference` is a ten-line pure-Python nDCG used only to cross-check it in
a test. Qrels and runs are plain dicts: ``qrels[qid][doc_id] = relevance``,
``run[qid][doc_id] = score``. Judgements with relevance <= 0 are dropped and queries
without any positive judgement are skipped (nothing to find); a judged query missing
from the run scores 0 on every metric rather than being silently ignored.

ranx metric names: ``ndcg@10``, ``mrr@10``, ``precision@3``, ``recall@100``. Per-query
values come from ``evaluate(..., return_mean=False)`` / ``Run.scores``.
"""

from __future__ import annotations

import math
import warnings
from typing import Mapping, Sequence

import numpy as np

DEFAULT_METRICS: tuple[str, ...] = ("ndcg@10", "mrr@10", "precision@3", "precision@5", "recall@5", "recall@100")

Qrels = Mapping[str, Mapping[str, int]]
RunDict = Mapping[str, Mapping[str, float]]


def _prepare(qrels: Qrels, run: RunDict):  # type: ignore[no-untyped-def]
    from ranx import Qrels as RQrels, Run as RRun

    clean_q = {q: {d: int(r) for d, r in rels.items() if r > 0} for q, rels in qrels.items()}
    clean_q = {q: rels for q, rels in clean_q.items() if rels}
    clean_r = {q: {d: float(s) for d, s in run.get(q, {}).items() if math.isfinite(float(s))} for q in clean_q}
    missing = [q for q, docs in clean_r.items() if not docs]
    clean_r = {q: docs for q, docs in clean_r.items() if docs}
    return RQrels(clean_q), (RRun(clean_r) if clean_r else None), sorted(clean_q), missing


def per_query(qrels: Qrels, run: RunDict, metrics: Sequence[str] = DEFAULT_METRICS) -> dict[str, dict[str, float]]:
    """``{metric: {qid: value}}`` over every judged query (0.0 where the run has nothing)."""
    from ranx import evaluate as ranx_evaluate

    rq, rr, qids, _ = _prepare(qrels, run)
    out: dict[str, dict[str, float]] = {m: {q: 0.0 for q in qids} for m in metrics}
    if rr is None:
        return out
    rr = rr.make_comparable(rq)  # adds empty results for judged queries the run lacks
    with warnings.catch_warnings():  # numba's uint64->int64 cast notice inside ranx; harmless
        warnings.filterwarnings("ignore", message="unsafe cast")
        ranx_evaluate(rq, rr, list(metrics), return_mean=False, save_results_in_run=True)
    for m in metrics:
        for q, value in rr.scores[m].items():
            out[m][q] = float(value)
    return out


def evaluate(qrels: Qrels, run: RunDict, metrics: Sequence[str] = DEFAULT_METRICS) -> dict[str, float]:
    """Mean of each metric over every judged query."""
    scores = per_query(qrels, run, metrics)
    return {m: (float(np.mean(list(v.values()))) if v else 0.0) for m, v in scores.items()}


def ndcg(qrels: Qrels, run: RunDict, k: int = 10) -> float:
    return evaluate(qrels, run, [f"ndcg@{k}"])[f"ndcg@{k}"]


def mrr(qrels: Qrels, run: RunDict, k: int = 10) -> float:
    return evaluate(qrels, run, [f"mrr@{k}"])[f"mrr@{k}"]


def precision(qrels: Qrels, run: RunDict, k: int = 5) -> float:
    return evaluate(qrels, run, [f"precision@{k}"])[f"precision@{k}"]


def recall(qrels: Qrels, run: RunDict, k: int = 100) -> float:
    return evaluate(qrels, run, [f"recall@{k}"])[f"recall@{k}"]


def ndcg_reference(rels: Mapping[str, int], ranked_ids: Sequence[str], k: int) -> float:
    """Pure-Python nDCG@k (linear gain, log2(i + 1) discount); only for cross-checking ranx."""
    dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked_ids[:k]) if rels.get(d, 0) > 0)
    ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def paired_bootstrap(a: np.ndarray, b: np.ndarray, n: int = 1000,
                     seed: int = 42) -> tuple[float, float, float, float]:
    """Paired bootstrap of mean(a - b) over queries (seed 002: 1,000 resamples).

    Returns (mean delta, 2.5th and 97.5th percentile of the resampled means, two-sided
    p-value). The p-value tests H0: mean delta = 0 by shifting the bootstrap distribution
    to the null (Efron & Tibshirani 1993, sec. 16.4; Sakai 2006):
    p = P(|mean* - delta| >= |delta|).
    """
    a = np.asarray(a, dtype=np.float64).reshape(-1)
    b = np.asarray(b, dtype=np.float64).reshape(-1)
    if a.shape != b.shape:
        raise ValueError(f"paired_bootstrap: a and b must have the same length, got {a.size} and {b.size}")
    if a.size == 0:
        raise ValueError("paired_bootstrap: no queries")
    delta = a - b
    observed = float(delta.mean())
    rng = np.random.default_rng(seed)
    means = delta[rng.integers(0, delta.size, size=(n, delta.size))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    p = float(np.mean(np.abs(means - observed) >= abs(observed) - 1e-12))
    return observed, float(lo), float(hi), p


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """(r, two-sided p) via scipy; (nan, nan) when undefined (n < 3 or a constant input)."""
    from scipy import stats

    xa = np.asarray(x, dtype=np.float64).reshape(-1)
    ya = np.asarray(y, dtype=np.float64).reshape(-1)
    if xa.shape != ya.shape:
        raise ValueError(f"pearson: x and y must have the same length, got {xa.size} and {ya.size}")
    if xa.size < 3 or np.ptp(xa) == 0 or np.ptp(ya) == 0:
        return math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.pearsonr(xa, ya)
    return float(result.statistic), float(result.pvalue)


def latency_summary(ms: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/mean in milliseconds (numpy linear-interpolated percentiles); zeros when empty."""
    arr = np.asarray(list(ms), dtype=np.float64)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0}
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    return {"p50": float(p50), "p95": float(p95), "p99": float(p99), "mean": float(arr.mean())}
