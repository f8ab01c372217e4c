"""Structure-aware chunking: heading path, question boundaries, sub-parts, prose windows, tables, regime hash."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.ingest.blocks import Block, BlockKind, ParsedDocument, table_text
from services.ingest.chunking import chunk_document
from services.ingest.linking import link_answers, question_key

pytestmark = pytest.mark.unit

SENTENCE = "A cart of mass two kilograms is pushed along a level track by a constant horizontal force. "


def _doc(blocks):
    return ParsedDocument(source="x", media_type="text/plain", blocks=blocks)


def _h(text, level=1):
    return Block(text, BlockKind.HEADING, level)


def _p(text, page=None):
    return Block(text, page=page)


def test_questions_carry_heading_path_and_numbers(counter, params):
    doc = _doc([_h("Cover"), _p("Answer all questions."), _h("Section A"), _p("1. First question?", 1),
                _p("2. Second question?", 2), _h("Section B"), _p("3. Third question?", 3)])
    chunks = chunk_document(doc, counter, params, role="questions", doc_title="AMC 10A 2019")
    questions = [c for c in chunks if c.role == "question"]
    assert [(c.locator, c.question_number, c.heading_path[-1]) for c in questions] == \
        [("q1", 1, "Section A"), ("q2", 2, "Section A"), ("q3", 3, "Section B")]
    assert questions[2].title == "AMC 10A 2019 › Section B › Question 3"
    assert (questions[1].page_start, questions[1].page_end) == (2, 2)
    assert chunks[0].role == "preamble"


def test_sub_parts_stay_with_their_stem_while_they_fit(counter, params):
    small = _doc([_p("1. A cart moves."), _p("(a) Find the speed."), _p("(b) Find the energy."), _p("2. Next.")])
    chunks = chunk_document(small, counter, params, role="questions")
    assert chunks[0].text == "1. A cart moves.\n(a) Find the speed.\n(b) Find the energy."
    big = _doc([_p("1. " + SENTENCE * 3)] + [_p(f"({p}) " + SENTENCE * 4) for p in "abcd"] + [_p("2. Next.")])
    chunks = [c for c in chunk_document(big, counter, params, role="questions") if c.question_number == 1]
    assert len(chunks) > 1 and chunks[0].text.startswith("1. ") and "(a)" in chunks[0].text
    assert all(c.title.endswith("Question 1 (continued)") for c in chunks[1:])
    assert all(counter.count(f"{c.title}\n{c.text}") <= params.max_tokens for c in chunks)
    assert [c.locator for c in chunks] == ["q1"] + [f"q1~{k}" for k in range(2, len(chunks) + 1)]


def test_prose_windows_fit_the_encoder_and_overlap(counter, params):
    text = " ".join(f"Sentence number {i} explains one more idea about momentum and impulse." for i in range(80))
    doc = _doc([_h("Chapter 8"), _h("Momentum", 2), _p(text, 5)])
    chunks = chunk_document(doc, counter, params, role="prose", doc_title="OpenStax Physics")
    assert len(chunks) >= 3
    assert all(counter.count(f"{c.title}\n{c.text}") <= params.max_tokens for c in chunks)
    assert all(c.heading_path == ("Chapter 8", "Momentum") and c.page_start == 5 for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        last = a.text.rsplit(". ", 1)[-1]
        assert b.text.startswith(last.split(".")[0])  # one sentence of overlap (seed 003)


def test_table_kept_whole_when_it_fits_else_split_under_its_header(counter, params):
    rows = (("v (m/s)", "t (s)"),) + tuple((str(i), str(2 * i)) for i in range(5))
    chunks = chunk_document(_doc([_h("Data"), Block(table_text(rows), BlockKind.TABLE, rows=rows)]), counter, params,
                            role="prose")
    assert [c.text for c in chunks] == [table_text(rows)]
    long_rows = (("quantity", "value"),) + tuple((f"measurement {i} of the long experiment", str(i)) for i in range(120))
    parts = chunk_document(_doc([Block(table_text(long_rows), BlockKind.TABLE, rows=long_rows)]), counter, params,
                           role="prose")
    assert len(parts) > 1 and all(p.text.startswith("| quantity | value |") for p in parts)


def test_mark_scheme_table_rows_split_per_question(counter, params):
    rows = (("Question", "Answer", "Marks"), ("1(a)", "12 N", "2"), ("(b)", "F = ma", "1"), ("2", "3.5 J", "2"))
    doc = _doc([Block(table_text(rows), BlockKind.TABLE, rows=rows)])
    chunks = [c for c in chunk_document(doc, counter, params, role="answers") if c.role == "answer"]
    assert [(c.question_number, c.text.count("\n")) for c in chunks] == [(1, 2), (2, 1)]


def test_regime_change_changes_the_digest(counter, params):
    doc = _doc([_p("1. Question?")])
    a = chunk_document(doc, counter, params, role="questions")[0]
    b = chunk_document(doc, counter, replace(params, overlap_sentences=2), role="questions")[0]
    assert a.params_digest != b.params_digest and len(a.params_digest) == 64


def test_mark_scheme_links_to_the_question_of_the_same_paper():
    paper = {"exam_board": "MAA AMC", "paper": "AMC 10A", "year": 2019, "session": "A"}
    chunks = [("q:1", {**paper, "question_number": 1, "content_type": "exam_question"}, "question"),
              ("q:2", {**paper, "question_number": 2, "content_type": "exam_question"}, "question"),
              ("other:1", {**paper, "year": 2018, "question_number": 1, "content_type": "exam_question"}, "question"),
              ("ms:1", {**paper, "question_number": 1, "content_type": "solution"}, "answer"),
              ("ms:3", {**paper, "question_number": 3, "content_type": "solution"}, "answer")]
    assert link_answers(chunks) == {"ms:1": "q:1"}
    assert question_key({"paper": None, "question_number": 1}) is None
