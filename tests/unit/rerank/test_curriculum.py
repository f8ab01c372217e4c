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


def test_a_scope_naming_two_subjects_represents_both_early():
    """'hs chemistry MCQ + physics textbook': the fused list is all physics at the top; the second named subject's
    best candidate is picked second, not eighth. One subject, or cover 0, keeps the fused order."""
    items = [item(f"p{i}", 1.0 - 0.01 * i, f"phys{i} w{i}", subject="physics") for i in range(5)]
    items.append(item("c0", 0.9, "chem0 x0", subject="chemistry"))
    both = Scope.from_dict({"subject": ["physics", "chemistry"]})
    out, _ = curriculum_rerank(items, both, penalty=0.0)
    assert [i.doc_id for i in out][:3] == ["p0", "c0", "p1"]
    # p1 after p0 and c0: 0.99 * (1 - 0.5 * 1/2) = 0.7425 > p2 0.98 * 0.75 ...; c0's score is 0.9 * (1 - 0.5 * 0)
    assert out[1].score == pytest.approx(0.9)
    plain, _ = curriculum_rerank(items, both, penalty=0.0, cover=0.0)
    assert [i.doc_id for i in plain][:2] == ["p0", "p1"]
    physics = Scope.from_dict({"subject": "physics"})
    single, _ = curriculum_rerank(items, physics, penalty=0.0)
    assert [i.doc_id for i in single] == [i.doc_id for i in curriculum_rerank(items, physics, penalty=0.0, cover=0.0)[0]]
