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
``evidence_params.json``). Values with ``p >= filter_threshold`` filter; values the evidence
suggests with ``p >= rank_threshold`` only rank. A value the *text states* for a field that
the gold scope takes "as asked" (level, year, session, paper, content type, question number;
curriculum README: relaxation cases) but that is uncertain is a *soft* W0 constraint: part
of the exact scope, dropped — with a label — at W1 (``soft_fields`` for ``build_ladder``), so
a grade or year the corpus lacks yields an empty exact answer and a labelled relaxation,
never silently another grade. The subject is never soft: a student naming the wrong subject
gets the true one (README), so there the evidence decides, and the decision records the
conflict. When most of the probe's evidence carries no curriculum
metadata (a SciFact claim in a mixed index; ``min_curriculum_share``), the query is not a
curriculum request: nothing filters or ranks except an explicit paper / question number, and the
label says so; below ``min_evidence_share`` only what the text states constrains (a claim that
happens to match some curriculum chunks is no request either).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

from chsr.scope import MARKING_TYPES, REFERENCE_MATERIAL, Scope
from services.gate.evidence_features import (FEATURES, MODEL_FIELDS, EvidenceHit, StatedField, StatedQuery, candidates,
                                             features, gather, stated_from_extraction)

PARAMS_PATH = Path(__file__).with_name("evidence_params.json")
STRICT_FIELDS = ("paper", "question_number")
#: The paper of a pure item look-up ("2019 IB maths paper 1 Q3") that names no paper the gate can identify:
#: a value no chunk carries, so the exact scope is honestly empty (curriculum README, abstention cases).
UNIDENTIFIED_PAPER = "(unidentified paper)"
#: A look-up with at most this many topic words is "pure": nothing but its scope words identifies the item.
PURE_LOOKUP_WORDS = 2
#: Evidence share a value needs to be offered as the relaxation of an uncertain stated value.
ALTERNATIVE_MASS = 0.4
#: A stated candidate below this probability is dropped from a soft candidate set.
SET_MEMBER_MIN = 0.05
#: Fields whose gold is the scope as asked: an uncertain stated value is a soft W0 constraint, not a penalty.
AS_ASKED_FIELDS = ("level", "year", "session", "paper", "content_type", "question_number")
#: A statement at least this sure (``extract_scope``'s confidence) of an as-asked field is part of the W0 scope.
AS_ASKED_MIN_CONFIDENCE = 0.5


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
    depth: int = 20
    sparse_power: float = 3.0
    dense_temperature: float = 0.05
    penalty: float = 0.9
    min_curriculum_share: float = 0.5
    min_evidence_share: float = 0.9
    features: tuple[str, ...] = FEATURES

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "EvidenceParams":
        if tuple(data.get("features", FEATURES)) != FEATURES:
            raise ValueError(f"evidence params were fitted on features {data.get('features')}, this code computes {FEATURES}")
        models = {name: FieldModel(tuple(m["coef"]), float(m["intercept"]), float(m["filter_threshold"]),
                                   float(m["rank_threshold"])) for name, m in data["models"].items()}
        keys = ("depth", "sparse_power", "dense_temperature", "penalty", "min_curriculum_share", "min_evidence_share")
        return cls(models=models, **{k: data[k] for k in keys if k in data})

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "depth": self.depth, "sparse_power": self.sparse_power,
                "dense_temperature": self.dense_temperature, "penalty": self.penalty,
                "min_curriculum_share": self.min_curriculum_share, "min_evidence_share": self.min_evidence_share,
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
    action: str          # filter | soft (W0 only, dropped at W1) | rank | none
    conflict: str = ""
    candidates: tuple[tuple[Any, float], ...] = ()   # every candidate with its p (telemetry, calibration)
    alternative: tuple = ()   # where the evidence puts the material when it is not where the text says (relaxation)


@dataclass
class EvidenceDecision:
    fields: dict[str, FieldDecision]
    filter: Scope
    penalties: dict[str, tuple[tuple, float]]
    strict_keys: list[str]
    soft_fields: dict[str, str]
    label: str
    curriculum_share: float
    notes: list[str] = field(default_factory=list)
    penalty_strength: float = 0.5


