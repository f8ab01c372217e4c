"""Fusion modes and the one entry point :func:`fuse` (seeds 002 and 003).

Like Haystack's ``DocumentJoiner``: the modes are an Enum with a ``from_str`` that
names the valid values, and each mode is a short strategy function. All modes share
the same input cleaning (:mod:`services.fusion.scored_list`), return telemetry, and
break score ties by doc id so a fused ranking is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, NamedTuple, Sequence

import numpy as np

from chsr.errors import InvalidArgument
from chsr.named_enum import NamedEnum
from services.fusion import adaptive
from services.fusion.calibration import Calibrator
from services.fusion.entropy import entropy_alpha, entropy_bits
from services.fusion.linear import alpha_weights, weighted_sum
from services.fusion.normalize import Normaliser, normalise
from services.fusion.params import ENTROPY_NORMS, FusionParams
from services.fusion.rrf import rrf
from services.fusion.scored_list import ScoredList, clean_list

SPARSE, DENSE = "sparse", "dense"


class FusionMode(NamedEnum):
    RRF = "rrf"
    LINEAR = "linear"
    DBSF = "dbsf"
    ENTROPY = "entropy"
    ADAPTIVE = "adaptive"



class FusedItem(NamedTuple):
    doc_id: str
    score: float
    features: dict[str, float]


@dataclass
class FusionOutput:
    items: list[FusedItem]
    telemetry: dict[str, float] = field(default_factory=dict)
    normaliser: str = ""


@dataclass
class _Run:
    """Cleaned lists plus everything a strategy may read or report."""

    lists: dict[str, ScoredList]
    params: FusionParams
    calibrators: Mapping[str, Calibrator]
    weights: Mapping[str, float] | None
    telemetry: dict[str, float] = field(default_factory=dict)
    norm_scores: dict[str, np.ndarray] = field(default_factory=dict)

    def needs_cdf_fallback(self) -> bool:
        """True when some non-empty list has no calibrator: CDF modes then use min-max."""
        missing = any(len(sl) and sl.name not in self.calibrators for sl in self.lists.values())
        if missing:
            self.telemetry["cdf_missing"] = 1.0
        return missing

    def resolve(self, norm: Normaliser) -> Normaliser:
        if norm is not Normaliser.CDF:
            return norm
        if self.needs_cdf_fallback():
            return Normaliser.MINMAX
        used = [self.calibrators[n].generation for n, sl in self.lists.items() if len(sl)]
        if used:
            self.telemetry["cdf_generation"] = float(min(used))
        return norm

    def normalised(self, norm: Normaliser) -> dict[str, tuple[Sequence[str], np.ndarray]]:
        out: dict[str, tuple[Sequence[str], np.ndarray]] = {}
        for name, sl in self.lists.items():
            scores = np.full(len(sl), np.nan)
            mask = sl.finite
            if mask.any():
                scores[mask] = normalise(norm, sl.scores[mask], self.calibrators.get(name))
            self.norm_scores[name] = scores
            out[name] = (sl.ids, scores)
        return out

    def alpha_pair(self, mode: FusionMode) -> tuple[str, str]:
        """The two lists a linear blend weighs: ``sparse`` and ``dense`` when those are the names,
        else any two lists in request order (``alpha`` weighs the first: seed 003's BM25 + TF-IDF
        blends, strategies #3-5, list ``sparse`` then ``tfidf``)."""
        names = list(self.lists)
        if set(names) <= {SPARSE, DENSE}:
            self.pair(mode)
            return SPARSE, DENSE
        if len(names) != 2:
            raise InvalidArgument("lists", f"mode '{mode}' blends exactly two lists; got {names}")
        return names[0], names[1]

    def pair(self, mode: FusionMode) -> dict[str, ScoredList]:
        """The sparse and dense lists (absent = empty); alpha modes fuse exactly these two."""
        extra = sorted(set(self.lists) - {SPARSE, DENSE})
        if extra:
            raise InvalidArgument("lists", f"mode '{mode}' fuses lists named '{SPARSE}' and '{DENSE}'; got {extra}")
        for name in (SPARSE, DENSE):
            self.lists.setdefault(name, clean_list(name, []))
        return self.lists


Strategy = Callable[[_Run], tuple[dict[str, float], str]]


def fuse(lists: Mapping[str, Sequence[tuple[str, float]]], mode: FusionMode | str, k: int = 0,
         params: Mapping[str, str] | FusionParams | None = None,
         calibrators: Mapping[str, Calibrator] | None = None, *,
         weights: Mapping[str, float] | None = None) -> FusionOutput:
    """Fuse ranked ``(doc_id, score)`` lists keyed by retriever name; ``k`` <= 0 keeps all.

    Raises :class:`chsr.errors.InvalidArgument` naming the offending field.
    """
    mode = mode if isinstance(mode, FusionMode) else FusionMode.from_str(mode)
    p = params if isinstance(params, FusionParams) else FusionParams.from_mapping(params)
    run = _Run({name: clean_list(name, pairs).top(p.window) for name, pairs in lists.items()},
               p, calibrators or {}, weights)
    scores, normaliser = _STRATEGIES[mode](run)
    _report_inputs(run)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    run.telemetry["n_fused"] = float(len(ranked))
    if k > 0:
        ranked = ranked[:k]
    positions = {name: {d: i for i, d in enumerate(sl.ids)} for name, sl in run.lists.items()}
    items = [FusedItem(doc_id, float(score), _features(run, positions, doc_id)) for doc_id, score in ranked]
    return FusionOutput(items=items, telemetry=run.telemetry, normaliser=normaliser)


# ---- strategies (one per mode) ---------------------------------------------
def _rrf(run: _Run) -> tuple[dict[str, float], str]:
    run.telemetry["rrf_k"] = run.params.rrf_k
    return rrf({n: sl.ids for n, sl in run.lists.items()}, k=run.params.rrf_k, weights=run.weights), "rank"


def _linear(run: _Run) -> tuple[dict[str, float], str]:
    first, second = run.alpha_pair(FusionMode.LINEAR)
    norm = run.resolve(run.params.norm or Normaliser.MINMAX)
    return _alpha_sum(run, run.params.alpha, norm, first, second), str(norm)


def _dbsf(run: _Run) -> tuple[dict[str, float], str]:
    norm = run.resolve(run.params.norm or Normaliser.DBSF)
    scores, _ = weighted_sum(run.normalised(norm), run.weights or {})
    return scores, str(norm)


def _entropy(run: _Run) -> tuple[dict[str, float], str]:
    lists = run.pair(FusionMode.ENTROPY)
    h_norm = run.resolve(run.params.entropy_norm)
    h = {n: _entropy_of(run, lists[n], h_norm) for n in (SPARSE, DENSE)}
    alpha = _degenerate_alpha(lists)
    if alpha is None:
        alpha = entropy_alpha(h[DENSE], h[SPARSE], run.params.eps)
    default = Normaliser.CDF if run.params.entropy_norm is Normaliser.CDF else Normaliser.MINMAX
    norm = run.resolve(run.params.norm or default)
    run.telemetry.update(h_sparse=h[SPARSE], h_dense=h[DENSE])
    return _alpha_sum(run, alpha, norm), str(norm)


def _adaptive(run: _Run) -> tuple[dict[str, float], str]:
    lists = run.pair(FusionMode.ADAPTIVE)
    p = run.params
    conf = {n: adaptive.confidence(lists[n].finite_scores(), p.adaptive_signal, p.entropy_depth)
            for n in (SPARSE, DENSE)}
    alpha = _degenerate_alpha(lists)
    if alpha is None:
        alpha = adaptive.adaptive_alpha(conf[SPARSE], conf[DENSE], prior=p.alpha, gain=p.adaptive_gain,
                                        lo=p.alpha_min, hi=p.alpha_max)
    run.telemetry.update(conf_sparse=conf[SPARSE], conf_dense=conf[DENSE])
    norm = run.resolve(p.norm or Normaliser.MINMAX)
    return _alpha_sum(run, alpha, norm), str(norm)


_STRATEGIES: dict[FusionMode, Strategy] = {
    FusionMode.RRF: _rrf, FusionMode.LINEAR: _linear, FusionMode.DBSF: _dbsf,
    FusionMode.ENTROPY: _entropy, FusionMode.ADAPTIVE: _adaptive,
}


# ---- shared pieces -----------------------------------------------------------
def _alpha_sum(run: _Run, alpha: float, norm: Normaliser, first: str = SPARSE, second: str = DENSE) -> dict[str, float]:
    run.telemetry["alpha"] = float(alpha)
    scores, _ = weighted_sum(run.normalised(norm), alpha_weights(alpha, first, second))
    return scores


def _degenerate_alpha(lists: Mapping[str, ScoredList]) -> float | None:
    """A list with < 2 finite scores has no distribution to judge: trust the other list."""
    s_ok, d_ok = (int(lists[n].finite.sum()) >= 2 for n in (SPARSE, DENSE))
    if s_ok and d_ok:
        return None
    if s_ok:
        return 1.0
    if d_ok:
        return 0.0
    return 0.5


def _top_scores(sl: ScoredList, depth: int) -> np.ndarray:
    finite = np.sort(sl.finite_scores())[::-1]
    return finite[:depth] if depth > 0 else finite


def _entropy_of(run: _Run, sl: ScoredList, norm: Normaliser) -> float:
    top = _top_scores(sl, run.params.entropy_depth)
    if top.size == 0:
        return 0.0
    return entropy_bits(normalise(norm, top, run.calibrators.get(sl.name)))


def _report_inputs(run: _Run) -> None:
    """Counts and every entropy variant per list (the H1 analysis needs all of them)."""
    t = run.telemetry
    seen: dict[str, int] = {}
    for name, sl in run.lists.items():
        t[f"n_{name}"] = float(len(sl))
        t["duplicates"] = t.get("duplicates", 0.0) + sl.duplicates
        t["missing_scores"] = t.get("missing_scores", 0.0) + sl.missing_scores
        for doc_id in sl.ids:
            seen[doc_id] = seen.get(doc_id, 0) + 1
        for variant in ENTROPY_NORMS:
            norm = Normaliser.from_str(variant)
            if norm is Normaliser.CDF and name not in run.calibrators:
                continue
            t[f"h_{name}_{variant}"] = _entropy_of(run, sl, norm)
        if f"h_{name}" not in t:
            chosen = run.params.entropy_norm
            if chosen is Normaliser.CDF and name not in run.calibrators:
                chosen = Normaliser.MINMAX
            t[f"h_{name}"] = t[f"h_{name}_{chosen}"]
    t["overlap"] = float(sum(1 for c in seen.values() if c > 1))
    t.setdefault("cdf_missing", 0.0)


def _features(run: _Run, positions: Mapping[str, Mapping[str, int]], doc_id: str) -> dict[str, float]:
    """Per list: raw score, 1-based rank and (score modes) normalised score; absent lists omitted."""
    out: dict[str, float] = {}
    for name, sl in run.lists.items():
        index = positions[name].get(doc_id)
        if index is None:
            continue
        out[f"{name}_rank"] = float(index + 1)
        raw = sl.scores[index]
        if np.isfinite(raw):
            out[name] = float(raw)
        norm = run.norm_scores.get(name)
        if norm is not None and np.isfinite(norm[index]):
            out[f"{name}_norm"] = float(norm[index])
    return out

