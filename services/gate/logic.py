"""The gate's one entry point: query (+ client hints) -> scope, confidence, ladder.

Called by ``GateServicer`` and directly by tests and the in-process benchmark.
Hints win field by field over extraction (``Scope.merged_with``; "an
explicit hint wins"); a hinted field has confidence 1.0 and is never soft. A
hinted paper or question number is a strict key, like an explicit one in the text.

With a corpus-derived vocabulary the gate also checks the merged scope against
the corpus index: a constraint that cannot match (a paper the corpus lacks, a
year a paper was not sat) makes W0 empty by design — the honest answer for an
abstention case — is named in the W0 description and is dropped at W1 (unless it
is a strict key), so a relaxed answer says what it relaxed.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
from typing import Sequence

from chsr.query_reading import read_query
from chsr.errors import InvalidArgument
from chsr.limits import check_scope
from chsr.query_language import LanguageGuess, detect_language
from chsr.scope import EMPTY_SCOPE, Scope
from services.gate.expansion import concept_variants
from services.gate.expansion import expand_query as _expand
from services.gate.expansion import topic_terms as _topic_terms
from services.gate.translation import asked_language_terms, english_terms
from services.gate.evidence import EvidenceHit, EvidenceParams
from services.gate.extract import Extraction, extract_scope
from services.gate.inference import FieldReport, infer_scope
from services.gate.ladder import LadderStep, build_ladder
from services.gate.marking import marking_rungs
from services.gate.nearest import with_language_level, with_nearest_level, with_reference_material
from services.gate.series import find_gap, with_series_board, with_series_rungs, within_parent_board
from services.gate.sittings import (after_the_index, neighbouring_sittings, never_sat, numbered_elsewhere, numbered_gap,
                                    off_cycle, with_nearest_years)
from services.gate.vocabulary import Vocabulary

HINT_CONFIDENCE = 1.0


@dataclass(frozen=True)
class GateResult:
    scope: Scope
    confidence: dict[str, tuple[float, str]]
    ladder: list[LadderStep]
    strict_keys: list[str]
    expanded_query: str
    topic_terms: list[str]
    notes: list[str] = field(default_factory=list)
    #: Set on the evidence path (a probe was given): per field where the value came from and what is done with it.
    fields: dict[str, FieldReport] = field(default_factory=dict)
    penalties: dict[str, tuple[tuple, float]] = field(default_factory=dict)
    penalty_strength: float = 0.0
    label: str = ""                  # gated | ranked | ungated; "" on the text-only path
    #: The language the answer should come in first: asked for, else how the query is written.
    query_language: LanguageGuess | None = None


def answer_language(query: str, extraction: Extraction, hints: Scope) -> LanguageGuess | None:
    """A hinted or asked-for language version wins over the one the query is written in."""
    if hints.language:
        return LanguageGuess(hints.language[0], 1.0, "client hint", requested=True)
    if extraction.scope.language:
        confidence, evidence = extraction.confidence.get("language", (0.75, "asked for"))
        return LanguageGuess(extraction.scope.language[0], float(confidence), evidence, requested=True)
    return detect_language(query)


def validate_hints(hints: Scope, vocab: Vocabulary) -> None:
    """The shared structural checks (``chsr.limits``), then: closed vocabularies (subject, level,
    content type, session) must use canonical values."""
    check_scope(hints, "hints")
    for name in ("subject", "level", "content_type", "session"):
        values = getattr(hints, name)
        if not values:
            continue
        known = vocab.known_values(name)
        unknown = [v for v in values if v not in known]
        if unknown and known:
            raise InvalidArgument(f"hints.{name}", f"unknown value(s) {unknown}; valid: {sorted(known)}")


def run_gate(
    query: str, hints: Scope = EMPTY_SCOPE, *, extract: bool = True, strict_scope: bool = False,
    expand_query: bool = False, vocab: Vocabulary, probe: Sequence[EvidenceHit] = (),
    params: EvidenceParams | None = None,
) -> GateResult:
    """``probe`` (with ``params``): the evidence path — every field from what the query matches in
    the corpus combined with what the text states; without it, the text alone (and the hints)."""
    if not query or not query.strip():
        raise InvalidArgument("query", "must not be empty")
    validate_hints(hints, vocab)
    query = read_query(query)  # "全國三卷 歷史 二零一八年" is read as the corpus's 全国三卷 历史 2018年 (chsr.query_reading)
    extraction = extract_scope(query, vocab) if extract else _no_extraction(query)
    forbidden = vocab.forbids_relaxation(query) if extract and not strict_scope else ""
    if forbidden:
        # "NAEP 2007 gr 8 science released questions - that administration only, no substitutes", "2023全国甲卷 文综
        # 选择题全套": the user rules out every relaxation, as a client's strict_scope does (decision 61)
        strict_scope = True
        extraction = replace(extraction, notes=[*extraction.notes, f"{forbidden}: not relaxed"])
    if extract and probe and params is not None:
        return _from_evidence(query, extraction, hints, probe, params, strict_scope, expand_query, vocab)
    scope = extraction.scope.merged_with(hints)
    hinted = set(hints.constrained_fields())
    confidence = {k: v for k, v in extraction.confidence.items() if k not in hinted}
    confidence.update({name: (HINT_CONFIDENCE, "client hint") for name in hinted})
    strict = [k for k in extraction.strict_keys if k not in hinted]
    strict += [k for k in ("paper", "question_number") if k in hinted]
    strict = [k for k in ("paper", "question_number") if k in strict]
    soft = {k: v for k, v in extraction.soft_fields.items() if k not in hinted}
    unsatisfiable = vocab.unsatisfiable(scope)
    for name, reason in unsatisfiable.items():
        if name != "level":  # a level the corpus lacks moves to the nearest level held (W2), it is not dropped
            soft.setdefault(name, reason)
    notes = [unsatisfiable[k] for k in sorted(unsatisfiable)] + extraction.notes
    topics = _topic_terms(extraction, vocab) if extract else _topic_terms(_no_extraction(query), vocab)
    # A pure look-up ("2025 AMC 10A problem 5") has no topic to recover by widening: if the exact
    # scope is empty the honest answer is nothing, not another paper's item.
    lookup_only = extract and not topics
    # no such sitting (or no such item of it): not relaxed either
    future = (after_the_index(scope, vocab) or off_cycle(scope, vocab) or numbered_gap(scope, vocab)
              or never_sat(scope, vocab))
    if future:
        notes.append(future)
    gap = find_gap(scope, (), vocab)  # a named series at a grade / year it lacks: relax within it
    scope = with_series_board(scope, gap)
    ladder = build_ladder(scope, strict, strict_scope or lookup_only or bool(future), soft_fields=soft,
                          subject_parents=vocab.subject_parents, notes=notes)
    ladder = with_series_rungs(with_reference_material(with_nearest_level(ladder, vocab), vocab), scope, gap)
    ladder = within_parent_board(ladder, scope, vocab)  # a provincial paper the index lacks: within the Gaokao
    if lookup_only and not strict_scope and not future:
        ladder = _with_marking_rungs(ladder, scope, vocab)
    ladder = numbered_elsewhere(ladder, scope)  # another year's numbered question: only on topic
    ladder = with_nearest_years(ladder, scope, vocab)  # an asked year not held: the nearest years held first
    ladder = neighbouring_sittings(ladder, scope, vocab)  # a held sitting with nothing on topic
    language = answer_language(query, extraction, hints)
    return GateResult(
        scope=scope, confidence=confidence, ladder=_with_language_level(ladder, language, vocab),
        strict_keys=strict, expanded_query=_expand(query, extraction, vocab) if expand_query and extract else query,
        topic_terms=topics, notes=notes, query_language=language,
    )


def _from_evidence(query: str, extraction: Extraction, hints: Scope, probe: Sequence[EvidenceHit],
                   params: EvidenceParams, strict_scope: bool, expand_query: bool, vocab: Vocabulary) -> GateResult:
    topics = _topic_terms(extraction, vocab)
    lookup_only = not topics  # a pure look-up is never widened (as on the text-only path)
    inferred = infer_scope(extraction, topics, probe, hints, vocab, params, strict_scope or lookup_only)
    confidence = {name: (f.confidence, f.evidence) for name, f in inferred.fields.items()}
    ladder = _with_marking_rungs(inferred.ladder, inferred.scope, vocab) if lookup_only and not strict_scope \
        else inferred.ladder
    # a numbered question answered from another year only when its words match (services.gate.sittings)
    ladder = numbered_elsewhere(ladder, inferred.scope)
    ladder = with_nearest_years(ladder, inferred.scope, vocab, probe)  # an asked year not held: the nearest years first
    ladder = neighbouring_sittings(ladder, inferred.scope, vocab)  # a held sitting with nothing on topic
    language = answer_language(query, extraction, hints)
    # a language version asked for ("en castellano", "en français si possible") or written in where the nearest level
    # has none
    ladder = _with_language_level(ladder, language, vocab)
    # a scope the index holds only in another language than the query's: the topic words' English senses too; an
    # English query asking for a French, German or Spanish version: their senses in that language
    # an ungated answer is the ungated pipeline's answer: no curriculum expansion either
    gated = inferred.label != "ungated"
    translated = english_terms(query, topics, inferred.scope, vocab) if gated else []
    translated += asked_language_terms(query, topics, inferred.scope, language, vocab) if gated else []
    expanded = " ".join([_expand(query, extraction, vocab), *translated]) if expand_query and gated else query
    return GateResult(
        scope=inferred.scope, confidence=confidence, ladder=ladder, strict_keys=inferred.strict_keys,
        expanded_query=expanded,
        topic_terms=list(dict.fromkeys([*_in_asked_language(topics, query, extraction, vocab), *translated])),
        notes=inferred.notes, fields=inferred.fields, penalties=inferred.penalties,
        penalty_strength=inferred.penalty_strength, label=inferred.label, query_language=language)


def _with_language_level(ladder: list[LadderStep], language: LanguageGuess | None,
                         vocab: Vocabulary) -> list[LadderStep]:
    """The ladder with a rung to the nearest level holding the scope in the query's language
    (``nearest.with_language_level``): the language version the query (or a client hint) asks for, or else the one
    a query is written in when that is not English, for the scope as asked only. "高二化学 ... Mg-AgCl 水激活电池 ...
    选择题": the index holds no grade-11 chemistry; the Chinese grade-12 items a grade away come before the English
    high-school band. Round 21 tried the written language for any scope and lost as many authored relaxations as it
    won; kept to the scope as asked, one subject, a level the index holds nowhere, it is the curators' policy
    (decision 80)."""
    if language is None or (language.code == "en" and not language.requested):
        return ladder
    return with_language_level(ladder, language.code, vocab, written=not language.requested)


def _in_asked_language(topics: list[str], query: str, extraction: Extraction, vocab: Vocabulary) -> list[str]:
    """The topic terms the gateway judges results by, with the other-language variants of the query's topic concepts
    when the text asks for another language than it is written in ("7年级 ... 光合作用 ... 英文选择题来几道", "exos
    de physique niveau seconde ... en anglais ça ira"): the English items it asks for cannot share its Chinese or
    French words, so without them no rung is ever on topic (decision 61). A query written in the language it asks
    for, or asking for none, keeps its own words only (round 16: variants for every query accept rungs too early)."""
    asked = extraction.scope.language
    if not asked:
        return topics  # (the written language is detected only when another is asked: once per request)
    written = detect_language(query)
    if written is None or written.code in asked:
        return topics
    return list(dict.fromkeys([*topics, *(v.lower() for v in concept_variants(extraction, vocab)),
                               *_QUANTITY.findall(extraction.remaining)]))


#: A number of two or more digits the text does not claim as a scope value ("230 V, 2300 W", "600 spires"): a
#: translation carries it unchanged, so it judges an item in another language where the query's words cannot (the
#: same-language items share the words as well).
_QUANTITY = re.compile(r"(?<![\w.,])\d{2,}(?![\d.,]\d)")


def _with_marking_rungs(ladder: list[LadderStep], scope: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """A pure look-up's W0-only ladder, plus the rungs for marking material its paper never has (the item's kin,
    then the item: ``services.gate.marking``); a ladder that already relaxes (a series rung) is left as it is."""
    return [*ladder, *marking_rungs(scope, vocab)] if len(ladder) == 1 else ladder


def _no_extraction(query: str) -> Extraction:
    return Extraction(scope=EMPTY_SCOPE, confidence={}, strict_keys=[], text=query, remaining=query)