def decide_scope(stated: StatedQuery, hits: Sequence[EvidenceHit], params: EvidenceParams, *,
                 known: Mapping[str, Collection[Any]] | None = None) -> EvidenceDecision:
    """``known``: field -> the values the corpus holds (``Vocabulary.corpus_values``), and ``textbook_board`` -> the
    boards that publish a textbook, for the look-up rules (``inference.known_values`` builds it); without it a stated
    board is never treated as missing from the corpus."""
    ev = gather(_in_language(hits, stated), depth=params.depth, sparse_power=params.sparse_power,
                dense_temperature=params.dense_temperature)
    decisions: dict[str, FieldDecision] = {}
    for name in MODEL_FIELDS:
        model = params.models.get(name)
        if model is not None:
            decisions[name] = _decide_field(name, stated, ev, model)
    if _off_language(hits, stated):
        _keep_stated(decisions, stated)
    _follow_rules(decisions, stated, known or {})
    notes = [d.conflict for d in decisions.values() if d.conflict]
    outside = bool(hits) and ev.curriculum_share < params.min_curriculum_share
    if outside:
        notes.append(f"{1 - ev.curriculum_share:.0%} of the evidence has no curriculum metadata: not a curriculum request")
        decisions = {n: d if (d.action == "filter" and n in STRICT_FIELDS and d.source != "evidence") else
                     _with_action(d, "none") for n, d in decisions.items()}
    elif bool(hits) and ev.curriculum_share < params.min_evidence_share:
        dropped = [n for n, d in decisions.items() if d.source == "evidence" and d.action != "none"]
        if dropped:
            notes.append(f"{1 - ev.curriculum_share:.0%} of the evidence has no curriculum metadata: "
                         f"{', '.join(dropped)} not inferred from it")
        decisions = {n: _with_action(d, "none") if n in dropped else d for n, d in decisions.items()}
    filt = Scope.from_dict({n: list(d.values) for n, d in decisions.items() if d.action in ("filter", "soft")})
    soft = {n: f"stated but uncertain (p={d.probability:.2f})" for n, d in decisions.items() if d.action == "soft"}
    penalties = {n: (d.values, d.probability) for n, d in decisions.items() if d.action == "rank"}
    strict = [n for n in STRICT_FIELDS if n in decisions and decisions[n].action == "filter" and decisions[n].source != "evidence"]
    label = "gated" if not filt.is_empty() else ("ranked" if penalties else "ungated")
    if label == "ungated" and not outside:
        notes.append("no field is confident enough to filter: results are ungated")
    return EvidenceDecision(decisions, filt, penalties, strict, soft, label, ev.curriculum_share, notes, params.penalty)


def _in_language(hits: Sequence[EvidenceHit], stated: StatedQuery) -> Sequence[EvidenceHit]:
    """A requested language version ("the Spanish version of ...") is evidenced by the hits in that
    language: their ranks are renumbered per leg; with none in the probe, every hit counts."""
    kept = _requested_language_hits(hits, stated)
    if not kept:
        return hits
    out, rank = [], {}
    for h in sorted(kept, key=lambda h: (h.leg, h.rank)):
        rank[h.leg] = rank.get(h.leg, 0) + 1
        out.append(EvidenceHit(h.metadata, h.score, h.leg, rank[h.leg]))
    return out


def _requested_language_hits(hits: Sequence[EvidenceHit], stated: StatedQuery) -> list[EvidenceHit] | None:
    """The hits in the language version the text requests; None when it requests none."""
    if "language" not in stated:
        return None
    wanted = set(stated["language"].values)
    return [h for h in hits if h.metadata.get("language") in wanted]


def _off_language(hits: Sequence[EvidenceHit], stated: StatedQuery) -> bool:
    """A language version is requested and the probe found nothing in it ("找一道法语的物理选择题": the Chinese words
    find Chinese items): the evidence describes items of another language, not the one asked for."""
    return bool(hits) and _requested_language_hits(hits, stated) == []


