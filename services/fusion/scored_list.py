"""Input cleaning shared by every fusion mode.

Retriever lists are untrusted input: a list may repeat a document (keep its best
score and best rank), carry NaN/inf/None scores, or be empty (edge cases).
A document with a missing score keeps its position, so rank-based RRF is unaffected,
while score-based modes give it the list's lowest normalised score; NaN never reaches
an output score or feature.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class ScoredList:
    """One retriever's list: unique ids in rank order and their scores (NaN = missing)."""

    name: str
    ids: tuple[str, ...]
    scores: np.ndarray
    duplicates: int = 0
    missing_scores: int = 0

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def finite(self) -> np.ndarray:
        return np.isfinite(self.scores)

    def finite_scores(self) -> np.ndarray:
        return self.scores[self.finite]

    def top(self, window: int) -> "ScoredList":
        """The first ``window`` candidates in rank order (0 = all)."""
        if window <= 0 or window >= len(self.ids):
            return self
        scores = self.scores[:window]
        return ScoredList(self.name, self.ids[:window], scores, self.duplicates,
                          int((~np.isfinite(scores)).sum()))


def clean_list(name: str, pairs: Sequence[tuple[str, float]]) -> ScoredList:
    """Deduplicate ids (keep first rank and max finite score); non-finite scores -> NaN."""
    order: list[str] = []
    best: dict[str, float] = {}
    duplicates = 0
    for doc_id, score in pairs:
        value = float(score) if score is not None else math.nan
        if not math.isfinite(value):
            value = math.nan
        if doc_id in best:
            duplicates += 1
            prev = best[doc_id]
            if math.isnan(prev) or (not math.isnan(value) and value > prev):
                best[doc_id] = value
            continue
        order.append(doc_id)
        best[doc_id] = value
    scores = np.array([best[d] for d in order], dtype=np.float64)
    return ScoredList(name, tuple(order), scores, duplicates, int(np.isnan(scores).sum()))
