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


def _labels(steps):
    return [r.label for r in steps]


def test_full_ladder_without_strict_keys_widens_to_the_nearest_scope_first():
    scope = Scope.from_dict({"subject": "chemistry", "level": "grade_10", "content_type": "mark_scheme",
                             "question_number": 4})
    steps = build_ladder(scope, [], False)
    assert _labels(steps) == ["W0", "W1", "W2", "W2", "W2", "W2", "W2", "W3"]
    w0, w1, w2band, w2a, w2b, w2three, w2c, w3 = steps
    assert w0.filter == scope and w0.step == common_pb2.RELAXATION_STEP_W0_EXACT
    assert w1.filter == Scope.from_dict({"subject": "chemistry", "level": "grade_10",
                                         "content_type": ["mark_scheme", "solution"]})
    assert w2band.filter.level == ("grade_10", "high_school")
    assert w2a.filter.level[0] == "grade_10" and set(w2a.filter.level) == {"grade_9", "grade_10", "grade_11", "high_school"}
    assert w2a.filter.content_type == ("mark_scheme", "solution") and w2a.step == common_pb2.RELAXATION_STEP_W2_DROP_LEVEL
    assert set(w2b.filter.level) >= {"grade_8", "grade_12"} and "college" not in w2b.filter.level
    assert set(w2three.filter.level) >= {"grade_7", "grade_12"} and "college" not in w2three.filter.level  # 3 + 1 away
    assert w2c.filter == Scope.from_dict({"subject": "chemistry"})
    assert w3.filter.is_empty() and w3.lexical_only and w3.step == common_pb2.RELAXATION_STEP_W3_UNFILTERED_LEXICAL
    assert not any(r.lexical_only for r in steps[:-1])


def test_level_distance_on_the_grade_line():
    from chsr.levels import level_distance

    assert level_distance("grade_10", "high_school") == 0 and level_distance("grade_3", "elementary") == 0
    assert level_distance("grade_8", "high_school") == 1 and level_distance("grade_6", "grade_4") == 2
    assert level_distance("college", "high_school") == 1 and level_distance("college", "grade_12") == 2
    assert level_distance("college", "unknown") is None


def test_college_and_high_school_are_neighbours():
    scope = Scope.from_dict({"subject": "geography", "level": "college", "content_type": "exam_question"})
    w2a = build_ladder(scope, [], False)[1]
    assert w2a.filter.level == ("college", "high_school") and w2a.filter.content_type == ("exam_question",)


def test_general_science_widens_to_disciplines_with_the_level():
    scope = Scope.from_dict({"subject": "science", "level": "grade_8", "content_type": "textbook"})
    w2a = [r for r in build_ladder(scope, [], False) if r.label == "W2"][0]
    assert {"physics", "chemistry", "biology", "science"} <= set(w2a.filter.subject)
    physics = Scope.from_dict({"subject": "physics", "level": "grade_8"})
    w2 = [r for r in build_ladder(physics, [], False, subject_parents=PARENTS) if r.label == "W2"][0]
    assert "chemistry" not in w2.filter.subject


def test_strict_keys_block_w2_and_w3_and_keep_the_question_number():
    steps = build_ladder(FULL, ["paper", "question_number"], False)
    assert _labels(steps) == ["W0", "W1", "W1"]  # an explicit paper is never answered unfiltered
    w1a, w1b = steps[1], steps[2]
    assert w1a.filter.question_number == (7,) and w1a.filter.paper == ("AMC 10A",)
    assert w1a.filter.content_type == ("solution", "mark_scheme") and w1a.filter.level == ("grade_10",)
    assert w1b.filter.content_type == () and w1b.filter.question_number == (7,)


def test_a_non_strict_question_number_is_a_topic_constraint():
    scope = Scope.from_dict({"subject": "physics", "level": "grade_12", "question_number": 3})
    w1 = build_ladder(scope, [], False)[1]
    assert w1.filter.question_number == ()


def test_strict_scope_returns_only_w0():
    steps = build_ladder(FULL, ["paper", "question_number"], True)
    assert _labels(steps) == ["W0"] and steps[0].filter == FULL


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


def test_identical_steps_are_skipped():
    scope = Scope.from_dict({"subject": "history"})  # nothing to drop at W1 or W2
    assert _labels(build_ladder(scope, [], False)) == ["W0", "W3"]
    assert _labels(build_ladder(Scope(), [], False)) == ["W0"]


def test_steps_are_cumulative():
    scope = Scope.from_dict({"subject": "biology", "level": "college", "content_type": "textbook", "year": 2020})
    steps = build_ladder(scope, [], False, soft_fields={"year": "low confidence"})
    w1, w2a, w2c = steps[1], steps[2], steps[-2]
    assert w1.filter == Scope.from_dict({"subject": "biology", "level": "college", "content_type": "textbook"})
    assert w2a.filter.level == ("college", "high_school") and w2a.filter.year == ()
    assert all(set(a.filter.level) < set(b.filter.level) for a, b in zip(steps[2:-3], steps[3:-2]))  # nearest first
    assert w2c.filter == Scope.from_dict({"subject": "biology"})


def test_notes_label_w0():
    w0 = build_ladder(FULL, ["paper"], False, notes=["AMC 10A has no items for year 2025"])[0]
    assert "2025" in w0.description


def test_to_proto_round_trip():
    rung = build_ladder(FULL, ["paper", "question_number"], False)[0]
    msg = rung.to_proto()
    assert msg.step == common_pb2.RELAXATION_STEP_W0_EXACT and Scope.from_proto(msg.filter) == FULL
    assert msg.description.startswith("W0 exact scope") and not msg.lexical_only


@pytest.mark.parametrize("level", ["grade_9", "grade_12", "high_school", "college"])
def test_from_grade_9_a_discipline_keeps_its_subject_and_widens_its_level_to_the_band(level):
    # the high-school band holds the discipline: nearer than general science at the same grade
    scope = Scope.from_dict({"subject": ["physics", "mathematics"], "level": level})
    steps = build_ladder(scope, [], False, subject_parents=PARENTS)
    assert all("science" not in r.filter.subject for r in steps if r.filter.subject)
    if level == "grade_9":
        assert steps[1].label == "W2" and steps[1].filter.level == ("grade_9", "high_school")
