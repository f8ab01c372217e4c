"""Weighted sums of normalised scores: linear (convex) fusion and DBSF.

``fused(d) = sum_l w_l * s_l(d)``; for two lists with ``alpha`` this is the convex
combination ``alpha * sparse + (1 - alpha) * dense`` of seed 002 (alpha weights the
*sparse* list there; note seed 003 quoted its 0.3/0.5/0.7 as the *dense* weight, so
its "alpha 0.3" is our ``alpha=0.7``).

Missing documents: a document absent from a list (or present with a NaN score) takes
that list's *floor*, the lowest normalised score in the list -- 0 for min-max. The
document was ranked below every candidate the list returned, so the floor is an upper
bound on its true normalised score and keeps a one-list document comparable without
inventing evidence. An empty list has floor 0 and contributes nothing.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np


def alpha_weights(alpha: float, sparse: str = "sparse", dense: str = "dense") -> dict[str, float]:
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    return {sparse: alpha, dense: 1.0 - alpha}


def list_floor(normalised: np.ndarray) -> float:
    """Lowest normalised score of a list (0.0 for an empty list)."""
    finite = normalised[np.isfinite(normalised)]
    return float(finite.min()) if finite.size else 0.0


def weighted_sum(normalised: Mapping[str, tuple[Sequence[str], np.ndarray]],
                 weights: Mapping[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """Fuse ``{list: (ids, normalised scores with NaN = missing)}``; returns (scores, floors).

    Every document seen in any list gets, from each list, its normalised score or
    that list's floor.
    """
    floors = {name: list_floor(scores) for name, (_, scores) in normalised.items()}
    all_ids: dict[str, None] = {}
    for ids, _ in normalised.values():
        all_ids.update(dict.fromkeys(ids))
    fused = {doc_id: 0.0 for doc_id in all_ids}
    for name, (ids, scores) in normalised.items():
        weight = float(weights.get(name, 1.0))
        if weight == 0.0:
            continue
        floor = floors[name]
        present = {d: (float(s) if np.isfinite(s) else floor) for d, s in zip(ids, scores)}
        for doc_id in fused:
            fused[doc_id] += weight * present.get(doc_id, floor)
    return fused, floors
