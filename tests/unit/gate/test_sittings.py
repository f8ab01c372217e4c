"""A sitting after the last year the index holds is not relaxed (services/gate/sittings.py, issue 21)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from chsr.relaxation import W0, W1
from chsr.scope import Scope
from services.gate.evidence import EvidenceHit, EvidenceParams, FieldDecision
from services.gate.logic import run_gate
from services.gate.ladder import LadderStep
from services.gate.sittings import (after_the_index, nearest_years, neighbouring_sittings, never_sat, numbered_gap,
                                    off_cycle, series_not_held, with_nearest_years)
from services.gate.vocabulary import Vocabulary

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


def _probe_gaokao_physics() -> list[EvidenceHit]:
    return [EvidenceHit({"subject": "physics", "level": "grade_12", "paper": "Gaokao 新课标II Physics", "year": 2018,
                         "exam_board": "Gaokao", "content_type": "exam_question", "question_number": 2}, 1.0,
                        "sparse", 1)]


def test_a_numbered_item_of_a_series_the_index_lacks_is_not_relaxed(mini):
    """Decision 36: an item look-up of a board the corpus lacks answers nothing, with the conflict said."""
    result = run_gate("bac S 2018 physique-chimie exercice 2, l'énoncé svp", vocab=mini,
                      probe=_probe_gaokao_physics(), params=EvidenceParams.load())
    assert [s.label for s in result.ladder] == ["W0"]
    assert any("is not in the corpus: question 2 of one of its papers is in no other series" in n
               for n in result.notes)


def test_a_topical_query_naming_a_series_the_index_lacks_still_relaxes(mini):
    result = run_gate("bac S 2018 physique-chimie: la loi de Coulomb et les charges électriques", vocab=mini,
                      probe=_probe_gaokao_physics(), params=EvidenceParams.load())
    assert len(result.ladder) > 1
    assert not any("in no other series" in n for n in result.notes)


def test_series_not_held_needs_a_stated_number_and_a_board_conflict():
    board = FieldDecision("exam_board", ("KCSE",), 0.85, "stated", "filter", "exam_board KCSE is not in the corpus")
    number = FieldDecision("question_number", (19,), 0.9, "stated", "filter")
    assert "not relaxed" in series_not_held({"exam_board": board, "question_number": number})
    assert series_not_held({"exam_board": board}) == ""
    held = FieldDecision("exam_board", ("Gaokao",), 0.9, "stated", "filter")
    assert series_not_held({"exam_board": held, "question_number": number}) == ""
    guessed = FieldDecision("question_number", (19,), 0.9, "evidence", "filter")
    assert series_not_held({"exam_board": board, "question_number": guessed}) == ""


def test_a_number_asked_of_a_paper_whose_items_have_none_is_the_field_relaxed(mini):
    """"TIMSS 8th grade 2011 ... (it was #4 on our packet)": the index files TIMSS items by page, so the number is
    dropped at W1 and the paper's items of that year answer; a numbered paper keeps its number strict."""
    timss = Scope.from_dict({"paper": "TIMSS Grade 8 Science", "year": 2011, "question_number": 4})
    assert "holds its items without question numbers" in mini.unnumbered(timss)
    assert mini.unnumbered(Scope.from_dict({"paper": "AMC 10A", "year": 2019, "question_number": 7})) == ""
    assert mini.unnumbered(Scope.from_dict({"paper": "TIMSS Grade 8 Science", "year": 2007, "question_number": 4})) == ""
    probe = [EvidenceHit({"subject": "science", "level": "grade_8", "paper": "TIMSS Grade 8 Science", "year": 2011,
                          "exam_board": "TIMSS (IEA)", "content_type": "exam_question"}, 1.0, "sparse", 1)]
    result = run_gate("TIMSS grade 8 2011 #4: why is the bottle crushed when he comes down the mountain", vocab=mini,
                      probe=probe, params=EvidenceParams.load())
    assert len(result.ladder) > 1 and not result.ladder[1].filter.question_number
    assert result.ladder[1].filter.paper == ("TIMSS Grade 8 Science",) and result.ladder[1].filter.year == (2011,)


