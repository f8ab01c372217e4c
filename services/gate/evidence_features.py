"""Features of a scope value: what the query states and what it matches (issue 14).

A query's words alone do not generalise as a scope request ("a topic word is not a scope
request"); what it *matches* in the corpus does: a quoted item brings its own subject,
level and content type, and a topical query over grade-school science brings a spread
of grades. Per field, the evidence is the score-weighted share of the probe's hits
(one unfiltered top-N per retrieval leg) that carry each value; a hit without
curriculum metadata (a SciFact abstract) carries the value ``None`` and so takes
mass away from every curriculum value.

Leg weights (fixed, see ``EvidenceParams``): BM25 ``(s_i / s_1) ** sparse_power``
(BM25 scores are unbounded and query-length dependent; ratios to the top score are
not); dense ``exp((s_i - s_1) / dense_temperature)`` (cosines are bounded; differences
matter). Pure functions, no I/O: the gateway passes the hits, the gate decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from services.gate.extract import Extraction

FIELDS: tuple[str, ...] = ("subject", "level", "year", "session", "paper", "content_type", "question_number",
                           "language", "exam_board")
#: Fields decided by the calibrated model; language and exam board follow simpler rules (evidence.py).
MODEL_FIELDS: tuple[str, ...] = FIELDS[:7]
FEATURES: tuple[str, ...] = (
    "mass_sparse", "mass_dense", "top1_sparse", "top1_dense", "stated", "stated_other", "stated_multi",
    "dense_top", "sparse_margin", "mass_x_dense_top", "entropy", "mass_x_stated", "seen", "lookup_consistent",
    "lookup_stated", "pure_lookup", "mass_x_topic", "stated_rel_mass", "stated_x_pure", "stated_x_contrary",
    "both_top1", "top_tie_conflict", "multi_subject",
)
#: Hits scoring within this fraction of their leg's best hit are ties (verbatim twins score the same).
TIE = 0.999
#: Topic words at which a query counts as fully topical (``mass_x_topic`` saturates).
TOPIC_SATURATION = 5
#: Subject decisions the old extractor made from topic cue words: a topic word is not a scope request.
_TOPIC_EVIDENCE = ("inferred from topic cues", "topic cues")
#: A subject the text names, that the old extractor overrode with topic cues: still a statement.
NAMED_AGAINST_TOPIC = 0.9


@dataclass(frozen=True)
class EvidenceHit:
    """One probe hit: the chunk's metadata, its leg's score and its 1-based rank in that leg."""

    metadata: Mapping[str, Any]
    score: float
    leg: str
    rank: int


@dataclass(frozen=True)
class StatedField:
    values: tuple
    confidence: float
    evidence: str = ""


@dataclass(frozen=True)
class StatedQuery:
    """What the text states, field by field, and how many topic words it has besides: a pure
    look-up ("2019 AMC 10A problem 7", no topic words) matches the corpus only through its
    scope words, so its evidence says little about subject or level."""

    fields: Mapping[str, StatedField]
    topic_words: int = 0

    def get(self, name: str) -> StatedField | None:
        return self.fields.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.fields

    def __getitem__(self, name: str) -> StatedField:
        return self.fields[name]


@dataclass
class Evidence:
    """Per-leg value shares of every field, and how strongly the query matched at all."""

    mass: dict[str, dict[str, dict[Any, float]]] = field(default_factory=dict)   # field -> leg -> value -> share
    top1: dict[str, dict[str, Any]] = field(default_factory=dict)                # field -> leg -> top-1 value
    legs: tuple[str, ...] = ()
    dense_top: float = 0.0
    sparse_margin: float = 0.0
    curriculum_share: float = 0.0
    hits: Sequence[EvidenceHit] = ()
    tie_conflicts: dict[str, set] = field(default_factory=dict)  # field -> values contradicted by a tie at the top

    def combined(self, name: str) -> dict[Any, float]:
        """Mean share over the legs that returned anything."""
        out: dict[Any, float] = {}
        legs = self.mass.get(name, {})
        for shares in legs.values():
            for value, share in shares.items():
                out[value] = out.get(value, 0.0) + share / len(legs)
        return out


def stated_from_extraction(extraction: Extraction, topic_terms: Sequence[str] = ()) -> StatedQuery:
    """The text's own statements, minus what does not generalise: a subject inferred from topic
    cue words (with or against a named subject) is dropped — the evidence decides the subject.
    ``topic_terms``: the gate's topic terms for the query (``services.gate.expansion.topic_terms``)."""
    out: dict[str, StatedField] = {}
    for name in FIELDS:
        values = tuple(getattr(extraction.scope, name))
        confidence, evidence = extraction.confidence.get(name, (0.0, ""))
        if name == "subject" and any(evidence.startswith(t) for t in _TOPIC_EVIDENCE):
            named = evidence.split("contradict named ", 1)[1].split("]", 1)[0] if "contradict named" in evidence else ""
            values = tuple(v.strip(" '[") for v in named.split(",") if v.strip(" '[")) if named else ()
            confidence = NAMED_AGAINST_TOPIC if values else 0.0
        if values:
            out[name] = StatedField(values, float(confidence), evidence)
    words = sum(len(t.split()) if t.isascii() else max(1, len(t) // 2) for t in topic_terms)
    return StatedQuery(out, words)


def gather(hits: Sequence[EvidenceHit], *, depth: int, sparse_power: float, dense_temperature: float) -> Evidence:
    by_leg: dict[str, list[EvidenceHit]] = {}
    for hit in sorted(hits, key=lambda h: (h.leg, h.rank)):
        if hit.rank <= depth:
            by_leg.setdefault(hit.leg, []).append(hit)
    ev = Evidence(legs=tuple(sorted(by_leg)), hits=hits)
    weights: dict[str, list[float]] = {leg: _weights(leg, hs, sparse_power, dense_temperature) for leg, hs in by_leg.items()}
    for name in MODEL_FIELDS + ("exam_board",):
        ev.mass[name], ev.top1[name] = {}, {}
        for leg, hs in by_leg.items():
            total = sum(weights[leg]) or 1.0
            shares: dict[Any, float] = {}
            for hit, w in zip(hs, weights[leg]):
                value = hit.metadata.get(name)
                shares[value] = shares.get(value, 0.0) + w / total
            ev.mass[name][leg] = shares
            ev.top1[name][leg] = hs[0].metadata.get(name) if hs else None
    for name in MODEL_FIELDS:
        for hs in by_leg.values():
            top = [h for h in hs if hs[0].score > 0 and h.score >= TIE * hs[0].score] if hs else []
            values = {h.metadata.get(name) for h in top}
            if len(values) > 1:  # the best match is ambiguous: each value is contradicted by another
                ev.tie_conflicts.setdefault(name, set()).update(values)
    curriculum = [sum(w for h, w in zip(hs, weights[leg]) if h.metadata.get("subject")) / (sum(weights[leg]) or 1.0)
                  for leg, hs in by_leg.items()]
    ev.curriculum_share = sum(curriculum) / len(curriculum) if curriculum else 0.0
    dense = by_leg.get("dense", [])
    ev.dense_top = float(dense[0].score) if dense else 0.0
    sparse = by_leg.get("sparse", [])
    if len(sparse) >= 2 and sparse[0].score > 0:
        ev.sparse_margin = 1.0 - float(sparse[1].score) / float(sparse[0].score)
    return ev


def _weights(leg: str, hits: list[EvidenceHit], power: float, temperature: float) -> list[float]:
    if not hits:
        return []
    top = float(hits[0].score)
    if leg == "sparse":
        return [max(0.0, float(h.score) / top) ** power if top > 0 else 0.0 for h in hits]
    return [math.exp((float(h.score) - top) / temperature) for h in hits]


def entropy(shares: Mapping[Any, float]) -> float:
    """Shannon entropy normalised to [0, 1] by the log of the number of values seen."""
    ps = [p for p in shares.values() if p > 0]
    if len(ps) <= 1:
        return 0.0
    return -sum(p * math.log(p) for p in ps) / math.log(len(ps))


def features(name: str, value: Any, stated: StatedQuery, ev: Evidence) -> list[float]:
    """The feature vector (order: ``FEATURES``) of one candidate ``value`` for field ``name``."""
    legs = ev.mass.get(name, {})
    m_s = legs.get("sparse", {}).get(value, 0.0)
    m_d = legs.get("dense", {}).get(value, 0.0)
    comb = ev.combined(name)
    mass = comb.get(value, 0.0)
    st = stated.get(name)
    s_conf = st.confidence if st and value in st.values else 0.0
    s_other = st.confidence if st and value not in st.values else 0.0
    lookup = [f for f in ("year", "question_number") if f in stated and f != name]
    topical = min(stated.topic_words, TOPIC_SATURATION) / TOPIC_SATURATION
    best_stated = max((comb.get(v, 0.0) for v in st.values), default=0.0) if st else 0.0
    contrary = max((p for v, p in comb.items() if v is not None and (not st or v not in st.values)), default=0.0)
    return [
        m_s, m_d, float(ev.top1.get(name, {}).get("sparse") == value), float(ev.top1.get(name, {}).get("dense") == value),
        s_conf, s_other, float(bool(st) and len(st.values) > 1), ev.dense_top, ev.sparse_margin, mass * ev.dense_top,
        entropy(comb), mass * s_conf, float(mass > 0), _consistent(name, value, stated, ev, lookup), float(bool(lookup)),
        float(stated.topic_words == 0), mass * topical, (mass / best_stated if best_stated > 0 else 0.0) if s_conf else 0.0,
        s_conf * float(stated.topic_words == 0), s_conf * contrary * topical,
        float(ev.top1.get(name, {}).get("sparse") == value and ev.top1.get(name, {}).get("dense") == value),
        float(value in ev.tie_conflicts.get(name, ())),
        float("subject" in stated and len(stated["subject"].values) > 1),
    ]


def _consistent(name: str, value: Any, stated: StatedQuery, ev: Evidence, lookup: list[str]) -> float:
    """Share of the top-10 hits carrying ``value`` that also carry the stated year / question number:
    a look-up the text did not name in words the extractor knows, but whose item the probe found."""
    if not lookup:
        return 0.0
    carrying = [h for h in ev.hits if h.rank <= 10 and h.metadata.get(name) == value]
    if not carrying:
        return 0.0
    ok = [h for h in carrying if all(h.metadata.get(f) in stated[f].values for f in lookup)]
    return len(ok) / len(carrying)


def candidates(name: str, stated: StatedQuery, ev: Evidence, top: int = 3) -> list[Any]:
    """Stated values first, then the evidence's strongest non-null values."""
    out: list[Any] = list(stated[name].values) if name in stated else []
    ranked = sorted(((v, p) for v, p in ev.combined(name).items() if v is not None), key=lambda vp: (-vp[1], str(vp[0])))
    for value, _ in ranked[:top]:
        if value not in out:
            out.append(value)
    return out
