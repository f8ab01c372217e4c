"""Scope from evidence, for one query: the gate's path when the gateway sends a probe.

The gateway's probe (each leg's unfiltered top hits with their metadata) is the evidence;
what the text states comes from the rule-based extractor, minus subjects guessed from topic
cue words (``stated_from_extraction``). :func:`services.gate.evidence.decide_scope` turns the
two into per-field decisions with calibrated probabilities (parameters fitted on generated
queries only, ``evidence_params.json``); client hints then win field by field; the ladder is
built over the decision (``evidence_ladder``). See docs/gate-evidence.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from chsr.query_language import detect_language
from chsr.scope import Scope
from chsr.text import has_cjk
from services.gate.evidence import EvidenceDecision, EvidenceHit, EvidenceParams, decide_scope, with_hints
from services.gate.content import BOTH_REQUESTED
from services.gate.evidence_features import StatedQuery, stated_from_extraction
from services.gate.evidence_ladder import evidence_ladder
from services.gate.extract import Extraction
from services.gate.ladder import LadderStep
from services.gate.language_level import level_of_language
from services.gate.nearest import material_found, material_unseen
from services.gate.overruled import (dropped_absent, named_paper_subject, overruled_absent, replaced_next_door,
                                     with_stated_fallback, with_stated_subject, with_stated_w0)
from services.gate.series import (board_beside_corrected_subject, board_keeps_stated_subject, find_gap, gap_note,
                                 series_subject, with_series_board, within_named_boards, within_parent_board)
from services.gate.sibling import (corrected_number, corrected_sitting, hedged_number, sibling_rung, with_beyond_rung,
                                   with_sibling_rung)
from services.gate.sittings import after_the_index, never_sat, numbered_gap, off_cycle, series_not_held
from services.gate.vocabulary import Vocabulary

#: Fields whose corpus values the look-up rules consult (a stated board or paper the corpus lacks).
KNOWN_FIELDS = ("exam_board", "paper")


@dataclass(frozen=True)
class FieldReport:
    """One field of the decision as the response reports it."""

    confidence: float
    evidence: str
    source: str
    conflict: str
    action: str


@dataclass(frozen=True)
class Inference:
    scope: Scope
    ladder: list[LadderStep]
    strict_keys: list[str]
    fields: dict[str, FieldReport]
    penalties: dict[str, tuple[tuple, float]]
    penalty_strength: float
    label: str                       # gated | ranked | ungated
    notes: list[str] = field(default_factory=list)


def known_values(vocab: Vocabulary) -> dict[str, frozenset]:
    """What the evidence rules check a statement against (``decide_scope``'s ``known``): the values the corpus holds
    of ``KNOWN_FIELDS``, and the boards that publish a textbook (``textbook_board``)."""
    known = {name: vocab.corpus_values(name) for name in KNOWN_FIELDS}
    return {**known, "textbook_board": vocab.textbook_boards}


def infer_scope(extraction: Extraction, topic_terms: Sequence[str], probe: Sequence[EvidenceHit], hints: Scope,
                vocab: Vocabulary, params: EvidenceParams, strict_scope: bool) -> Inference:
    stated = stated_from_extraction(extraction, topic_terms)
    known = known_values(vocab)
    decision = with_hints(decide_scope(stated, probe, params, known=known), hints)
    decision = _session_beside_paper(decision, stated, vocab)
    implied = level_of_language(decision, stated, vocab)
    if implied is not None:  # "French economics MCQ: ...": the index holds French economics at grade 12 only
        decision = implied
    if extraction.notes:  # conflicts within the text (a paper named at another grade): the answer says so
        decision = replace(decision, notes=[*decision.notes, *extraction.notes])
    # a named series at a grade / year it does not hold: the board stays in the exact scope, the ladder
    # relaxes the missing field within the series (services.gate.series)
    boards = stated["exam_board"].values if "exam_board" in stated else ()
    subject = decision.fields.get("subject")
    if boards and subject is not None and subject.conflict and subject.source == "evidence":
        beside = board_beside_corrected_subject(decision.filter, boards, vocab)
        if beside is not None:  # the named board holds the corrected subject's paper: the board filters
            decision = replace(decision, filter=beside)
        said = stated["subject"].values if "subject" in stated else ()
        kept = board_keeps_stated_subject(decision.filter, boards, tuple(said), vocab) if beside is None else None
        if kept is not None:  # the named board holds the text's subject only: the evidence does not overrule it
            decision = replace(decision, filter=kept[0],
                               notes=[*(n for n in decision.notes if n != subject.conflict), kept[1]])
    gap = find_gap(decision.filter, boards, vocab)
    if gap is not None:
        decision = replace(decision, filter=with_series_board(decision.filter, gap))
        carried = series_subject(decision.filter, gap)
        if carried is not None:  # a series of one subject carries it, as a named paper does
            decision = replace(decision, filter=carried[0], notes=[*decision.notes, carried[1]])
    written = _words_language(extraction.remaining)
    corrected = corrected_sitting(decision.filter, decision.fields.get("subject"), probe, vocab.sitting_aliases,
                                  written)
    if corrected is not None:  # the text's subject is wrong and the sibling paper of its sitting holds the item
        decision = replace(decision, filter=corrected[0], notes=[*decision.notes, corrected[1]])
    said_number = extraction.confidence.get("question_number", (0.0, ""))[1]
    renumbered = corrected_number(decision.filter, probe, topic_terms,
                                  beyond="question_number" in vocab.unsatisfiable(decision.filter)
                                  or hedged_number(extraction.text, said_number),
                                  written=written)
    if renumbered is not None:  # the query quotes the problem and misnumbers it: the words name the item
        decision = replace(decision, filter=renumbered[0], notes=[*decision.notes, renumbered[1]])
    if extraction.confidence.get("content_type", (0.0, ""))[1] == BOTH_REQUESTED:
        decision = _kind_left_open(decision)  # "question + reference answer pls": the evidence's kind only ranks
    agreed = named_paper_subject(decision.filter, vocab)
    if agreed is not None:  # the evidence's subject beside a paper of another subject: the paper's subject stands
        decision = replace(decision, filter=agreed[0], notes=[*decision.notes, agreed[1]])
    # a sitting after the index's last year, an item of a series the index lacks: nothing to relax to
    future = (after_the_index(decision.filter, vocab) or off_cycle(decision.filter, vocab)
              or numbered_gap(decision.filter, vocab) or never_sat(decision.filter, vocab)
              or series_not_held(decision.fields))
    if future:  # (services.gate.sittings)
        strict_scope = True
        decision = replace(decision, notes=[*decision.notes, future])
    unnumbered = vocab.unnumbered(decision.filter)
    if unnumbered:  # the named paper's items of that year have no numbers: the number is the field to relax
        decision = replace(decision, strict_keys=[k for k in decision.strict_keys if k != "question_number"],
                           soft_fields={**decision.soft_fields, "question_number": unnumbered},
                           notes=[*decision.notes, unnumbered])
    unsatisfiable = vocab.unsatisfiable(decision.filter)
    # a paper or session the index does not hold ("AMC 10C"), a question number past the paper's last: the exact
    # scope is empty, and the answer says why
    said = [unsatisfiable[k] for k in ("paper", "session", "question_number") if k in unsatisfiable]
    if said:
        decision = replace(decision, notes=[*decision.notes, *(n for n in said if n not in decision.notes)])
    ladder = evidence_ladder(decision, vocab, strict_scope, gap, unsatisfiable, material_found(probe),
                             material_unseen(extraction.text, decision.filter.content_type, vocab))
    # a numbered item named under the wrong subject of a real sitting: the sibling paper holding it, right after W0
    ladder = with_sibling_rung(ladder, sibling_rung(decision.filter, unsatisfiable, probe, vocab.sitting_aliases))
    # a number past the named paper's last (a combined booklet's number) the probe did not correct: the paper's items
    if not strict_scope:
        ladder = with_beyond_rung(ladder, decision.filter, unsatisfiable, topic_terms)
    # the text's subject / level overruled because the index lacks it: that is a relaxation, not the exact scope
    overruled = overruled_absent(stated, decision, vocab)
    ladder = with_stated_w0(ladder, overruled, decision.filter)
    # ... and where the index holds it next door, tried at that level when the evidence's scope has nothing on topic
    ladder = with_stated_fallback(ladder, replaced_next_door(overruled, decision.filter, vocab),
                                  decision.filter, vocab)
    # the text's subjects, which the index holds only at other levels, dropped or joined by others: the level moves
    ladder = with_stated_subject(ladder, dropped_absent(stated, decision, vocab), decision.filter, vocab)
    ladder = within_named_boards(ladder, boards, vocab)
    ladder = within_parent_board(ladder, decision.filter, vocab)  # a provincial paper: relaxed within the Gaokao
    if gap is not None:
        decision = replace(decision, notes=[*decision.notes, gap_note(gap, decision.filter, ladder)])
    return Inference(scope=decision.filter, ladder=ladder, strict_keys=list(decision.strict_keys),
                     fields=_report(decision), penalties=dict(decision.penalties),
                     penalty_strength=decision.penalty_strength, label=decision.label, notes=list(decision.notes))


def _session_beside_paper(decision: EvidenceDecision, stated: StatedQuery, vocab: Vocabulary) -> EvidenceDecision:
    """Paper and session decided apart can contradict each other: "AMC 12 2025 ... log 方程" states both AMC 12
    papers and both sessions, the evidence (2024's items) leans to AMC 12A for the paper and to B for the session,
    and the scope "AMC 12A, session B" holds nothing. Where no filtered paper sits in a filtered session, the text's
    sets come back together (the papers and sessions it stated; without them, the papers' own sessions)."""
    flt = decision.filter
    if not flt.paper or not flt.session:
        return decision
    held = _sessions_of(flt.paper, vocab)
    if not held or held & set(flt.session):
        return decision
    papers = tuple(stated["paper"].values) if "paper" in stated else flt.paper
    sessions = tuple(stated["session"].values) if "session" in stated else tuple(sorted(_sessions_of(papers, vocab)))
    note = (f"paper {'|'.join(flt.paper)} is not set in session {'|'.join(flt.session)}: kept as the text states "
            f"them ({'|'.join(papers)}; session {'|'.join(sessions)})")
    return replace(decision, filter=replace(flt, paper=papers, session=sessions), notes=[*decision.notes, note])


def _sessions_of(papers: Sequence[str], vocab: Vocabulary) -> set[str]:
    """The sessions the index holds ``papers`` in (AMC 12A: A)."""
    infos = [i for i in (vocab.paper(p) for p in papers) if i is not None]
    return {s for i in infos for sessions in i.years.values() for s in sessions if s}


def _report(decision: EvidenceDecision) -> dict[str, FieldReport]:
    out: dict[str, FieldReport] = {}
    for name, d in decision.fields.items():
        if d.action == "none" and not d.values:
            continue
        evidence = ", ".join(f"{v}={p:.2f}" for v, p in d.candidates[:3]) if d.candidates else d.source
        out[name] = FieldReport(round(float(d.probability), 3), evidence, d.source, d.conflict, d.action)
    return out


def _kind_left_open(decision: EvidenceDecision) -> EvidenceDecision:
    """The decision with its content type ranking only: the text asks for a question and its answer together."""
    kind = decision.fields.get("content_type")
    if kind is None or not decision.filter.content_type:
        return decision
    return replace(decision, filter=replace(decision.filter, content_type=()),
                   fields={**decision.fields, "content_type": replace(kind, action="rank")},
                   soft_fields={k: v for k, v in decision.soft_fields.items() if k != "content_type"})


def _words_language(words: str) -> str | None:
    """The language code of the query's own words (the text less its scope words); None where they hold Chinese (a
    Chinese word reaches the Chinese items) or no language is detected."""
    if has_cjk(words):
        return None
    guess = detect_language(words)
    return guess.code if guess is not None else None