def _keep_stated(decisions: dict[str, FieldDecision], stated: StatedQuery) -> None:
    """Off-language evidence does not overrule what the text states: a field the evidence moved elsewhere is the
    text's again, as a soft constraint (W0 only, widened with a label)."""
    for name, d in list(decisions.items()):
        st = stated.get(name)
        if st is None or d.source != "evidence" or d.action not in ("filter", "soft"):
            continue
        conflict = (f"{name}: the text says {'|'.join(map(str, st.values))}; the evidence, which holds nothing in the "
                    f"requested language, says {'|'.join(map(str, d.values))}: the text stands")
        decisions[name] = FieldDecision(name, st.values, st.confidence, "stated", "soft", conflict, d.candidates,
                                        alternative=d.values)


def _decide_field(name: str, stated: StatedQuery, ev: Any, model: FieldModel) -> FieldDecision:
    scored = [(v, model.probability(features(name, v, stated, ev))) for v in candidates(name, stated, ev)]
    scored.sort(key=lambda vp: -vp[1])
    st = stated.get(name)
    said = set(st.values) if st else set()
    chosen = [(v, p) for v, p in scored if p >= model.filter_threshold]
    action = "filter" if chosen else "rank"
    overruled: tuple = ()
    stated_p = [(v, p) for v, p in scored if v in said]
    if name in AS_ASKED_FIELDS and st and st.confidence >= AS_ASKED_MIN_CONFIDENCE and not said & {v for v, _ in chosen}:
        # The gold of an as-asked field is what the text asks for, so what it states is the W0 scope even when
        # the evidence doubts it or holds the material elsewhere: a soft constraint, widened with a label.
        # A set of stated candidates ("全国III卷 数学" -> both maths tracks) is kept together; the evidence's
        # confident value, if any, is where the ladder relaxes to (``alternative``), never the exact scope.
        overruled = tuple(v for v, _ in chosen)
        chosen = [(v, p) for v, p in stated_p if p >= SET_MEMBER_MIN] or stated_p
        action = "soft"
    elif not chosen and name in AS_ASKED_FIELDS:
        # a less sure statement: soft when the model has not ruled the stated candidates out (their sum)
        if sum(p for _, p in stated_p) >= model.rank_threshold:
            chosen = [(v, p) for v, p in stated_p if p >= SET_MEMBER_MIN]
        action = "soft" if chosen else "rank"
    if not chosen:
        chosen = [(v, p) for v, p in scored if p >= model.rank_threshold][:2]
        action = "rank" if chosen else "none"
    if (name == "content_type" and len(said) > 1 and said <= set(REFERENCE_MATERIAL)
            and st.confidence >= AS_ASKED_MIN_CONFIDENCE and action in ("filter", "soft")
            and {v for v, _ in chosen} < said):
        # reference kinds the text asks for together ("el libro de física y el estándar de matemáticas": a kind for
        # each subject) stay together: the evidence, finding one of them nearer the words, does not drop the other.
        # Answer kinds named together ("答案和解析") are one request the evidence still narrows.
        chosen = stated_p
    values = tuple(v for v, _ in chosen)
    prob = max((p for _, p in chosen), default=scored[0][1] if scored else 0.0)
    mass = ev.combined(name)
    source = "stated" if said and set(values) <= said else ("evidence" if not said & set(values) else "both")
    if source == "stated" and any(mass.get(v, 0.0) >= 0.3 for v in values):
        source = "both"
    conflict = ""
    if overruled:
        conflict = (f"{name}: the text asks for {'|'.join(map(str, st.values))}, the evidence holds the material at "
                    f"{'|'.join(map(str, overruled))}; the exact scope is what was asked, the relaxation goes there")
    elif st and values and action != "none" and not said & set(values):
        conflict = (f"{name}: the text says {'|'.join(map(str, st.values))}, the evidence says "
                    f"{'|'.join(map(str, values))} (p={prob:.2f}); the evidence decides")
    alternative = overruled
    # where the evidence puts the material when it is not where the text says: for an uncertain (soft) field,
    # or marking material the item may not have (a mark scheme for an item that only exists as a question);
    # a confident filter on what the text states is relaxed by the ladder's own steps, not moved elsewhere
    if not alternative and name in AS_ASKED_FIELDS and said & set(values) and (
            action == "soft" or (action == "filter" and name == "content_type" and said & set(MARKING_TYPES))):
        best = max(((v, m) for v, m in mass.items() if v is not None and v not in values), key=lambda vm: vm[1], default=None)
        alternative = (best[0],) if best and best[1] >= ALTERNATIVE_MASS else ()
    return FieldDecision(name, values, round(prob, 4), source, action, conflict,
                         tuple((v, round(p, 4)) for v, p in scored), alternative)


