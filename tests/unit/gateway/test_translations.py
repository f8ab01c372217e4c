"""Originals before their translations, labelled (gateway.translations)."""

from __future__ import annotations

import pytest

from chsr.v1 import common_pb2
from gateway.translations import order_by_language

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
