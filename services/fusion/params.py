"""Typed, validated fusion parameters parsed from the request's ``params`` map.

Every key is optional and defers to the seed-documented default below. Unknown
keys are rejected so that a typo ("aplha") fails loudly instead of silently
running the default.

| key | modes | default | source |
|---|---|---|---|
| ``rrf_k`` | rrf | 60 | Cormack et al. 2009; seeds 000/002/003 |
| ``window`` | all | 0 (= whole list) | ranx "window" |
| ``alpha`` | linear; adaptive (prior) | 0.5 | seed 002 ``hybrid_fixed``; seed 003 sweeps 0.3/0.5/0.7 |
| ``norm`` | linear, dbsf, entropy, adaptive | minmax (dbsf: dbsf; entropy: cdf when ``entropy_norm=cdf``) | seed 002 |
| ``entropy_norm`` | all (telemetry), entropy | cdf | seed 002 ``hybrid_calibrated`` |
| ``entropy_depth`` | entropy, adaptive | 0 (= whole list) | does depth make alpha move? |
| ``eps`` | entropy | 1e-9 | seed 002 |
| ``adaptive_signal`` | adaptive | zscore_entropy | seed 002 H1: strongest predictor |
| ``adaptive_gain`` | adaptive | 1.0 | tune on qrels/train.tsv |
| ``alpha_min`` / ``alpha_max`` | adaptive | 0.2 / 0.8 | keeps both retrievers in play |
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, TypeVar

from chsr.errors import InvalidArgument
from services.fusion.normalize import Normaliser

T = TypeVar("T")

ENTROPY_NORMS = ("raw", "minmax", "zscore", "cdf")
ADAPTIVE_SIGNALS = ("zscore_entropy", "score_gap")



@dataclass(frozen=True)
class FusionParams:
    rrf_k: float = 60.0
    window: int = 0
    alpha: float = 0.5
    norm: Normaliser | None = None
    entropy_norm: Normaliser = Normaliser.CDF
    entropy_depth: int = 0
    eps: float = 1e-9
    adaptive_signal: str = "zscore_entropy"
    adaptive_gain: float = 1.0
    alpha_min: float = 0.2
    alpha_max: float = 0.8

    @classmethod
    def from_mapping(cls, params: Mapping[str, str] | None) -> "FusionParams":
        params = dict(params or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(params) - known)
        if unknown:
            raise InvalidArgument(f"params.{unknown[0]}", f"unknown parameter; valid: {', '.join(sorted(known))}")
        kw: dict[str, object] = {}
        for key, raw in params.items():
            kw[key] = _PARSERS[key](key, raw)
        out = cls(**kw)  # type: ignore[arg-type]
        if out.alpha_min > out.alpha_max:
            raise InvalidArgument("params.alpha_min", f"must be <= alpha_max ({out.alpha_max}), got {out.alpha_min}")
        return out


def _number(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[str, str], float]:
    def parse(key: str, raw: str) -> float:
        try:
            value = float(raw)
        except (TypeError, ValueError):
            value = math.nan
        ok = math.isfinite(value) and (value > lo if lo_open else value >= lo) and value <= hi
        if not ok:
            bound = f"({lo}, {hi}]" if lo_open else f"[{lo}, {hi}]"
            raise InvalidArgument(f"params.{key}", f"expected a number in {bound}, got {raw!r}")
        return value
    return parse


def _count(key: str, raw: str) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = -1
    if value < 0:
        raise InvalidArgument(f"params.{key}", f"expected an integer >= 0, got {raw!r}")
    return value


def _choice(options: tuple[str, ...]) -> Callable[[str, str], str]:
    def parse(key: str, raw: str) -> str:
        value = str(raw).strip().lower()
        if value not in options:
            raise InvalidArgument(f"params.{key}", f"unknown value {raw!r}; valid: {', '.join(options)}")
        return value
    return parse


def _normaliser(options: tuple[str, ...] | None = None) -> Callable[[str, str], Normaliser]:
    def parse(key: str, raw: str) -> Normaliser:
        valid = options or tuple(n.value for n in Normaliser)
        value = str(raw).strip().lower()
        if value not in valid:
            raise InvalidArgument(f"params.{key}", f"unknown value {raw!r}; valid: {', '.join(valid)}")
        return Normaliser.from_str(value)
    return parse


_PARSERS: dict[str, Callable[[str, str], object]] = {
    "rrf_k": _number(0.0, 1e6),
    "window": _count,
    "alpha": _number(0.0, 1.0),
    "norm": _normaliser(),
    "entropy_norm": _normaliser(ENTROPY_NORMS),
    "entropy_depth": _count,
    "eps": _number(0.0, 1.0, lo_open=True),
    "adaptive_signal": _choice(ADAPTIVE_SIGNALS),
    "adaptive_gain": _number(0.0, 100.0),
    "alpha_min": _number(0.0, 1.0),
    "alpha_max": _number(0.0, 1.0),
}
