"""GetContext's packing (budget, dedup, order, scope notes) and extractive answer, on hand-made results."""

from __future__ import annotations

import pytest

from chsr.relaxation import W0
from chsr.scope import Scope
from chsr.v1 import common_pb2, gateway_pb2
from gateway.context import (MIN_PASSAGE_TOKENS, citation_text, curriculum_label, estimate_tokens,
                             extractive_answer, pack, scope_note)

pytestmark = pytest.mark.unit
W1 = common_pb2.RELAXATION_STEP_W1_DROP_TOPIC


def result(doc_id: str, text: str, *, year: int = 2019, step: int = W0, violations: tuple[str, ...] = (),
           page: int | None = 2) -> gateway_pb2.SearchResult:
    meta = common_pb2.Metadata(subject="physics", level="grade_10", year=year, paper="Northfield Physics Paper 1",
                               content_type="exam_question", question_number=3, source="p.pdf")
    cit = common_pb2.Citation(source="p.pdf", title="Northfield Physics Paper 1", heading_path=["Section B"],
                              question_number=3)
    if page:
        cit.page_start = cit.page_end = page
    return gateway_pb2.SearchResult(doc_id=doc_id, text=text, metadata=meta, citation=cit, relaxation=step,
                                    violations=list(violations), score=1.0)


def test_token_estimate_counts_words_punctuation_and_cjk_and_never_less_than_a_quarter_of_the_characters():
    assert estimate_tokens("A car accelerates.") == 5  # 3 words + "." < 18/4 -> ceil 4.5 = 5
    assert estimate_tokens("二次函数") == 4
    assert estimate_tokens("internationalisation") == 5  # one word, 20 characters


def test_labels_citations_and_scope_notes():
    r = result("a", "x", year=2018, violations=("year",))
    assert curriculum_label(r.metadata) == "Northfield Physics Paper 1 2018 · Question 3 · exam question · physics · grade_10"
    assert citation_text(r.citation) == "p.pdf, p. 2, Section B"
    assert scope_note(["year"], Scope(year=(2019,)), r.metadata) == "another year's paper: asked 2019, this is 2018"
    unknown = common_pb2.Metadata(subject="physics")
    assert scope_note(["level"], Scope(level=("grade_10",)), unknown) == "another level: asked grade_10, its level is unknown"


def test_pack_keeps_rank_order_drops_duplicates_and_respects_the_budget():
    long = " ".join(f"Sentence number {i} explains the forces on a falling body." for i in range(40))
    rs = [result("a", "Drag grows with speed until it balances the weight."),
          result("a", "Drag grows with speed until it balances the weight."),        # same id
          result("b", "drag grows with speed until it balances the weight."),        # same text
          result("c", "A parachute raises the drag and lowers the terminal velocity.", year=2018, step=W1,
                 violations=("year",)),
          result("d", long)]
    packed = pack(rs, Scope(year=(2019,)), budget=200)
    assert [p.doc_id for p in packed.passages] == ["a", "c", "d"] and packed.duplicates == 2
    assert packed.tokens <= 200 and estimate_tokens(packed.text) == packed.tokens
    assert packed.passages[-1].truncated and packed.passages[-1].text.endswith(".")
    assert packed.text.startswith("[1] Northfield Physics Paper 1 2019 · Question 3")
    assert "(W1_DROP_TOPIC, outside the scope asked for: another year's paper: asked 2019, this is 2018)" in packed.text
    assert packed.passages[1].scope_note and not packed.passages[0].scope_note


def test_a_passage_that_cannot_fit_meaningfully_is_left_out():
    rs = [result("a", "word " * 60), result("b", "other " * 60)]
    packed = pack(rs, Scope(), budget=60 + MIN_PASSAGE_TOKENS // 2 + 20)
    assert [p.doc_id for p in packed.passages] == ["a"] and packed.left_out == 1


def test_extractive_answer_picks_query_sentences_with_citations():
    rs = [result("a", "The weather was fine. Terminal velocity is reached when drag equals weight."),
          result("b", "A skydiver falls faster until drag balances her weight, then at terminal velocity.")]
    packed = pack(rs, Scope(), budget=500)
    answer = extractive_answer("why does a skydiver reach terminal velocity", packed.passages, 2)
    assert len(answer) == 2 and all("terminal velocity" in a.text.lower() for a in answer)
    assert {a.passage for a in answer} == {1, 2} and answer[0].citation.source == "p.pdf"
    assert extractive_answer("the", packed.passages, 3) == []
