"""The rerank chain: ``none``, ``curriculum``, ``dedup``, ``mmr``, ``cross_encoder``, run in order.

The request's ``mode`` is a comma-joined chain, e.g. ``cross_encoder,dedup,mmr`` (seed
003's "cross-encoder over a 50 pool before dedup", then RRF + Dedup + MMR) or
``curriculum`` (seed 000's variant D). Every stage keeps scores consistent with rank
order, so a run file written from the output sorts the same way. The input score is
kept as ``features["fused"]``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from chsr.scope import Scope
from chsr.named_enum import NamedEnum
from services.rerank.cross_encoder import CrossEncoderScorer, CrossEncoderUnavailable
from services.rerank.curriculum import curriculum_rerank
from services.rerank.dedup import dedup
from services.rerank.items import RerankItem
from services.rerank.mmr import mmr
from services.rerank.params import RerankParams
from services.rerank.similarity import pairwise_jaccard


class RerankStage(NamedEnum):
    NONE = "none"
    CURRICULUM = "curriculum"
    DEDUP = "dedup"
    MMR = "mmr"
    CROSS_ENCODER = "cross_encoder"

    @classmethod
    def kind(cls) -> str:
        return "rerank stage"



def parse_chain(mode: str | Sequence[str | RerankStage]) -> list[RerankStage]:
    """``"cross_encoder,dedup"`` (or a list of names/stages) -> stages; empty -> [NONE]."""
    parts = mode.split(",") if isinstance(mode, str) else list(mode)
    stages = [p if isinstance(p, RerankStage) else RerankStage.from_str(p) for p in parts
              if isinstance(p, RerankStage) or p.strip()]
    return stages or [RerankStage.NONE]


@dataclass
class RerankOutput:
    items: list[RerankItem]
    removed_duplicates: int = 0
    telemetry: dict[str, float] = field(default_factory=dict)


class _SimCache:
    """One Jaccard matrix over the input pool, sliced for each stage's current order."""

    def __init__(self, items: Sequence[RerankItem]) -> None:
        self._items = list(items)
        self._index = {}
        for i, it in enumerate(self._items):
            self._index.setdefault(it.doc_id, i)
        self._matrix: np.ndarray | None = None

    def for_items(self, items: Sequence[RerankItem]) -> np.ndarray:
        if self._matrix is None:
            self._matrix = pairwise_jaccard([it.text for it in self._items])
        idx = [self._index[it.doc_id] for it in items]
        return self._matrix[np.ix_(idx, idx)]


def rerank(query: str, items: Sequence[RerankItem], scope: Scope | None, chain: str | Sequence[str | RerankStage],
           k: int = 0, params: Mapping[str, str] | RerankParams | None = None, *,
           cross_encoder: CrossEncoderScorer | None = None) -> RerankOutput:
    """Run ``chain`` over fused ``items`` (best first) and keep the top ``k`` (0 = all)."""
    stages = parse_chain(chain)
    p = params if isinstance(params, RerankParams) else RerankParams.from_mapping(params)
    scope = scope or Scope()
    current = [it if "fused" in it.features else it.rescored(it.score, fused=it.score) for it in items]
    sims = _SimCache(current)
    telemetry: dict[str, float] = {"n_in": float(len(current))}
    removed = 0
    for stage in stages:
        started = time.perf_counter()
        if stage is RerankStage.CURRICULUM:
            current, dropped = curriculum_rerank(current, scope, dedup_threshold=p.curriculum_dedup,
                                                 penalty=p.redundancy_penalty, cover=p.subject_cover,
                                                 sim=sims.for_items(current))
            removed += dropped
            if current:
                telemetry["alignment_mean"] = float(np.mean([it.features["alignment"] for it in current]))
        elif stage is RerankStage.DEDUP:
            current, dropped = dedup(current, p.dedup_threshold, sim=sims.for_items(current))
            removed += dropped
        elif stage is RerankStage.MMR:
            current = mmr(current, p.mmr_lambda, sim=sims.for_items(current))
        elif stage is RerankStage.CROSS_ENCODER:
            current = _cross_encode(query, current, p.pool, cross_encoder, telemetry, p.ce_weight)
        telemetry[f"ms_{stage}"] = (time.perf_counter() - started) * 1000.0
    if k > 0:
        current = current[:k]
    telemetry.update(n_out=float(len(current)), removed_duplicates=float(removed))
    return RerankOutput(items=current, removed_duplicates=removed, telemetry=telemetry)


def minmax(x: np.ndarray) -> np.ndarray:
    """Min-max to [0, 1] within one pool; a constant pool maps to 0."""
    if x.size == 0:
        return x.astype(np.float64)
    span = float(x.max() - x.min())
    return (x - x.min()) / span if span > 0 else np.zeros_like(x, dtype=np.float64)


def interpolate(ce: np.ndarray, first_stage: np.ndarray, weight: float) -> np.ndarray:
    """``weight * minmax(ce) + (1 - weight) * minmax(first_stage)`` over the pool.

    Why: a cross-encoder trained here on 809 claims is a weaker ranker than the BM25 + dense fusion
    it reranks (benchmarks/scifact-cross-encoder: -0.18..-0.20 nDCG@10 alone), but its errors differ
    from the fusion's; a convex blend with a weight tuned on train qrels keeps what helps and, at
    ``weight = 0``, is exactly the first-stage order (``tools/eval/tune_rerank.py``)."""
    return weight * minmax(np.asarray(ce, np.float64)) + (1.0 - weight) * minmax(np.asarray(first_stage, np.float64))


def _cross_encode(query: str, items: list[RerankItem], pool: int, scorer: CrossEncoderScorer | None,
                  telemetry: dict[str, float], weight: float = 1.0) -> list[RerankItem]:
    """Score the top ``pool`` with the cross-encoder (blended with the first-stage score when
    ``weight`` < 1); the tail keeps its order below them. At ``weight`` 0 (what tuning chooses when the
    blend gains nothing significant on held-out queries) the first stage's order is kept and nothing is
    scored, so no model is needed."""
    if weight <= 0:
        telemetry["ce_pool"], telemetry["ce_weight"] = 0.0, 0.0
        return list(items)
    if scorer is None:
        raise CrossEncoderUnavailable("cross_encoder: no cross-encoder model is configured for this server")
    head, tail = items[:pool], items[pool:]
    ce = scorer.score(query, [it.text for it in head])
    scores = ce if weight >= 1.0 else interpolate(ce, np.array([it.features.get("fused", it.score) for it in head]),
                                                  weight)
    telemetry["ce_pool"] = float(len(head))
    telemetry["ce_weight"] = float(weight)
    order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    out = [head[i].rescored(scores[i], ce=float(ce[i])) for i in order]
    floor = float(scores.min()) if len(head) else 0.0
    out.extend(it.rescored(floor - (j + 1)) for j, it in enumerate(tail))
    return out
