"""A look-up in an exam series no board, alias or paper of the index knows (services/gate/unknown_series.py)."""

from __future__ import annotations

import pytest

from services.gate.extract import extract_scope
from services.gate.logic import run_gate

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("query,series", [
    ("KCSE biology paper 2 2017 #19 solution", "KCSE"),                       # an acronym before the subject
    ("Hogwarts 2019 physics paper 1 question 3", "Hogwarts"),                 # a name at the start, "paper N"
    ("Abitur Physik Leistungskurs 2013 #8", "Abitur"),                        # an exam family, in a look-up
    ("A level biology paper 1 2022 question 19", "A level"),
    ("2016 HSC chemistry question 21", "HSC"),                                # after the year
    ("Singapore PSLE science 2015 question on plants", "PSLE"),               # dated, topical: an acronym
    ("2018 KCSE chemistry question on rates of reaction", "KCSE"),
    ("2019 A-level physics question on moments", "A-level"),                  # dated, topical: a family (round 16)
    ("2018年北京卷历史 乡镇企业行业分布表那道选择题", "北京卷"),                     # a provincial Gaokao paper, dated
    ("pregunta 3 del examen de Física de la EvAU de Madrid de 2019", "EvAU"),   # Spain's entrance exam (round 46)
])
def test_a_look_up_in_an_unknown_series_names_it_as_the_board(mini, query, series):
    extraction = extract_scope(query, mini)
    assert extraction.scope.exam_board == (series,)
    assert extraction.confidence["exam_board"][0] >= 0.7  # a hard constraint: W1 does not drop it


def test_a_dated_question_in_an_unknown_series_is_never_answered_exactly_by_another_board(mini):
    result = run_gate("Singapore PSLE science 2015 question on plants", vocab=mini)
    assert result.ladder[0].filter.exam_board == ("PSLE",)    # W0: honestly empty
    assert "exam_board PSLE is not in the corpus" in " ".join(result.notes)


def test_the_gate_says_the_series_is_not_held_and_never_leaves_it(mini):
    result = run_gate("KCSE biology paper 2 2017 #19 solution", vocab=mini)
    assert "exam_board KCSE is not in the corpus" in " ".join(result.notes)
    assert all(step.filter.exam_board == ("KCSE",) for step in result.ladder), [s.description for s in result.ladder]


@pytest.mark.parametrize("query", [
    "GCSE-level question on moments",                  # a family as a level hint, no look-up: the level only
    "Solve 2019 physics question 3",                   # a capitalised verb, no "paper N"
    "DNA biology 2017 question 3",                     # an acronym that never names a series
    "NYSED Regents grade 8 science 2015 question 12",  # a known series
    "NY Regent grade 8 science 2015 question 12",      # close to a known name (a typo), not an unknown series
    "2019 AMC 10B problem 7",                          # a known paper pattern
    "KCSE biology: how do plants lose water?",         # a topical question, not a look-up
    "DNA replication 2015 biology question",           # dated: an acronym that never names a series
])
def test_known_series_typos_topical_queries_and_ordinary_words_are_not_series(mini, query):
    extraction = extract_scope(query, mini)
    assert "exam series" not in extraction.confidence.get("exam_board", (0, ""))[1]
    assert "exam family" not in extraction.confidence.get("exam_board", (0, ""))[1]


def test_a_name_that_the_corpus_holds_is_not_unknown(mini):
    # "Regents" is a word of a corpus paper name: a look-up that uses it alone is not an unknown series
    extraction = extract_scope("Regents 2015 science paper 1 question 12", mini)
    assert "exam series" not in extraction.confidence.get("exam_board", (0, ""))[1]


@pytest.mark.parametrize("query,family", [
    ("孩子明年考北京卷，想找2022年北京高考数学的数列大题练练手", "北京卷"),   # the Gaokao named too ("高考"): still Beijing's
    ("2022年北京高考数学 数列大题", "北京高考"),                          # a province's own gaokao
    ("2019 北京卷 高考 物理 第20题", "北京卷"),                           # a look-up
])
def test_a_provincial_paper_beside_the_gaokao_is_the_series_asked_for(mini, query, family):
    extraction = extract_scope(query, mini)
    assert extraction.scope.exam_board == (family,)
    assert "北京" not in extraction.remaining  # a scope word, not a topic word


def test_the_gaokao_named_without_a_province_stays_the_board(mini):
    assert extract_scope("2022年高考数学 数列大题", mini).scope.exam_board == ("China NCEE (Gaokao)",)


def test_an_absent_provincial_paper_relaxes_within_the_gaokao_never_to_another_board(mini):
    result = run_gate("2017年北京卷 数学 数列大题", vocab=mini)
    assert result.ladder[0].filter.exam_board == ("北京卷",)    # W0: honestly empty
    relaxed = result.ladder[1:]
    assert relaxed and all(step.filter.exam_board == ("China NCEE (Gaokao)",) for step in relaxed), \
        [(s.description, s.filter) for s in result.ladder]
    assert all(not step.lexical_only for step in relaxed)
