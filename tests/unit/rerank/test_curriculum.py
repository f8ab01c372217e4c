"""Deterministic curriculum reranker (seed 000): alignment x reliability x redundancy, dedup 0.75."""

import pytest

from chsr.scope import Scope
from services.rerank.curriculum import alignment, curriculum_rerank, reliability

from .helpers import item

pytestmark = pytest.mark.unit

SCOPE = Scope.from_dict({"subject": "physics", "level": "grade_10"})


def test_alignment_is_the_fraction_of_scope_fields_satisfied():
    assert alignment(SCOPE, {"subject": "physics", "level": "grade_10"}) == 1.0
    assert alignment(SCOPE, {"subject": "physics", "level": "grade_9"}) == 0.5
    assert alignment(SCOPE, {"subject": "physics"}) == 0.5      # null level cannot be shown in scope
    assert alignment(Scope(), {}) == 1.0


def test_reliability_table():
    assert reliability({"source": "mmlu", "content_type": "solution"}) == pytest.approx(0.95 * 0.95)
    assert reliability({"source": "arc", "content_type": "exam_question"}) == 1.0
    assert reliability({}) == 1.0


def test_hand_computed_rerank_with_dedup():
    items = [
        item("a", 0.030, "w1 w2 w3", subject="physics", level="grade_10"),
        item("b", 0.029, "w7 w8 w9", subject="physics", level="grade_9"),
        item("c", 0.020, "w1 w2 w3", subject="physics", level="grade_10"),   # copy of a
    ]
    out, removed = curriculum_rerank(items, SCOPE)
    # a: 0.030/0.030 = 1.0; b: 0.029/0.030 * 0.5 alignment = 0.48333; c: J(a, c) = 1 >= 0.75 -> dropped
    assert [i.doc_id for i in out] == ["a", "b"] and removed == 1
    assert [i.score for i in out] == pytest.approx([1.0, 0.029 / 0.030 * 0.5])
    assert out[1].features["alignment"] == 0.5


def test_redundancy_penalty():
    items = [item("a", 1.0, "w1 w2 w3"), item("b", 0.9, "w1 w2 w4"), item("c", 0.8, "w5 w6")]
    out, removed = curriculum_rerank(items, Scope(), penalty=0.5)
    # J(a, b) = 2/4: b = 0.9 * (1 - 0.5 * 0.5) = 0.675 < c = 0.8
    assert [i.doc_id for i in out] == ["a", "c", "b"] and removed == 0
    assert [i.score for i in out] == pytest.approx([1.0, 0.8, 0.675])
    assert out[2].features["redundancy"] == pytest.approx(0.5)


def test_negative_fused_scores_and_empty_input():
    out, _ = curriculum_rerank([item("a", -1.0, "p"), item("b", -3.0, "q")], Scope())
    assert [i.doc_id for i in out] == ["a", "b"] and out[1].score == pytest.approx(0.01)
    assert curriculum_rerank([], SCOPE) == ([], 0)
