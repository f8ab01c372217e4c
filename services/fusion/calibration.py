"""Corpus-level CDF score calibration (seed 002, "Corpus-Level CDFs").

A retriever's raw score is mapped to its percentile in a reference distribution of
scores, ``calibrated = CDF_corpus(raw)``, so BM25 and cosine scores live on one
[0, 1] scale and their entropies become comparable. The reference distribution is
built *offline* from scores of train or pseudo queries against the whole corpus --
never from test queries, which would leak the evaluation set into the model
-- and is versioned with the index by ``generation``.

Storage: ``n_points`` quantiles of the sorted reference scores (not every score:
seed 002 sorted 1.7 M scores; 2,001 quantiles reproduce that CDF to 0.0005).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

DEFAULT_POINTS = 2001
FORBIDDEN_SOURCES = ("test",)


@dataclass(frozen=True)
class Calibrator:
    """Empirical CDF of one retriever's reference scores."""

    name: str
    quantiles: np.ndarray          # non-decreasing score values
    probs: np.ndarray              # CDF value at each quantile
    generation: int = 0
    model: str = ""
    source: str = ""
    n_scores: int = 0
    _xp: np.ndarray = field(init=False, repr=False, compare=False)
    _fp: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        q = np.asarray(self.quantiles, dtype=np.float64)
        p = np.asarray(self.probs, dtype=np.float64)
        if q.ndim != 1 or q.size == 0 or q.shape != p.shape:
            raise ValueError("calibrator: quantiles and probs must be equal-length, non-empty 1-D arrays")
        if not (np.all(np.isfinite(q)) and np.all(np.diff(q) >= 0)):
            raise ValueError("calibrator: quantiles must be finite and non-decreasing")
        # Equal quantiles (e.g. many BM25 zeros): P(X <= x) is the *last* prob of the run.
        rev_unique, rev_idx = np.unique(q[::-1], return_index=True)
        object.__setattr__(self, "_xp", rev_unique)
        object.__setattr__(self, "_fp", p[::-1][rev_idx])

    def apply(self, x: np.ndarray | list[float]) -> np.ndarray:
        """CDF(x) by linear interpolation between stored quantiles; 0 below, 1 above the range.

        Non-finite inputs stay NaN (the caller treats them as missing).
        """
        arr = np.asarray(x, dtype=np.float64).reshape(-1)
        out = np.interp(arr, self._xp, self._fp, left=0.0, right=1.0)
        out[~np.isfinite(arr)] = np.nan
        return out

    # ---- serialisation --------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "quantiles": self.quantiles.tolist(), "probs": self.probs.tolist(),
                "generation": self.generation, "model": self.model, "source": self.source,
                "n_scores": self.n_scores}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Calibrator":
        return cls(name=str(data["name"]), quantiles=np.asarray(data["quantiles"], dtype=np.float64),
                   probs=np.asarray(data["probs"], dtype=np.float64), generation=int(data.get("generation", 0)),
                   model=str(data.get("model", "")), source=str(data.get("source", "")),
                   n_scores=int(data.get("n_scores", 0)))

    def save(self, path: Path | str) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:  # a file handle stops numpy from appending ".npz"
            np.savez(fh, quantiles=self.quantiles, probs=self.probs,
                     generation=np.int64(self.generation), name=np.str_(self.name),
                     model=np.str_(self.model), source=np.str_(self.source), n_scores=np.int64(self.n_scores))
        return path

    @classmethod
    def load(cls, path: Path | str) -> "Calibrator":
        with np.load(Path(path), allow_pickle=False) as npz:
            return cls(name=str(npz["name"]), quantiles=npz["quantiles"], probs=npz["probs"],
                       generation=int(npz["generation"]), model=str(npz["model"]),
                       source=str(npz["source"]), n_scores=int(npz["n_scores"]))


def build_cdf(scores: np.ndarray | list[float], n_points: int = DEFAULT_POINTS, *, name: str = "",
              generation: int = 0, model: str = "", source: str = "") -> Calibrator:
    """Calibrator from reference scores (non-finite values are dropped).

    ``source`` records where the queries came from ("train", "pseudo"); "test" is refused.
    """
    if any(bad in source.lower() for bad in FORBIDDEN_SOURCES):
        raise ValueError(f"calibration source '{source}': CDFs must never be built from test queries")
    if n_points < 2:
        raise ValueError(f"n_points must be >= 2, got {n_points}")
    arr = np.asarray(scores, dtype=np.float64).reshape(-1)
    arr = np.sort(arr[np.isfinite(arr)])
    if arr.size == 0:
        raise ValueError(f"calibrator '{name}': no finite scores to build a CDF from")
    n = min(n_points, arr.size)
    # Evenly spaced order statistics; the last one is the max, whose CDF is 1.
    quantiles = arr[np.linspace(0, arr.size - 1, n).round().astype(np.int64)]
    probs = np.searchsorted(arr, quantiles, side="right") / arr.size  # exact ECDF P(X <= q)
    return Calibrator(name=name, quantiles=quantiles, probs=probs, generation=generation,
                      model=model, source=source, n_scores=int(arr.size))


def calibrator_path(directory: Path | str, name: str) -> Path:
    return Path(directory) / f"cdf_{name}.npz"


def load_calibrators(directory: Path | str | None) -> dict[str, Calibrator]:
    """All ``cdf_<list>.npz`` files of a directory keyed by list name ({} when absent)."""
    if directory is None:
        return {}
    directory = Path(directory)
    if not directory.is_dir():
        log.warning("calibration directory %s does not exist; CDF modes will fall back to min-max", directory)
        return {}
    out: dict[str, Calibrator] = {}
    for path in sorted(directory.glob("cdf_*.npz")):
        cal = Calibrator.load(path)
        out[path.stem.removeprefix("cdf_")] = cal
        log.info("loaded calibrator %s (generation %d, %d reference scores, model %s)",
                 path.name, cal.generation, cal.n_scores, cal.model or "?")
    return out
