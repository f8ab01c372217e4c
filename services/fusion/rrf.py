"""Reciprocal rank fusion (Cormack, Clarke & Buettcher, SIGIR 2009).

score(d) = sum over lists l of  w_l / (k + rank_l(d)),  rank 1-based, k = 60 (the paper's
constant, used by seeds 000, 002 and 003). Only ranks are used, so RRF is immune to the
incompatible score scales of BM25 and cosine similarity (seed 003, section 7). A list's
``window`` keeps only its first ``window`` candidates (0 = all), as in ranx's ``rrf``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

RRF_K = 60.0


def rrf(ranked: Mapping[str, Sequence[str]], *, k: float = RRF_K,
        weights: Mapping[str, float] | None = None, window: int = 0) -> dict[str, float]:
    """Fused scores by doc id; ``ranked`` maps list name -> doc ids in rank order (unique)."""
    if k < 0:
        raise ValueError(f"rrf k must be >= 0, got {k}")
    fused: dict[str, float] = {}
    for name, ids in ranked.items():
        weight = 1.0 if weights is None else float(weights.get(name, 1.0))
        limit = len(ids) if window <= 0 else min(window, len(ids))
        for rank, doc_id in enumerate(ids[:limit], start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + weight / (k + rank)
    return fused