def test_a_numbered_item_of_a_provincial_gaokao_paper_is_not_relaxed(mini):
    """The corpus holds the national Gaokao papers; 上海卷 is a series it lacks (vocabulary exam_families)."""
    result = run_gate("2015年上海卷理科数学第23题 原题", vocab=mini, probe=_probe_gaokao_physics(),
                      params=EvidenceParams.load())
    assert result.scope.exam_board == ("上海卷",)
    assert [s.label for s in result.ladder] == ["W0"]


def test_a_year_a_national_paper_was_never_set_is_not_relaxed(mini):
    """'2014年全国III卷 ... 第20题 圆锥曲线' (round 31): 全国III卷 was first set in 2016, so no 2014 paper III exists,
    however on topic another year's question 20 is."""
    assert mini.sittings_sat["新课标III"] == (2016, 2020)
    note = never_sat(Scope(paper=("Gaokao 新课标III History",), year=(2014,)), mini)
    assert "year 2014 was never sat (新课标III was set 2016-2020)" in note
    numbered = Scope(paper=("Gaokao 新课标III History",), year=(2021,), question_number=(13,))
    assert "year 2021 was never sat" in never_sat(numbered, mini)   # after the last, a numbered item
    result = run_gate("2014年全国III卷历史第5题 原题", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"]
    assert any("was never sat" in n for n in result.notes)


def test_the_2021_national_papers_named_for_an_earlier_year_were_never_set(mini):
    """'2019 全国甲卷 历史 表格选择题 有吗': 全国甲/乙 are papers of their own from 2021 (2016-2017 used the names for the
    新课标 papers, the vocabulary's eras); eight authored requests for such a year, topical or numbered, abstain."""
    assert mini.sittings_sat["全国甲"] == (2021, 2025) and mini.sittings_sat["全国乙"] == (2021, 2025)
    assert "year 2019 was never sat (全国甲 was set 2021-2025)" in \
        never_sat(Scope(paper=("Gaokao 全国甲 History",), year=(2019,)), mini)
    result = run_gate("2019 全国甲卷 历史 表格选择题 有吗", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"]
    assert never_sat(Scope(paper=("Gaokao 全国甲 History",), year=(2022,)), mini) == ""   # set, held or not


def test_a_numbered_item_of_an_amc_a_or_b_sitting_before_2002_was_never_set(mini):
    """'2001 AMC 10A problem 15 の解説' (round 53): the A and B sittings began in 2002 (vocabulary sat_numbered); four
    authored look-ups like it are abstentions. A topical request names the year's single paper and still relaxes."""
    assert mini.sittings_sat_numbered["AMC 10A"] == (2002, 2026)
    numbered = Scope(paper=("AMC 10A",), session=("A",), year=(2001,), question_number=(15,))
    assert "year 2001 was never sat (AMC 10A was set 2002-2026)" in never_sat(numbered, mini)
    assert never_sat(Scope(paper=("AMC 12A", "AMC 12B"), year=(2001,)), mini) == ""        # topical: relaxed
    assert never_sat(Scope(paper=("AMC 10B",), year=(2003,), question_number=(9,)), mini) == ""   # set


@pytest.mark.parametrize("scope", [
    Scope(paper=("Gaokao 新课标III History",), year=(2017,)),    # set in 2017, not held by the index: relaxed
    Scope(paper=("Gaokao 新课标III History",), year=(2018,)),    # held
    Scope(paper=("Gaokao 新课标III History",), year=(2021,)),    # after the last, topical: 全国甲, named loosely
    Scope(paper=("Gaokao 新课标II History",), year=(2009,)),     # no known span for paper II
    Scope(paper=("Gaokao 新课标III History", "Gaokao 新课标II History"), year=(2014,)),  # one paper without a span
    Scope(paper=("Gaokao 新课标III History",)),                   # no year
])
def test_a_year_inside_the_years_set_or_a_paper_without_known_years_is_not_never_sat(mini, scope):
    assert never_sat(scope, mini) == ""


@pytest.fixture(scope="module")
def cycles(tmp_path_factory: pytest.TempPathFactory) -> Vocabulary:
    """A periodic series (every 4 years), one held twice only, and an annual one with a gap."""
    rows = [("TIMSS Grade 8 Science", y) for y in (1995, 2003, 2007, 2011)] + \
           [("Alaska SBA Grade 8 Science", y) for y in (2008, 2012)] + \
           [("LEAP Grade 8 Science", y) for y in (2007, 2008, 2009, 2011, 2012)]
    path = tmp_path_factory.mktemp("cycles") / "corpus.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i, (paper, year) in enumerate(rows):
            meta = {"paper": paper, "subject": "science", "level": "grade_8", "exam_board": paper.split()[0],
                    "year": year, "content_type": "exam_question", "source": "t", "language": "en"}
            out.write(json.dumps({"_id": f"c:{i}", "text": f"item {i}", "metadata": meta}) + "\n")
    return Vocabulary.load(path)


def test_a_year_between_the_sittings_of_a_periodic_series_was_never_held(cycles):
    """'TIMSS 2009 8th grade science ...' (round 15, if_mcq.07): 1995, 2003, 2007, 2011 are one 4-year cycle."""
    note = off_cycle(Scope(paper=("TIMSS Grade 8 Science",), year=(2009,)), cycles)
    assert "falls between the sittings of a periodic series" in note and "every 4 years" in note


@pytest.mark.parametrize("paper, year", [
    ("TIMSS Grade 8 Science", 1999),       # on the cycle: a sitting the index lacks, relaxed as before
    ("TIMSS Grade 8 Science", 2013),       # outside the span
    ("Alaska SBA Grade 8 Science", 2010),  # two years held: no cycle to read
    ("LEAP Grade 8 Science", 2010),        # held in consecutive years: a gap, not a cycle
])
def test_on_the_cycle_outside_the_span_or_no_cycle_is_not_off_cycle(cycles, paper, year):
    assert off_cycle(Scope(paper=(paper,), year=(year,)), cycles) == ""


def test_an_off_cycle_year_is_not_relaxed(cycles):
    result = run_gate("TIMSS 2009 8th grade science released item - main function of chlorophyll", vocab=cycles)
    assert [s.label for s in result.ladder] == ["W0"]
    assert any("no such sitting was held" in n for n in result.notes)


def test_a_numbered_item_of_a_year_missing_inside_the_span_is_named_not_relaxed(cycles):
    """'need 2021 amc 8 problem 17 + answer' (round 16): LEAP grade 8 is held 2007-2012 but not 2010, so question 14
    of 2010 names an item of a sitting the index does not hold; another year's question 14 is another item."""
    note = numbered_gap(Scope(paper=("LEAP Grade 8 Science",), year=(2010,), question_number=(14,)), cycles)
    assert "falls inside the years the paper is" in note and "2007-2012" in note and "question 14" in note
    result = run_gate("LEAP 2010 grade 8 science question 14 about plant cells", vocab=cycles)
    assert [s.label for s in result.ladder] == ["W0"]
    assert any("names an item of that one sitting; not relaxed" in n for n in result.notes)


@pytest.mark.parametrize("scope", [
    Scope(paper=("LEAP Grade 8 Science",), year=(2010,)),                         # no number: a topical ask relaxes
    Scope(paper=("LEAP Grade 8 Science",), year=(2006,), question_number=(3,)),   # before the first year held
    Scope(paper=("LEAP Grade 8 Science",), year=(2013,), question_number=(3,)),   # after the last year held
    Scope(paper=("LEAP Grade 8 Science",), year=(2011,), question_number=(3,)),   # a year held
    Scope(paper=("LEAP Grade 8 Science",), year=(2010, 2011), question_number=(3,)),  # one asked year is held
    Scope(year=(2010,), question_number=(3,)),                                    # no paper named
])
def test_a_number_outside_the_span_a_held_year_or_no_number_is_not_a_numbered_gap(cycles, scope):
    assert numbered_gap(scope, cycles) == ""


def test_two_named_papers_are_a_numbered_gap_only_when_both_lack_the_year(cycles):
    both = Scope(paper=("Alaska SBA Grade 8 Science", "LEAP Grade 8 Science"), year=(2010,), question_number=(3,))
    assert "Alaska SBA Grade 8 Science is held 2008-2012; LEAP Grade 8 Science is held 2007-2012" in \
        numbered_gap(both, cycles)
    assert numbered_gap(replace(both, year=(2011,)), cycles) == ""  # LEAP holds 2011


def test_another_years_numbered_question_answers_only_on_topic(cycles):
    """'pulling #12 off the 2017 NYS grade 4 science test for a bell ringer' (round 19): a year after the paper's
    last, with words that are not the item's topic. The steps that move the year and keep question 12 answer only
    with on-topic results; W0 and the steps that keep the asked year are unmarked."""
    result = run_gate("LEAP 2006 grade 8 science question 3 about plant cells", vocab=cycles)
    moved = [s for s in result.ladder if s.filter.question_number == (3,) and s.filter.year != (2006,)]
    assert moved and all(s.on_topic_only for s in moved)
    assert not any(s.on_topic_only for s in result.ladder if s.label == "W0" or s.filter.year == (2006,))
    assert not any(s.on_topic_only for s in run_gate("LEAP 2006 grade 8 science plant cells", vocab=cycles).ladder)
    assert result.ladder[1].to_proto().on_topic_only == result.ladder[1].on_topic_only


def test_a_held_sitting_with_nothing_on_topic_widens_to_its_other_papers_then_its_neighbours(cycles):
    """'2021年全国甲卷理科数学 解三角形解答题' (dev st_relax.03; round 38): the named sitting is held, so after W0 come the
    same year's papers of the board, then the years either side, any paper, each answering only on topic."""
    asked = Scope(subject=("science",), level=("grade_8",), year=(2008,), paper=("LEAP Grade 8 Science",),
                  exam_board=("LEAP",), content_type=("exam_question",))
    ladder = [LadderStep(W0, asked, "W0"), LadderStep(W1, replace(asked, content_type=()), "W1 any kind")]
    out = neighbouring_sittings(ladder, asked, cycles)
    assert out[0] == ladder[0] and out[-1] == ladder[1] and len(out) == 4
    same, window = out[1], out[2]
    assert same.filter == replace(asked, paper=()) and same.on_topic_only
    assert window.filter == replace(asked, paper=(), year=(2007, 2008, 2009)) and window.on_topic_only
    assert "neighbouring sittings" in window.description
    # a numbered item, a sitting the index does not hold (its year relaxes within the paper) or a W0-only ladder:
    # left as they were
    assert neighbouring_sittings(ladder, replace(asked, question_number=(3,)), cycles) == ladder
    assert neighbouring_sittings(ladder, replace(asked, year=(2010,)), cycles) == ladder
    assert neighbouring_sittings(ladder[:1], asked, cycles) == ladder[:1]


def _leap_ladder(year: int) -> tuple[Scope, list[LadderStep]]:
    asked = Scope(subject=("science",), level=("grade_8",), year=(year,), paper=("LEAP Grade 8 Science",),
                  exam_board=("LEAP",), content_type=("exam_question",))
    return asked, [LadderStep(W0, asked, "W0"), LadderStep(W1, replace(asked, year=()), "W1 year dropped")]


def _leap_hit(year: int, leg: str = "sparse", rank: int = 1) -> EvidenceHit:
    return EvidenceHit({"subject": "science", "level": "grade_8", "year": year, "paper": "LEAP Grade 8 Science",
                        "exam_board": "LEAP", "content_type": "exam_question"}, 1.0, leg, rank)


def test_nearest_years_are_the_held_years_either_side():
    assert nearest_years([2007, 2008, 2009, 2011, 2012], (2010,)) == (2009, 2011)
    assert nearest_years([2007, 2008, 2009], (2013,)) == (2009,)
    assert nearest_years([2010, 2012], (2005, 2015)) == (2010, 2012)
    assert nearest_years([], (2010,)) == ()


def test_an_asked_year_not_held_relaxes_to_the_nearest_years_before_the_year_is_dropped(cycles):
    """'VA SOL grade 5 science 2013 - electromagnet question' (authored ij_mcq_rx.51): the paper is held 2007-2011, so
    its 2011 sitting comes before every year of the paper, and the rung says what moved."""
    asked, ladder = _leap_ladder(2014)
    out = with_nearest_years(ladder, asked, cycles)
    assert [s.filter.year for s in out] == [(2014,), (2012,), ()]
    assert out[1].step == W1 and "year 2014 not held for LEAP Grade 8 Science; nearest held: 2012" in out[1].description
    between, ladder = _leap_ladder(2010)
    assert with_nearest_years(ladder, between, cycles)[1].filter.year == (2009, 2011)


def test_the_probe_finding_the_item_only_in_other_years_keeps_the_year_dropped(cycles):
    """'2009 新课标卷 生物 生态大题：人登岛 牧羊 狐 野兔': the described item is in a later paper; the lexical leg's hits
    inside the widened scope say so, and the dense leg speaks only where the lexical leg has none."""
    asked, ladder = _leap_ladder(2014)
    assert with_nearest_years(ladder, asked, cycles, [_leap_hit(2008)]) == ladder
    assert len(with_nearest_years(ladder, asked, cycles, [_leap_hit(2012)])) == 3
    assert with_nearest_years(ladder, asked, cycles, [_leap_hit(2012, rank=2), _leap_hit(2007, "dense")]) != ladder
    assert with_nearest_years(ladder, asked, cycles, [_leap_hit(2007, "dense")]) == ladder
    # one hit in the nearest years: they hold the kind asked for ("log equation problems from the 2025 AMC 12B")
    assert len(with_nearest_years(ladder, asked, cycles, [_leap_hit(2008), _leap_hit(2012, rank=5)])) == 3
    outside = EvidenceHit({"subject": "science", "level": "grade_4", "year": 2008}, 1.0, "sparse", 1)
    assert len(with_nearest_years(ladder, asked, cycles, [outside])) == 3  # a hit outside the scope locates nothing


def test_a_held_year_a_numbered_item_or_a_ladder_that_keeps_the_year_is_left_as_it_is(cycles):
    held, ladder = _leap_ladder(2011)
    assert with_nearest_years(ladder, held, cycles) == ladder  # the year was dropped for another reason
    asked, ladder = _leap_ladder(2014)
    assert with_nearest_years(ladder, replace(asked, question_number=(3,)), cycles) == ladder
    assert with_nearest_years(ladder[:1], asked, cycles) == ladder[:1]
    kept = [ladder[0], LadderStep(W1, replace(asked, content_type=()), "W1 any kind")]
    assert with_nearest_years(kept, asked, cycles) == kept


def test_held_years_follow_papers_then_boards_and_subjects(cycles):
    assert cycles.held_years(Scope(paper=("LEAP Grade 8 Science",))) == {2007, 2008, 2009, 2011, 2012}
    assert cycles.held_years(Scope(paper=("No Such Paper",))) is None
    assert cycles.held_years(Scope(exam_board=("TIMSS",))) == {1995, 2003, 2007, 2011}
    assert cycles.held_years(Scope(exam_board=("Alaska",), subject=("science",))) == {2008, 2012}
    assert cycles.held_years(Scope(subject=("science",), level=("grade_8",))) >= {1995, 2012}
    assert cycles.held_years(Scope()) is None
