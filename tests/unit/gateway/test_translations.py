"""Originals before their translations, labelled (gateway.translations)."""

from __future__ import annotations

import pytest

from chsr.v1 import common_pb2
from gateway.preference import Preference
from gateway.translations import in_language_turns, order_by_language

pytestmark = pytest.mark.unit


def cand(doc_id: str, language: str, question: int | None = 3, paper: str | None = "P1") -> common_pb2.Candidate:
    meta = common_pb2.Metadata(language=language, year=2019, source="demo", content_type="exam_question")
    if paper is not None:
        meta.paper = paper
    if question is not None:
        meta.question_number = question
    return common_pb2.Candidate(doc_id=doc_id, document=common_pb2.Document(id=doc_id, metadata=meta))


def order(items, code="en", confidence=0.9, requested=False):  # type: ignore[no-untyped-def]
    language = common_pb2.QueryLanguage(code=code, confidence=confidence, requested=requested)
    return order_by_language(items, language, lambda c: c.document.metadata, lambda c: c.doc_id)


def ids(items) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.doc_id for c in items]


def test_the_original_takes_its_groups_best_place_and_nothing_else_moves() -> None:
    items = [cand("q3:fr", "fr"), cand("other", "en", question=5), cand("q3:de", "de"), cand("q3", "en"), cand("x", "fr", question=9)]
    out, notes = order(items)
    assert ids(out) == ["q3", "other", "q3:fr", "q3:de", "x"]
    assert notes[0] == [] and notes[1] == []
    assert notes[2] == ["language: fr version of q3 (the query is in en)"]
    assert notes[4] == ["language: fr (the query is in en)"]


def test_a_requested_language_wins() -> None:
    out, notes = order([cand("q3", "en"), cand("q3:de", "de")], code="de", confidence=0.75, requested=True)
    assert ids(out) == ["q3:de", "q3"]
    assert notes[1] == ["language: en version of q3:de (the query asks for de)"]


def test_low_confidence_detection_changes_nothing() -> None:
    items = [cand("q3:fr", "fr"), cand("q3", "en")]
    out, notes = order(items, confidence=0.3)
    assert ids(out) == ["q3:fr", "q3"] and notes == [[], []]


def test_chunks_without_paper_and_question_are_not_grouped() -> None:
    items = [cand("t:fr", "fr", question=None, paper=None), cand("t", "en", question=None, paper=None)]
    out, notes = order(items)
    assert ids(out) == ["t:fr", "t"]
    assert notes[0] == ["language: fr (the query is in en)"]


def test_no_language_no_change() -> None:
    items = [cand("q3:fr", "fr"), cand("q3", "en")]
    out, notes = order_by_language(items, None, lambda c: c.document.metadata, lambda c: c.doc_id)
    assert ids(out) == ["q3:fr", "q3"] and notes == [[], []]


def turns(items, languages):  # type: ignore[no-untyped-def]
    return ids(in_language_turns(items, frozenset(languages), lambda c: c.document.metadata))


def test_several_requested_languages_take_turns_by_their_best_rank() -> None:
    """Round 54: "all versions (de, fr, es)" written in German ranked German items first, and the French and
    Spanish versions of the item fell below the cut."""
    items = [cand("d1", "de"), cand("d2", "de"), cand("x", "en"), cand("d3", "de"), cand("f1", "fr"), cand("s1", "es"),
             cand("f2", "fr")]
    assert turns(items, {"de", "fr", "es"}) == ["d1", "f1", "s1", "d2", "f2", "d3", "x"]


def test_one_requested_language_keeps_the_order() -> None:
    items = [cand("d1", "de"), cand("x", "en"), cand("f1", "fr")]
    assert turns(items, {"de"}) == ["d1", "x", "f1"]
    assert turns(items, set()) == ["d1", "x", "f1"]


def test_the_preference_names_the_languages_it_ranks_by() -> None:
    preference = Preference((("subject", frozenset({"physics"}), 0.6), ("language", frozenset({"fr", "de"}), 0.75)), 0.5)
    assert preference.values_of("language") == frozenset({"fr", "de"})
    assert preference.values_of("year") == frozenset()
