"""Relaxing within a named series (issue 21): the field the series lacks moves to its nearest held values."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from services.gate.logic import run_gate
from chsr.relaxation import W0
from services.gate.ladder import LadderStep
from services.gate.series import find_gap, gap_note, series_rungs, series_subject, with_series_board

pytestmark = pytest.mark.unit

NYSED = "NYSED (New York State Education Department)"


def test_an_absent_grade_relaxes_to_the_nearest_grades_the_series_holds_both_sides(mini):
    flt = Scope.from_dict({"subject": "science", "level": "grade_6", "paper": "NYSED Regents Grade 6 Science",
                           "exam_board": NYSED, "content_type": "exam_question", "question_number": 3})
    gap = find_gap(flt, (), mini)
    assert gap is not None and gap.missing == ("level",) and gap.asked_paper_absent
    (rung,) = series_rungs(flt, gap)
    assert rung.filter.level == ("grade_4", "grade_8")
    assert set(rung.filter.paper) == {"NYSED Regents Grade 4 Science", "NYSED Regents Grade 8 Science"}
    assert rung.filter.exam_board == (NYSED,) and rung.filter.question_number == ()  # another paper's number
    assert "grade 6 not held" in rung.description and "nearest held: grade 4, grade 8" in rung.description


def test_the_year_is_kept_when_the_nearest_grades_hold_it_and_dropped_with_the_nearest_named_when_not(mini):
    held = Scope.from_dict({"subject": "science", "level": "grade_6", "year": 2010, "exam_board": NYSED,
                            "paper": "NYSED Regents Grade 6 Science"})
    rung, any_year = series_rungs(held, find_gap(held, (), mini))
    assert rung.filter.year == (2010,) and "year 2010 kept" in rung.description
    # that year's paper at the nearest grades may not hold the topic: the same grades in any year come next
    assert any_year.filter.year == () and any_year.filter.level == ("grade_4", "grade_8")
    assert any_year.filter.exam_board == (NYSED,) and "year 2010 dropped" in any_year.description
    absent = Scope.from_dict({"subject": "science", "level": "grade_8", "year": 2013, "exam_board": NYSED,
                              "paper": "NYSED Regents Grade 8 Science"})
    gap = find_gap(absent, (), mini)
    assert gap is not None and gap.missing == ("year",)
    (dropped,) = series_rungs(absent, gap)
    assert dropped.filter.year == () and dropped.filter.paper == ("NYSED Regents Grade 8 Science",)
    assert "year 2013 not held for NYSED Regents Grade 8 Science; nearest years held: 2011, 2015" in dropped.description


def test_a_stated_board_stays_in_the_exact_scope_when_its_series_lacks_the_grade(mini):
    flt = Scope.from_dict({"subject": "mathematics", "level": "grade_9"})
    gap = find_gap(flt, ("MAA AMC",), mini)
    assert gap is not None
    assert with_series_board(flt, gap).exam_board == ("MAA AMC",)   # W0: honestly empty
    (rung,) = series_rungs(flt, gap)
    # grade 8 and grade 10 are both one grade away; grade 10 shares grade 9's band (high school)
    assert rung.filter.level == ("grade_10",) and rung.filter.exam_board == ("MAA AMC",)


def test_nothing_changes_when_the_series_holds_the_scope_or_no_series_is_named(mini):
    assert find_gap(Scope.from_dict({"subject": "science", "level": "grade_8", "exam_board": NYSED}), (), mini) is None
    assert find_gap(Scope.from_dict({"subject": "science", "level": "grade_6"}), (), mini) is None
    assert find_gap(Scope.from_dict({"level": "grade_6", "exam_board": "Nowhere Board"}), (), mini) is None


def test_through_the_gate_the_series_rung_follows_w0_and_the_ladder_never_leaves_the_series(mini):
    result = run_gate("New York grade 6 science test 2010 question about friction and heat", vocab=mini)
    w0, first = result.ladder[0], result.ladder[1]
    assert w0.filter.exam_board == (NYSED,) and w0.filter.level == ("grade_6",)
    assert first.label == "W1" and first.filter.level == ("grade_4", "grade_8") and first.filter.year == (2010,)
    assert result.ladder[2].filter.level == ("grade_4", "grade_8") and result.ladder[2].filter.year == ()
    assert all(NYSED in step.filter.exam_board for step in result.ladder)
    assert not any(step.lexical_only for step in result.ladder)
    # no rung asks the series for grade 6 again after it has moved (such a rung can only be empty)
    assert not any(step.filter.level == ("grade_6",) for step in result.ladder[1:])


def test_a_series_number_the_board_never_sat_is_named_and_relaxed_to_its_neighbours(mini):
    result = run_gate("AMC 9 problem about the area of a rectangle", vocab=mini)
    assert result.scope.paper == ("AMC 9",) and result.ladder[0].filter.exam_board == ("MAA AMC",)
    assert set(result.ladder[1].filter.paper) == {"AMC 10A", "AMC 10B"}  # the high-school side of the tie


def test_a_pure_look_up_of_an_absent_paper_still_abstains(mini):
    result = run_gate("AMC 9 2019 problem 7", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"]


def test_the_note_says_relaxed_only_when_the_ladder_relaxes_within_the_series(mini):
    flt = Scope.from_dict({"subject": "science", "level": "grade_8", "year": 2013, "exam_board": NYSED,
                           "paper": "NYSED Regents Grade 8 Science", "question_number": 12})
    gap = find_gap(flt, (), mini)
    relaxed = [LadderStep(W0, flt, "W0 exact scope"), *series_rungs(flt, gap)]
    assert gap_note(gap, flt, relaxed).endswith(": relaxed within the series")
    # a pure look-up keeps W0 only: the note must not claim a relaxation, and names the nearest years held
    note = gap_note(gap, flt, relaxed[:1])
    assert "not relaxed" in note and "relaxed within the series" not in note
    assert "nearest years held: 2011, 2015" in note


def test_the_note_names_the_paper_that_lacks_the_year_not_the_whole_board(mini):
    """'2021全国三卷理数18题' (round 15): the board holds 2021 under other series; the note names the asked paper."""
    flt = Scope.from_dict({"subject": "science", "level": "grade_8", "year": 2013, "exam_board": NYSED,
                           "paper": "NYSED Regents Grade 8 Science", "question_number": 12})
    gap = find_gap(flt, (), mini)
    note = gap_note(gap, flt, [LadderStep(W0, flt, "W0 exact scope")])
    assert note.startswith("NYSED Regents Grade 8 Science holds no material for the asked year")
    unnamed = flt.without("paper")
    gap = find_gap(unnamed, (), mini)
    assert gap is not None
    assert gap_note(gap, unnamed, [LadderStep(W0, unnamed, "W0")]).startswith(f"{NYSED} holds no material")


def test_a_named_board_filters_beside_the_subject_the_evidence_corrected(mini):
    """"geography q from the ohio 8th grade achievement test 2011" (round 17): the board's grade-8 paper is science,
    the evidence says science; the board the text names then filters (decision 61)."""
    from services.gate.series import board_beside_corrected_subject

    flt = Scope.from_dict({"subject": "science", "level": "grade_8", "year": 2011, "content_type": "exam_question"})
    beside = board_beside_corrected_subject(flt, (NYSED,), mini)
    assert beside is not None and beside.exam_board == (NYSED,) and beside.subject == ("science",)
    assert board_beside_corrected_subject(Scope.from_dict({**flt.to_dict(), "year": 2013}), (NYSED,), mini) is None
    assert board_beside_corrected_subject(Scope.from_dict({**flt.to_dict(), "subject": "physics"}), (NYSED,),
                                          mini) is None
    assert board_beside_corrected_subject(flt, ("Nobody's Board",), mini) is None


def test_a_named_board_the_index_holds_is_never_left_for_the_unfiltered_rung(mini):
    from chsr.relaxation import W1, W3
    from services.gate.series import within_named_boards

    flt = Scope.from_dict({"subject": "science", "level": "grade_8"})
    steps = [LadderStep(W0, flt, "W0"), LadderStep(W1, flt.without("level"), "W1"),
             LadderStep(W3, Scope(), "W3", lexical_only=True)]
    assert [s.step for s in within_named_boards(steps, (NYSED,), mini)] == [W0, W1]
    assert within_named_boards(steps, (), mini) == steps
    assert within_named_boards(steps, ("Nobody's Board",), mini) == steps


def test_a_named_board_that_holds_only_the_texts_subject_keeps_it(mini):
    """"Common Core Lehrplan Mathe USA, 3. Klasse ..." (round 18, blind): German words find German physics items and
    the evidence overrules mathematics; the Common Core standards are mathematics, never physics (decision 61). In
    the mini corpus: NY Regents grade 8 is science only."""
    from services.gate.series import board_keeps_stated_subject

    flt = Scope.from_dict({"subject": "physics", "level": "grade_8", "content_type": "exam_question"})
    kept = board_keeps_stated_subject(flt, (NYSED,), ("science",), mini)
    assert kept is not None and kept[0].subject == ("science",) and kept[0].exam_board == (NYSED,)
    assert "holds science, not the evidence's physics" in kept[1]
    assert board_keeps_stated_subject(flt, (NYSED,), ("chemistry",), mini) is None     # the board lacks it too
    assert board_keeps_stated_subject(flt, (), ("science",), mini) is None             # no board named
    science = Scope.from_dict({"subject": "science", "level": "grade_8"})
    assert board_keeps_stated_subject(science, (NYSED,), ("physics",), mini) is None   # the board holds the evidence's


def test_a_named_series_of_one_subject_carries_it(mini):
    """'TIMSS 2011 niveau 6e : cuillère en métal ...' (round 19): the evidence said physics, TIMSS is science only."""
    flt = Scope(subject=("physics",), level=("grade_6",), year=(2011,), paper=("TIMSS Grade 6 Science",),
                exam_board=("TIMSS (IEA)",))
    gap = find_gap(flt, (), mini)
    assert gap is not None and "level" in gap.missing
    carried = series_subject(flt, gap)
    assert carried is not None and carried[0].subject == ("science",) and "holds science only" in carried[1]
    assert series_subject(Scope(subject=("science",), level=("grade_6",), exam_board=("TIMSS (IEA)",)), gap) is None
    amc = find_gap(Scope(subject=("mathematics",), level=("grade_9",), exam_board=("MAA AMC",)), (), mini)
    assert amc is not None and series_subject(Scope(subject=("physics",), level=("grade_9",)), amc) is not None
