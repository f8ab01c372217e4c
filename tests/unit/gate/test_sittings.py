"""A sitting after the last year the index holds is not relaxed (services/gate/sittings.py, issue 21)."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from services.gate.evidence import EvidenceHit, EvidenceParams
from services.gate.logic import run_gate
from services.gate.sittings import after_the_index

pytestmark = pytest.mark.unit


def test_a_year_after_the_index_is_said_and_never_relaxed(mini):
    latest = max(y for y in mini.corpus_values("year") if isinstance(y, int))
    assert "after the latest year the index holds" in after_the_index(Scope(year=(latest + 3,)), mini)
    result = run_gate(f"AMC 10A {latest + 3} problem 7 about the area of a rectangle", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"]
    assert any(f"year {latest + 3} is after the latest year the index holds ({latest})" in n for n in result.notes)


def test_a_year_within_the_index_span_still_relaxes(mini):
    assert after_the_index(Scope(year=(2013,)), mini) == ""          # absent for a paper, but inside the span
    assert after_the_index(Scope(), mini) == ""
    result = run_gate("New York grade 8 science test 2013 question about friction and heat", vocab=mini)
    assert len(result.ladder) > 1


def test_through_the_evidence_path_a_paper_the_index_lacks_and_a_later_year_are_said(mini):
    probe = [EvidenceHit({"subject": "mathematics", "level": "grade_10", "paper": "AMC 10A", "year": 2019,
                          "exam_board": "MAA AMC", "content_type": "exam_question", "question_number": 5}, 1.0,
                         "sparse", 1)]
    params = EvidenceParams.load()
    never_set = run_gate("2019 AMC 10C problem 5 about the area of a triangle", vocab=mini, probe=probe,
                         params=params)
    assert "paper AMC 10C is not in the corpus" in never_set.notes
    later = run_gate("2030 AMC 10A problem 5 about the area of a triangle", vocab=mini, probe=probe, params=params)
    assert [s.label for s in later.ladder] == ["W0"]
    assert any("year 2030 is after the latest year the index holds" in n for n in later.notes)
