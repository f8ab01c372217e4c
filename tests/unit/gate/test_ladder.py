"""Relaxation ladder rules (seed 000 s.3.4 stage 5; issue 5)."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from chsr.v1 import common_pb2
from services.gate.ladder import build_ladder

pytestmark = pytest.mark.unit

PARENTS = {"physics": "science", "chemistry": "science", "biology": "science"}
FULL = Scope.from_dict({
    "subject": "mathematics", "level": "grade_10", "year": 2019, "session": "A", "paper": "AMC 10A",
    "content_type": "solution", "question_number": 7, "exam_board": "MAA AMC",
})


def _steps(rungs):
    return [r.label for r in rungs]


def test_full_ladder_without_strict_keys():
    scope = Scope.from_dict({"subject": "chemistry", "level": "high_school", "content_type": "exam_question"})
    rungs = build_ladder(scope, [], False)
    assert _steps(rungs) == ["W0", "W1", "W2", "W3"]
    w0, w1, w2, w3 = rungs
    assert w0.filter == scope and w0.step == common_pb2.W0_EXACT
    assert w1.filter == Scope.from_dict({"subject": "chemistry", "level": "high_school"})
    assert w2.filter == Scope.from_dict({"subject": "chemistry"}) and w2.step == common_pb2.W2_DROP_LEVEL
    assert w3.filter.is_empty() and w3.lexical_only and w3.step == common_pb2.W3_UNFILTERED_LEXICAL
    assert not any(r.lexical_only for r in rungs[:3])


def test_strict_keys_block_w2_and_keep_the_question_number():
    rungs = build_ladder(FULL, ["paper", "question_number"], False)
    assert _steps(rungs) == ["W0", "W1", "W3"]
    w1 = rungs[1]
    assert w1.filter.question_number == (7,) and w1.filter.paper == ("AMC 10A",)
    assert w1.filter.content_type == () and w1.filter.level == ("grade_10",)


def test_a_non_strict_question_number_is_a_topic_constraint():
    scope = Scope.from_dict({"subject": "physics", "level": "grade_12", "question_number": 3})
    w1 = build_ladder(scope, [], False)[1]
    assert w1.filter.question_number == ()


def test_strict_scope_returns_only_w0():
    rungs = build_ladder(FULL, ["paper", "question_number"], True)
    assert _steps(rungs) == ["W0"] and rungs[0].filter == FULL


def test_soft_fields_are_dropped_at_w1_with_their_reason():
    scope = Scope.from_dict({"subject": "physics", "level": "grade_12", "year": 2099})
    w1 = build_ladder(scope, [], False, soft_fields={"year": "no items for 2099"})[1]
    assert w1.filter.year == () and "no items for 2099" in w1.description


def test_soft_field_that_is_a_strict_key_is_kept():
    w1 = build_ladder(FULL, ["paper", "question_number"], False, soft_fields={"paper": "low confidence"})[1]
    assert w1.filter.paper == ("AMC 10A",)


def test_iterable_soft_fields_are_accepted():
    scope = Scope.from_dict({"subject": "history", "level": "grade_8"})
    w1 = build_ladder(scope, [], False, soft_fields=["level"])[1]
    assert w1.filter == Scope.from_dict({"subject": "history"})


def test_w1_widens_a_discipline_to_its_parent():
    scope = Scope.from_dict({"subject": ["physics", "chemistry"], "level": "grade_5", "content_type": "exam_question"})
    w1 = build_ladder(scope, [], False, subject_parents=PARENTS)[1]
    assert w1.filter.subject == ("physics", "chemistry", "science") and "widened" in w1.description


def test_identical_rungs_are_skipped():
    scope = Scope.from_dict({"subject": "history"})  # nothing to drop at W1 or W2
    assert _steps(build_ladder(scope, [], False)) == ["W0", "W3"]
    assert _steps(build_ladder(Scope(), [], False)) == ["W0"]


def test_rungs_are_cumulative():
    scope = Scope.from_dict({"subject": "biology", "level": "college", "content_type": "textbook", "year": 2020})
    rungs = build_ladder(scope, [], False, soft_fields={"year": "low confidence"})
    w1, w2 = rungs[1], rungs[2]
    assert w1.filter == Scope.from_dict({"subject": "biology", "level": "college"})
    assert w2.filter == Scope.from_dict({"subject": "biology"})


def test_notes_label_w0():
    w0 = build_ladder(FULL, ["paper"], False, notes=["AMC 10A has no items for year 2025"])[0]
    assert "2025" in w0.description


def test_to_proto_round_trip():
    rung = build_ladder(FULL, ["paper", "question_number"], False)[0]
    msg = rung.to_proto()
    assert msg.step == common_pb2.W0_EXACT and Scope.from_proto(msg.filter) == FULL
    assert msg.description.startswith("W0 exact scope") and not msg.lexical_only
