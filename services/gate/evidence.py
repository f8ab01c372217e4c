"""Scope from evidence: per field a value, a calibrated probability and an action (issue 14).

    stated = stated_from_extraction(extract_scope(query, vocab), topic_terms)
    decision = decide_scope(stated, hits, EvidenceParams.load())
    decision.filter        # Scope of the confident fields: push it down before top-k
    decision.penalties     # uncertain fields: rank (multiply by penalty_factor), never exclude
    decision.label         # "gated" | "ranked" | "ungated", with decision.notes saying why

``hits`` are the probe: one *unfiltered* top-N per retrieval leg over the whole index
(``EvidenceHit(metadata, score, leg, rank)``; N = ``params.depth``, 30 by default).

Each candidate value of a field (what the text states, plus the evidence's strongest
values) gets ``p = sigmoid(w . features + b)`` from a per-field logistic model fitted on
the generated query set (``tools/gate/calibrate.py``; parameters in
``evidence_params.json``). Values with ``p >= filter_threshold`` filter, values with
``p >= rank_threshold`` only rank, the rest are dropped. Where the text states one value
and the evidence decides another, the decision records the conflict and the evidence wins
(its ``p`` is the higher one). When most of the probe's evidence carries no curriculum
metadata (a SciFact claim in a mixed index), the query is not a curriculum request: nothing
filters or ranks except an explicit paper / question number, and the label says so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from chsr.scope import Scope
from services.gate.evidence_features import (FEATURES, MODEL_FIELDS, EvidenceHit, StatedField, StatedQuery, candidates,
                                             features, gather, stated_from_extraction)

PARAMS_PATH = Path(__file__).with_name("evidence_params.json")
STRICT_FIELDS = ("paper", "question_number")


@dataclass(frozen=True)
class FieldModel:
    coef: tuple[float, ...]
    intercept: float
    filter_threshold: float = 0.85
    rank_threshold: float = 0.4

    def probability(self, x: Sequence[float]) -> float:
        z = self.intercept + sum(w * v for w, v in zip(self.coef, x))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True)
class EvidenceParams:
    models: Mapping[str, FieldModel]
    depth: int = 30
    sparse_power: float = 3.0
    dense_temperature: float = 0.05
    penalty: float = 0.5
    min_curriculum_share: float = 0.5
    features: tuple[str, ...] = FEATURES

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "EvidenceParams":
        if tuple(data.get("features", FEATURES)) != FEATURES:
            raise ValueError(f"evidence params were fitted on features {data.get('features')}, this code computes {FEATURES}")
        models = {name: FieldModel(tuple(m["coef"]), float(m["intercept"]), float(m["filter_threshold"]),
                                   float(m["rank_threshold"])) for name, m in data["models"].items()}
        keys = ("depth", "sparse_power", "dense_temperature", "penalty", "min_curriculum_share")
        return cls(models=models, **{k: data[k] for k in keys if k in data})

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "depth": self.depth, "sparse_power": self.sparse_power,
                "dense_temperature": self.dense_temperature, "penalty": self.penalty,
                "min_curriculum_share": self.min_curriculum_share,
                "models": {n: {"coef": [round(c, 6) for c in m.coef], "intercept": round(m.intercept, 6),
                               "filter_threshold": m.filter_threshold, "rank_threshold": m.rank_threshold}
                           for n, m in self.models.items()}}

    @classmethod
    def load(cls, path: str | Path | None = None) -> "EvidenceParams":
        return cls.from_dict(json.loads(Path(path or PARAMS_PATH).read_text(encoding="utf-8")))


@dataclass(frozen=True)
class FieldDecision:
    field: str
    values: tuple
    probability: float
    source: str          # stated | evidence | both
    action: str          # filter | rank | none
    conflict: str = ""
    candidates: tuple[tuple[Any, float], ...] = ()   # every candidate with its p (telemetry, calibration)


@dataclass
class EvidenceDecision:
    fields: dict[str, FieldDecision]
    filter: Scope
    penalties: dict[str, tuple[tuple, float]]
    strict_keys: list[str]
    label: str
    curriculum_share: float
    notes: list[str] = field(default_factory=list)
    penalty_strength: float = 0.5


def decide_scope(stated: StatedQuery, hits: Sequence[EvidenceHit], params: EvidenceParams) -> EvidenceDecision:
    ev = gather(hits, depth=params.depth, sparse_power=params.sparse_power, dense_temperature=params.dense_temperature)
    decisions: dict[str, FieldDecision] = {}
    for name in MODEL_FIELDS:
        model = params.models.get(name)
        if model is not None:
            decisions[name] = _decide_field(name, stated, ev, model)
    _follow_rules(decisions, stated)
    notes = [d.conflict for d in decisions.values() if d.conflict]
    outside = bool(hits) and ev.curriculum_share < params.min_curriculum_share
    if outside:
        notes.append(f"{1 - ev.curriculum_share:.0%} of the evidence has no curriculum metadata: not a curriculum request")
        decisions = {n: d if (d.action == "filter" and n in STRICT_FIELDS and d.source != "evidence") else
                     _with_action(d, "none") for n, d in decisions.items()}
    filt = Scope.from_dict({n: list(d.values) for n, d in decisions.items() if d.action == "filter"})
    penalties = {n: (d.values, d.probability) for n, d in decisions.items() if d.action == "rank"}
    strict = [n for n in STRICT_FIELDS if n in decisions and decisions[n].action == "filter" and decisions[n].source != "evidence"]
    label = "gated" if not filt.is_empty() else ("ranked" if penalties else "ungated")
    if label == "ungated" and not outside:
        notes.append("no field is confident enough to filter: results are ungated")
    return EvidenceDecision(decisions, filt, penalties, strict, label, ev.curriculum_share, notes, params.penalty)


def _decide_field(name: str, stated: StatedQuery, ev: Any, model: FieldModel) -> FieldDecision:
    scored = [(v, model.probability(features(name, v, stated, ev))) for v in candidates(name, stated, ev)]
    scored.sort(key=lambda vp: -vp[1])
    chosen = [(v, p) for v, p in scored if p >= model.filter_threshold]
    action = "filter" if chosen else "rank"
    if not chosen:
        chosen = [(v, p) for v, p in scored if p >= model.rank_threshold][:2]
        action = "rank" if chosen else "none"
    values = tuple(v for v, _ in chosen)
    prob = max((p for _, p in chosen), default=scored[0][1] if scored else 0.0)
    st = stated.get(name)
    said = set(st.values) if st else set()
    mass = ev.combined(name)
    source = "stated" if said and set(values) <= said else ("evidence" if not said & set(values) else "both")
    if source == "stated" and any(mass.get(v, 0.0) >= 0.3 for v in values):
        source = "both"
    conflict = ""
    if st and values and action != "none" and not said & set(values):
        conflict = (f"{name}: the text says {'|'.join(map(str, st.values))}, the evidence says "
                    f"{'|'.join(map(str, values))} (p={prob:.2f}); the evidence decides")
    return FieldDecision(name, values, round(prob, 4), source, action, conflict, tuple((v, round(p, 4)) for v, p in scored))


def _follow_rules(decisions: dict[str, FieldDecision], stated: StatedQuery) -> None:
    """Language and exam board are never inferred from evidence: a stated language version only
    ranks (other-language versions are still relevant, README bilingual policy); a stated board
    filters only beside the paper it names."""
    if "language" in stated:
        st = stated["language"]
        decisions["language"] = FieldDecision("language", st.values, st.confidence, "stated", "rank")
    if "exam_board" in stated:
        st = stated["exam_board"]
        paper = decisions.get("paper")
        action = "filter" if paper is not None and paper.action == "filter" else "rank"
        decisions["exam_board"] = FieldDecision("exam_board", st.values, st.confidence, "stated", action)


def _with_action(d: FieldDecision, action: str) -> FieldDecision:
    return FieldDecision(d.field, d.values, d.probability, d.source, action, d.conflict, d.candidates)


def penalty_factor(metadata: Mapping[str, Any], decision: EvidenceDecision) -> float:
    """Score multiplier for a result: ``prod (1 - penalty_strength * p)`` over the uncertain fields
    it violates (a null value violates: it cannot be shown to be in scope)."""
    factor = 1.0
    for name, (values, p) in decision.penalties.items():
        if metadata.get(name) not in values:
            factor *= 1.0 - decision.penalty_strength * p
    return factor


__all__ = ["EvidenceHit", "StatedField", "StatedQuery", "EvidenceParams", "FieldModel", "FieldDecision", "EvidenceDecision",
           "decide_scope", "penalty_factor", "stated_from_extraction"]
