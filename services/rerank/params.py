"""Typed rerank parameters parsed from the request's ``params`` map.

| key | stage | default | source |
|---|---|---|---|
| ``dedup_threshold`` | dedup | 0.65 | seed 003 |
| ``curriculum_dedup`` | curriculum | 0.75 | seed 000 (variant D) |
| ``redundancy_penalty`` | curriculum | 0.5 | ours (seed 000 names the factor, not its value) |
| ``subject_cover`` | curriculum | 0.5 | ours: a scope naming several subjects multiplies a candidate by ``1 - cover * share`` (its subject's share of the picks so far), so each named subject is represented early; 0 turns it off |
| ``mmr_lambda`` | mmr | 0.7 | seed 003 |
| ``pool`` | cross_encoder | 50 | seed 003 ``cross_encoder_pool`` |
| ``ce_weight`` | cross_encoder | 1.0 | weight of the cross-encoder in its blend with the first-stage score (1 = CE alone, 0 = first stage); tuned on train qrels (``tools/eval/tune_rerank.py``) |
| ``model_path`` | cross_encoder | server's configured path | only when the server allows it |

Unknown keys are rejected so a typo fails loudly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from chsr.errors import InvalidArgument
from services.rerank.cross_encoder import CE_POOL
from services.rerank.curriculum import CURRICULUM_DEDUP, REDUNDANCY_PENALTY, SUBJECT_COVER
from services.rerank.dedup import DEDUP_THRESHOLD
from services.rerank.mmr import MMR_LAMBDA


@dataclass(frozen=True)
class RerankParams:
    dedup_threshold: float = DEDUP_THRESHOLD
    curriculum_dedup: float = CURRICULUM_DEDUP
    redundancy_penalty: float = REDUNDANCY_PENALTY
    subject_cover: float = SUBJECT_COVER
    mmr_lambda: float = MMR_LAMBDA
    pool: int = CE_POOL
    ce_weight: float = 1.0
    model_path: str = ""

    @classmethod
    def from_mapping(cls, params: Mapping[str, str] | None) -> "RerankParams":
        params = dict(params or {})
        known = sorted(cls.__dataclass_fields__)
        kw: dict[str, object] = {}
        for key, raw in params.items():
            if key not in known:
                raise InvalidArgument(f"params.{key}", f"unknown parameter; valid: {', '.join(known)}")
            if key == "model_path":
                kw[key] = str(raw).strip()
            elif key == "pool":
                kw[key] = _int_at_least(key, raw, 1)
            else:
                kw[key] = _unit(key, raw)
        return cls(**kw)  # type: ignore[arg-type]


def _unit(key: str, raw: str) -> float:
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise InvalidArgument(f"params.{key}", f"expected a number in [0, 1], got {raw!r}")
    return value


def _int_at_least(key: str, raw: str, lo: int) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = lo - 1
    if value < lo:
        raise InvalidArgument(f"params.{key}", f"expected an integer >= {lo}, got {raw!r}")
    return value