def _follow_rules(decisions: dict[str, FieldDecision], stated: StatedQuery, known: Mapping[str, Collection[Any]]) -> None:
    """Language and exam board are never inferred from evidence: a stated language version only
    ranks (other-language versions are still relevant, README bilingual policy); a stated board
    filters beside the paper it names, in an item look-up (board + year + number identify the item),
    when the corpus lacks it (the scope as asked is empty), or when it publishes a textbook
    (``known["textbook_board"]``: "OpenStax 物理の solutions manual ..." names the book, and a Chinese probe's
    Gaokao solutions are not its solutions). A pure item look-up (question number,
    few topic words) that identifies neither a paper nor a board the corpus holds gets
    :data:`UNIDENTIFIED_PAPER`: the item cannot be verified, so nothing is presented as exact."""
    if "language" in stated:
        st = stated["language"]
        decisions["language"] = FieldDecision("language", st.values, st.confidence, "stated", "rank")
    paper = decisions.get("paper")
    has_paper = paper is not None and paper.action in ("filter", "soft")
    qn = decisions.get("question_number")
    lookup = qn is not None and qn.action == "filter" and qn.source != "evidence"
    board_known = False
    if "exam_board" in stated:
        st = stated["exam_board"]
        missing = bool(known.get("exam_board")) and not set(st.values) & set(known["exam_board"])
        board_known = not missing
        book = bool(set(st.values) & set(known.get("textbook_board", ())))  # "OpenStax ...": the book is the source
        action = "filter" if has_paper or missing or lookup or book else "rank"
        conflict = f"exam_board {'|'.join(st.values)} is not in the corpus" if missing else ""
        decisions["exam_board"] = FieldDecision("exam_board", st.values, st.confidence, "stated", action, conflict)
    if lookup and not has_paper and not board_known and stated.topic_words <= PURE_LOOKUP_WORDS:
        decisions["paper"] = FieldDecision("paper", (UNIDENTIFIED_PAPER,), 1.0, "stated", "soft",
                                           "item number without an identifiable paper: no exact answer")


def _with_action(d: FieldDecision, action: str) -> FieldDecision:
    return FieldDecision(d.field, d.values, d.probability, d.source, action, d.conflict, d.candidates)


def with_hints(decision: EvidenceDecision, hints: Scope) -> EvidenceDecision:
    """Client hints win field by field (issue 5): a hinted field filters with probability 1.0 and is
    neither soft nor penalised; a hinted paper or question number is a strict key."""
    hinted = hints.constrained_fields()
    if not hinted:
        return decision
    fields = dict(decision.fields)
    for name in hinted:
        fields[name] = FieldDecision(name, tuple(getattr(hints, name)), 1.0, "hint", "filter")
    strict = [k for k in STRICT_FIELDS if k in hinted or k in decision.strict_keys]
    return EvidenceDecision(
        fields, decision.filter.merged_with(hints), {k: v for k, v in decision.penalties.items() if k not in hinted},
        strict, {k: v for k, v in decision.soft_fields.items() if k not in hinted}, "gated", decision.curriculum_share,
        decision.notes, decision.penalty_strength)


def penalty_factor(metadata: Mapping[str, Any], decision: EvidenceDecision) -> float:
    """Score multiplier for a result: ``prod (1 - penalty_strength * p)`` over the uncertain fields
    it violates (a null value violates: it cannot be shown to be in scope)."""
    factor = 1.0
    for name, (values, p) in decision.penalties.items():
        if metadata.get(name) not in values:
            factor *= 1.0 - decision.penalty_strength * p
    return factor


__all__ = ["EvidenceHit", "StatedField", "StatedQuery", "EvidenceParams", "FieldModel", "FieldDecision", "EvidenceDecision",
           "decide_scope", "penalty_factor", "stated_from_extraction", "with_hints"]
