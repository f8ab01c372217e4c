"""Marking material a paper or an item lacks: the content-type rungs of a pure item look-up (services/gate/marking.py)."""

from __future__ import annotations

import pytest

from chsr.relaxation import W0, W1
from services.gate.logic import run_gate

pytestmark = pytest.mark.unit


def test_a_mark_scheme_for_an_item_whose_paper_has_only_solutions_relaxes_to_the_solution_then_the_item(mini):
    # the mini corpus holds AMC 10A 2019 #7 (a question) and AMC 10A solutions, no mark scheme of any AMC paper
    ladder = run_gate("official mark scheme for 2019 AMC 10A #7", vocab=mini).ladder
    assert [s.step for s in ladder] == [W0, W1, W1]
    assert [s.filter.content_type for s in ladder] == [("mark_scheme",), ("solution",), ("exam_question",)]
    assert all(s.filter.paper == ("AMC 10A",) and s.filter.question_number == (7,) and s.filter.year == (2019,)
               for s in ladder)
    assert "mark_scheme is not held for AMC 10A" in ladder[1].description


def test_a_mark_scheme_for_a_paper_without_marking_material_relaxes_to_the_item(mini):
    ladder = run_gate("NYSED Regents grade 8 science 2015 question 12 mark scheme", vocab=mini).ladder
    assert [s.filter.content_type for s in ladder] == [("mark_scheme",), ("exam_question",)]
    assert "the item itself" in ladder[-1].description


@pytest.mark.parametrize("query", [
    "2019 AMC 10A problem 7 solution",       # the paper has solutions (in 2024): this item's solution is what is missing
    "2030 AMC 10A problem 7 mark scheme",    # a year the paper was not sat: nothing to answer
    "2017 新课标I 理数 第17题 评分标准",         # the paper has its mark scheme
])
def test_no_rung_where_the_paper_has_the_asked_type_or_the_item_is_missing(mini, query):
    assert len(run_gate(query, vocab=mini).ladder) == 1


def test_an_item_of_a_paper_holding_both_kinds_of_marking_material_gets_its_kin_after_w0(mini):
    # the mini Gaokao history paper: question 5 (multiple choice) has a worked solution, question 13 a mark scheme
    ladder = run_gate("2018全国卷III历史 第13题 解析", vocab=mini).ladder
    assert [s.step for s in ladder] == [W0, W1]
    assert [s.filter.content_type for s in ladder] == [("solution",), ("mark_scheme",)]
    assert all(s.filter.paper == ("Gaokao 新课标III History",) and s.filter.question_number == (13,) for s in ladder)
    assert "solution for question 13 of Gaokao 新课标III History: where this item has none, its mark_scheme" in \
        ladder[1].description
    back = run_gate("2018全国卷III历史 第5题 评分标准", vocab=mini).ladder
    assert [s.filter.content_type for s in back] == [("mark_scheme",), ("solution",)]
