"""Per-list score normalisers for score-space fusion.

Every function takes a 1-D array of *finite* raw scores (the caller drops NaN and
duplicates first, see :mod:`services.fusion.scored_list`) and never divides by zero:
a list with no spread (all-equal scores, a single candidate) maps to a constant,
so it carries no ranking information instead of producing NaN ("all-equal
scores" broke other fusion libraries).

* ``minmax``  (x - min) / (max - min); no spread -> 1.0 ("all tied for best").
* ``zscore``  (x - mean) / std (population std); no spread -> 0.0.
* ``l2``      x / ||x||_2; zero norm -> 0.0.
* ``dbsf``    distribution-based score fusion (Mazzeschi 2023, as in Qdrant and Haystack's
  DocumentJoiner): (x - (mu - 3 sigma)) / (6 sigma), clipped to [0, 1] so an outlier
  beyond 3 sigma cannot outweigh the other list; no spread -> 0.5 (the mean's value).
* ``cdf``     corpus-level empirical CDF (seed 002), see :mod:`services.fusion.calibration`.
* ``raw``     the scores unchanged (only used for the "raw" entropy variant).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from services.fusion.calibration import Calibrator
from chsr.named_enum import NamedEnum


class Normaliser(NamedEnum):
    RAW = "raw"
    MINMAX = "minmax"
    ZSCORE = "zscore"
    L2 = "l2"
    DBSF = "dbsf"
    CDF = "cdf"

    @classmethod
    def field_name(cls) -> str:
        return "norm"

    @classmethod
    def kind(cls) -> str:
        return "normaliser"


def _as_array(x: np.ndarray | list[float]) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).reshape(-1)


def minmax(x: np.ndarray | list[float]) -> np.ndarray:
    x = _as_array(x)
    if x.size == 0:
        return x.copy()
    lo, hi = float(x.min()), float(x.max())
    if hi - lo <= 0.0:
        return np.ones_like(x)
    return (x - lo) / (hi - lo)


def zscore(x: np.ndarray | list[float]) -> np.ndarray:
    x = _as_array(x)
    if x.size == 0:
        return x.copy()
    sd = float(x.std())
    if sd <= 0.0:
        return np.zeros_like(x)
    return (x - float(x.mean())) / sd


def l2(x: np.ndarray | list[float]) -> np.ndarray:
    x = _as_array(x)
    norm = float(np.linalg.norm(x)) if x.size else 0.0
    if norm <= 0.0:
        return np.zeros_like(x)
    return x / norm


def dbsf(x: np.ndarray | list[float]) -> np.ndarray:
    x = _as_array(x)
    if x.size == 0:
        return x.copy()
    mu, sd = float(x.mean()), float(x.std())
    if sd <= 0.0:
        return np.full_like(x, 0.5)
    return np.clip((x - (mu - 3.0 * sd)) / (6.0 * sd), 0.0, 1.0)


def normalise(norm: Normaliser, x: np.ndarray | list[float], calibrator: "Calibrator | None" = None) -> np.ndarray:
    """Dispatch on ``norm``; ``cdf`` needs the list's calibrator (ValueError otherwise)."""
    if norm is Normaliser.RAW:
        return _as_array(x).copy()
    if norm is Normaliser.MINMAX:
        return minmax(x)
    if norm is Normaliser.ZSCORE:
        return zscore(x)
    if norm is Normaliser.L2:
        return l2(x)
    if norm is Normaliser.DBSF:
        return dbsf(x)
    if calibrator is None:
        raise ValueError("cdf normalisation needs a calibrator for this list")
    return calibrator.apply(_as_array(x))
