"""Columnar curriculum metadata for vectorised admissibility masks.

The embedded backends gate inside the index: they score only rows the mask
admits, before top-k (seed 000: pre-retrieval gating). A null value never
matches a constrained field (curriculum README, "Leakage").
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from chsr.scope import SCOPE_FIELDS, Scope


class MetadataColumns:
    """One object-dtype column per scope field; rows align with the index rows."""

    def __init__(self, metadata: Sequence[Mapping[str, Any]]) -> None:
        self.n = len(metadata)
        self._cols: dict[str, np.ndarray] = {}
        for name in SCOPE_FIELDS:
            col = np.empty(self.n, dtype=object)
            col[:] = [m.get(name) for m in metadata]
            self._cols[name] = col

    def mask(self, scope: Scope) -> np.ndarray | None:
        """Boolean row mask for ``scope``; ``None`` means "all rows" (no constraint)."""
        if scope.is_empty():
            return None
        mask = np.ones(self.n, dtype=bool)
        for name, values in scope.items():
            col = self._cols[name]
            mask &= np.isin(col, np.array(list(values), dtype=object))
        return mask
