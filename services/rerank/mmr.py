"""Maximal Marginal Relevance (Carbonell & Goldstein, SIGIR 1998), lambda 0.7 (seed 003).

    next = argmax_d  lambda * rel(d) - (1 - lambda) * max_{s in selected} sim(d, s)

``rel`` is the fused score min-max normalised over the pool and ``sim`` the token
Jaccard of :mod:`services.rerank.similarity` (cheap; embeddings are not carried on the
wire). The whole pool is ordered. Because the max-similarity term can only grow as
the selection grows, the selected objective values never increase, so the MMR value
is a valid ranking score (features["mmr"]); ties break by fused rank.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from services.rerank.items import RerankItem
from services.rerank.similarity import pairwise_jaccard

MMR_LAMBDA = 0.7


def _relevance(items: Sequence[RerankItem]) -> np.ndarray:
    s = np.array([it.score if np.isfinite(it.score) else -np.inf for it in items], dtype=np.float64)
    finite = np.isfinite(s)
    if not finite.any():
        return np.zeros(len(items))
    lo, hi = s[finite].min(), s[finite].max()
    rel = np.where(finite, (s - lo) / (hi - lo) if hi > lo else 1.0, 0.0)
    return rel


def mmr(items: Sequence[RerankItem], lambda_: float = MMR_LAMBDA, *,
        sim: np.ndarray | None = None) -> list[RerankItem]:
    if not 0.0 <= lambda_ <= 1.0:
        raise ValueError(f"mmr_lambda must be in [0, 1], got {lambda_}")
    n = len(items)
    if n == 0:
        return []
    sim = pairwise_jaccard([it.text for it in items]) if sim is None else sim
    rel = _relevance(items)
    max_sim = np.zeros(n)
    remaining = np.ones(n, dtype=bool)
    out: list[RerankItem] = []
    for _ in range(n):
        objective = np.where(remaining, lambda_ * rel - (1.0 - lambda_) * max_sim, -np.inf)
        best = int(np.argmax(objective))  # first max = best fused rank
        out.append(items[best].rescored(float(objective[best]), mmr=float(objective[best])))
        remaining[best] = False
        max_sim = np.maximum(max_sim, sim[best])
    return out
