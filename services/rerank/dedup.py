"""Near-duplicate removal by token Jaccard (seed 003: threshold 0.65).

Greedy in rank order: a candidate is dropped when its similarity to any candidate
already kept is >= ``threshold``, so the best-ranked copy always survives and the
kept order (and scores) are unchanged. A repeated doc id is always a duplicate.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from services.rerank.items import RerankItem
from services.rerank.similarity import pairwise_jaccard

DEDUP_THRESHOLD = 0.65


def dedup(items: Sequence[RerankItem], threshold: float = DEDUP_THRESHOLD, *,
          sim: np.ndarray | None = None) -> tuple[list[RerankItem], int]:
    """Returns (kept items, number removed); ``sim`` may pass a precomputed Jaccard matrix."""
    if not items:
        return [], 0
    sim = pairwise_jaccard([it.text for it in items]) if sim is None else sim
    kept_idx: list[int] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item.doc_id in seen:
            continue
        if kept_idx and float(sim[i, kept_idx].max()) >= threshold:
            continue
        kept_idx.append(i)
        seen.add(item.doc_id)
    return [items[i] for i in kept_idx], len(items) - len(kept_idx)
