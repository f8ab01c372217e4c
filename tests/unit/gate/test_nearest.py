"""The nearest level the corpus holds for the subject, as its own rung before the generic widenings (issue 21)."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from services.gate.ladder import build_ladder
from services.gate.logic import run_gate
from services.gate.nearest import with_nearest_level

pytestmark = pytest.mark.unit


def test_a_level_the_subject_lacks_moves_to_the_nearest_level_held_before_any_widening(mini):
    steps = with_nearest_level(build_ladder(Scope.from_dict({"subject": "economics", "level": "grade_6"}), [], False),
                               mini)
    first_w2 = next(s for s in steps if s.label == "W2")
    assert first_w2.filter.level == ("high_school",) and first_w2.filter.subject == ("economics",)
    assert "level grade_6 not held for economics; nearest held: high_school" in first_w2.description


def test_ties_keep_both_sides_and_a_held_level_adds_nothing(mini):
    steps = with_nearest_level(build_ladder(Scope.from_dict({"subject": "science", "level": "grade_6"}), [], False),
                               mini)
    rung = next(s for s in steps if s.description.startswith("W2 nearest level held"))
    assert rung.filter.level == ("grade_4", "grade_8")
    held = build_ladder(Scope.from_dict({"subject": "science", "level": "grade_8"}), [], False)
    assert with_nearest_level(held, mini) == held


def test_through_the_gate(mini):
    result = run_gate("grade 6 economics question about supply and demand", vocab=mini)
    assert any(s.description.startswith("W2 nearest level held") and s.filter.level == ("high_school",)
               for s in result.ladder)
