"""Uncertain fields rank, never exclude (gateway/preference.py), with hand-computed factors; once ranked, the
best match settles the curriculum fields."""

from __future__ import annotations

import pytest

from chsr.v1 import common_pb2, gate_pb2
from gateway.preference import Preference, rank_by_preference, settle_by_top

pytestmark = pytest.mark.unit

GATE = gate_pb2.GateResponse(penalties=[gate_pb2.FieldPenalty(field="level", values=["grade_12"], probability=0.5),
                                        gate_pb2.FieldPenalty(field="year", values=["2019"], probability=1.0)],
                             penalty_strength=0.9)


def cand(doc_id: str, score: float, **meta: object) -> common_pb2.Candidate:
    return common_pb2.Candidate(doc_id=doc_id, score=score, document=common_pb2.Document(
        id=doc_id, metadata=common_pb2.Metadata(**meta)))


def test_each_violated_field_multiplies_by_one_minus_strength_times_p():
    pref = Preference.from_gate(GATE)
    assert pref.factor(common_pb2.Metadata(level="grade_12", year=2019)) == 1.0
    assert pref.factor(common_pb2.Metadata(level="grade_11", year=2019)) == pytest.approx(1 - 0.9 * 0.5)
    # a null value cannot be shown to be in scope: it violates both
    assert pref.factor(common_pb2.Metadata()) == pytest.approx((1 - 0.45) * (1 - 0.9))


def test_ranking_reorders_and_excludes_nothing():
    ranked = rank_by_preference([cand("a", 1.0, level="grade_11", year=2019), cand("b", 0.7, level="grade_12", year=2019),
                                 cand("c", 0.6)], Preference.from_gate(GATE))
    assert [c.doc_id for c in ranked] == ["b", "a", "c"]
    assert [c.rank for c in ranked] == [1, 2, 3]
    assert ranked[1].score == pytest.approx(0.55)


def test_no_penalty_is_no_preference():
    assert not Preference.from_gate(gate_pb2.GateResponse()) and not Preference()


def test_the_best_match_settles_each_ranked_curriculum_field_and_says_so():
    ranked = [cand("a", 1.0, level="grade_10", year=2019), cand("b", 0.9, level="grade_12", year=2019),
              cand("c", 0.8, level="grade_10", year=2018), cand("d", 0.7, level="grade_10", year=2019)]
    kept, notes = settle_by_top(ranked, Preference.from_gate(GATE))
    assert [c.doc_id for c in kept] == ["a", "d"]
    assert notes == ["level settled by the best match: grade_10 (1 result(s) elsewhere left out)",
                     "year settled by the best match: 2019 (1 result(s) elsewhere left out)"]


def test_a_missing_value_agrees_only_with_a_missing_one():
    kept, _ = settle_by_top([cand("a", 1.0), cand("b", 0.9, level="grade_12"), cand("c", 0.8)],
                            Preference.from_gate(GATE))
    assert [c.doc_id for c in kept] == ["a", "c"]


def test_language_and_content_type_only_rank_and_nothing_settles_without_a_preference():
    gate = gate_pb2.GateResponse(penalties=[gate_pb2.FieldPenalty(field="language", values=["zh"], probability=0.9),
                                            gate_pb2.FieldPenalty(field="content_type", values=["solution"], probability=0.6)],
                                 penalty_strength=0.9)
    ranked = [cand("a", 1.0, language="zh", content_type="solution"), cand("b", 0.9, language="en", content_type="exam_question")]
    assert settle_by_top(ranked, Preference.from_gate(gate)) == (ranked, [])
    assert settle_by_top(ranked, Preference()) == (ranked, [])
