"""Curriculum-fidelity metrics against hand-computed values (issue 5; curriculum README)."""

import pytest

from tools.eval import curriculum_metrics as cm

pytestmark = pytest.mark.unit

SCOPE = {"subject": "physics", "level": "grade_10", "year": 2019, "session": None,
         "paper": "Northfield Physics Paper 1", "content_type": "exam_question", "question_number": 3}
EXACT = {"subject": "physics", "level": "grade_10", "year": 2019, "paper": "Northfield Physics Paper 1",
         "content_type": "exam_question", "question_number": 3, "language": "en"}
OTHER_Q = EXACT | {"question_number": 4}                      # in the tuple, wrong question
OTHER_YEAR = EXACT | {"year": 2018}                           # tuple leak (year)
NO_PAPER = {k: v for k, v in EXACT.items() if k != "paper"}   # null metadata under a set field


def test_leaked_fields_null_metadata_counts_and_null_scope_field_is_ignored():
    assert cm.leaked_fields(EXACT, SCOPE) == []
    assert cm.leaked_fields(OTHER_YEAR, SCOPE) == ["year"]
    assert cm.leaked_fields(NO_PAPER, SCOPE) == ["paper"]
    # session is null in the gold scope: a chunk with session "A" does not leak on it
    assert cm.leaked_fields(EXACT | {"session": "A"}, SCOPE) == []
    assert cm.leaked_fields(OTHER_Q, SCOPE) == ["question_number"]
    assert cm.leaked_fields(OTHER_Q, SCOPE, cm.CURRICULUM_TUPLE) == []


def test_list_scope_values_are_any_of():
    scope = {"subject": ["physics", "mathematics"], "level": None}
    assert not cm.is_leaked({"subject": "mathematics"}, scope)
    assert cm.is_leaked({"subject": "chemistry"}, scope)
    assert cm.is_leaked({}, scope)
    assert not cm.is_leaked({"subject": "chemistry"}, None)  # unconstrained case


def test_leakage_rate_and_pooled_rate_by_hand():
    metas = [EXACT, OTHER_Q, OTHER_YEAR, NO_PAPER]
    # full scope: OTHER_Q (qn), OTHER_YEAR (year), NO_PAPER (paper) leak -> 3/4
    assert cm.leakage_counts(metas, SCOPE) == (3, 4)
    assert cm.leakage_rate(metas, SCOPE) == pytest.approx(0.75)
    # curriculum tuple: only OTHER_YEAR and NO_PAPER -> 2/4
    assert cm.leakage_rate(metas, SCOPE, cm.CURRICULUM_TUPLE) == pytest.approx(0.5)
    assert cm.leakage_rate([], SCOPE) == 0.0
    # pooled over queries: (3 + 0) / (4 + 2) = 0.5, while the mean of per-query rates is 0.375
    assert cm.pooled_rate([(3, 4), (0, 2), (0, 0)]) == pytest.approx(0.5)
    assert cm.pooled_rate([]) == 0.0


def test_relaxation_cases_use_relaxed_scope_only_when_the_system_relaxed():
    asked = {"subject": "physics", "year": 2031}
    relaxed = {"subject": "physics", "year": None}
    assert cm.is_relaxed("W2_DROP_LEVEL") and not cm.is_relaxed("W0_EXACT") and not cm.is_relaxed("?")
    assert cm.leakage_scope(asked, relaxed, relaxed=True) is relaxed
    assert cm.leakage_scope(asked, relaxed, relaxed=False) is asked
    assert cm.leakage_scope(asked, None, relaxed=True) is asked
    chunk = {"subject": "physics", "year": 2019}
    assert cm.is_leaked(chunk, cm.leakage_scope(asked, relaxed, relaxed=False))
    assert not cm.is_leaked(chunk, cm.leakage_scope(asked, relaxed, relaxed=True))


def test_contamination_and_silent_contamination():
    assert cm.contamination([EXACT, OTHER_Q], SCOPE)
    assert not cm.contamination([EXACT, OTHER_Q], SCOPE, cm.CURRICULUM_TUPLE)
    assert not cm.contamination([], SCOPE)
    flagged = [(EXACT, "W0_EXACT", []), (OTHER_YEAR, "W1_DROP_TOPIC", ["year"])]
    assert not cm.silent_contamination(flagged, SCOPE)
    assert cm.silent_contamination(flagged + [(NO_PAPER, "W0_EXACT", [])], SCOPE)
    # violations reported at W0 (post-filter pipelines) also count as flagged
    assert not cm.silent_contamination([(OTHER_YEAR, "W0_EXACT", ["year"])], SCOPE)


def test_exact_scope_success_requires_question_number_and_label_when_pinned():
    assert cm.exact_scope_success([("d1", OTHER_Q), ("d2", EXACT)], SCOPE)
    assert not cm.exact_scope_success([("d1", OTHER_Q), ("d3", OTHER_YEAR)], SCOPE)
    assert not cm.exact_scope_success([], SCOPE)
    # README caveat (two items share paper/year/number): only the labelled one counts
    assert not cm.exact_scope_success([("twin", EXACT)], SCOPE, relevant={"target": 2})
    assert cm.exact_scope_success([("twin", EXACT), ("target", EXACT)], SCOPE, relevant={"target": 2})
    # no question number pinned: any chunk inside the scope counts, labelled or not
    topical = {"subject": "physics", "level": "grade_10"}
    assert cm.exact_scope_success([("x", EXACT)], topical, relevant={"other": 1})


def test_abstention_success_needs_empty_or_flagged_answers():
    assert cm.abstention_success([])
    assert cm.abstention_success([("W2_DROP_LEVEL", ["year"]), ("W0_EXACT", ["session"])])
    assert not cm.abstention_success([("W2_DROP_LEVEL", ["year"]), ("W0_EXACT", [])])
    assert not cm.abstention_success([("RELAXATION_STEP_UNSPECIFIED", [])])


def test_relaxation_success():
    relaxed = {"subject": "physics", "year": [2018, 2019]}
    assert cm.relaxation_success([OTHER_YEAR], relaxed, relaxed=True)
    assert not cm.relaxation_success([OTHER_YEAR], relaxed, relaxed=False)
    assert not cm.relaxation_success([{"subject": "physics", "year": 2017}], relaxed, relaxed=True)
    assert not cm.relaxation_success([OTHER_YEAR], None, relaxed=True)


def test_scope_field_checks_classify_each_field():
    gold = {"subject": ["physics", "mathematics"], "level": "grade_10", "year": 2019, "session": None,
            "paper": None, "content_type": "textbook", "question_number": None}
    extracted = {"subject": ["mathematics", "physics"], "level": ["grade_12"], "paper": ["P1"],
                 "exam_board": ["ignored: not a gold field"]}
    got = {c.field: c.outcome for c in cm.scope_field_checks(extracted, gold)}
    assert got == {"subject": "correct", "level": "wrong", "year": "missed", "session": "correct",
                   "paper": "spurious", "content_type": "missed", "question_number": "correct"}
    assert sum(c.correct for c in cm.scope_field_checks(extracted, gold)) == 3


def test_case_outcome_precedence():
    assert cm.case_outcome(0, None, relaxed=True, silent=False) == "empty"
    assert cm.case_outcome(8, True, relaxed=False, silent=True) == "contaminated"
    assert cm.case_outcome(8, True, relaxed=False, silent=False) == "exact_hit"
    assert cm.case_outcome(8, False, relaxed=True, silent=False) == "flagged_recovery"
    assert cm.case_outcome(8, False, relaxed=False, silent=False) == "miss"
