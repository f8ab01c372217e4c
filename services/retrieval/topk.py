"""Top-k over a whole-corpus score vector with the scope filter applied before the cut."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from chsr.documents import Doc
from chsr.scope import Scope
from services.retrieval.backend import Hit
from services.retrieval.columns import MetadataColumns


def masked_top_k(scores: np.ndarray, docs: Sequence[Doc], columns: MetadataColumns, flt: Scope, k: int) -> list[Hit]:
    """The ``k`` best positive scores among the rows ``flt`` admits (mask before top-k); rows align
    with ``docs`` and ``columns``. Ties keep row order."""
    mask = columns.mask(flt)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    candidates = np.flatnonzero(scores > 0)
    if candidates.size == 0 or k <= 0:
        return []
    top = candidates[np.argsort(-scores[candidates], kind="stable")[:k]]
    return [Hit(doc_id=docs[i].id, score=float(scores[i]), doc=docs[i]) for i in top]
