"""A numbered question named under the wrong subject of a real sitting (services/gate/sibling.py, issue 21)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chsr.relaxation import W0, W1
from chsr.scope import Scope
from services.gate.evidence_features import EvidenceHit
from services.gate.ladder import LadderStep
from services.gate.evidence import FieldDecision
from services.gate.sibling import (corrected_number, corrected_sitting, dominant_sibling, sibling_rung,
                                   with_beyond_rung, with_sibling_rung)

pytestmark = pytest.mark.unit

ASKED = Scope.from_dict({"level": "grade_12", "year": 2020, "paper": "Gaokao 新课标I Chemistry", "question_number": 11,
                         "content_type": "exam_question", "exam_board": "China NCEE (Gaokao)"})
BEYOND = {"question_number": "question 11 is beyond what the index holds of Gaokao 新课标I Chemistry (2020)"}


def hit(paper: str, number: int, year: int = 2020, rank: int = 1, **meta: object) -> EvidenceHit:
    data = {"paper": paper, "question_number": number, "year": year, "subject": "physics", "level": "grade_12",
            "content_type": "exam_question", "exam_board": "China NCEE (Gaokao)", **meta}
    return EvidenceHit(data, 1.0, "sparse", rank)


def test_the_sitting_paper_that_holds_the_number_and_the_words_is_the_rung_after_w0():
    rung = sibling_rung(ASKED, BEYOND, [hit("Gaokao 新课标I Chemistry", 3), hit("Gaokao 新课标I Physics", 11, rank=2)])
    assert rung is not None and rung.step == W1
    assert rung.filter.paper == ("Gaokao 新课标I Physics",)
    assert rung.filter.year == (2020,) and rung.filter.question_number == (11,)
    assert "paper Gaokao 新课标I Chemistry -> Gaokao 新课标I Physics" in rung.description
    ladder = [LadderStep(W0, ASKED, "W0"), LadderStep(W1, ASKED.without("content_type"), "W1")]
    assert [s.filter.paper for s in with_sibling_rung(ladder, rung)][1] == ("Gaokao 新课标I Physics",)


@pytest.mark.parametrize("probe", [
    [hit("Gaokao 新课标II Physics", 11)],                  # another sitting (新课标II)
    [hit("Gaokao 新课标I Physics", 12)],                   # another number
    [hit("Gaokao 新课标I Physics", 11, year=2019)],        # another year
    [hit("Gaokao 新课标I Physics", 11, rank=25)],          # too deep in the probe to be what the words mean
])
def test_only_the_same_sitting_year_and_number_near_the_top_of_the_probe(probe):
    assert sibling_rung(ASKED, BEYOND, probe) is None


def test_a_paper_that_can_hold_the_item_and_a_w0_only_ladder_are_left_alone():
    probe = [hit("Gaokao 新课标I Physics", 11)]
    assert sibling_rung(ASKED, {}, probe) is None            # the named paper holds question 11: nothing to fix
    strict = [LadderStep(W0, ASKED, "W0")]
    assert with_sibling_rung(strict, sibling_rung(ASKED, BEYOND, probe)) == strict


def test_amc_twins_are_not_one_sitting():
    asked = Scope.from_dict({"year": 2019, "paper": "AMC 10A", "question_number": 30, "exam_board": "MAA AMC"})
    probe = [hit("AMC 12A", 30, year=2019, exam_board="MAA AMC", subject="mathematics")]
    assert sibling_rung(asked, {"question_number": "beyond"}, probe) is None


NAMED = Scope.from_dict({"level": "grade_12", "year": 2018, "paper": "Gaokao 新课标III Biology", "question_number": 8,
                         "content_type": "exam_question", "exam_board": "China NCEE (Gaokao)"})
OVERRULED = FieldDecision("subject", ("chemistry",), 0.42, "evidence", "rank",
                          conflict="subject: the text says biology, the evidence says chemistry")


def test_words_in_a_language_none_of_the_items_is_in_cannot_move_the_sitting():
    """Round 45 (lt_ms_exact.01): "参考答案 / Erwartungshorizont zur Gaokao-Physik 2016 全国I卷 Nr. 14: Luftblase ..." -
    the German words reach no Chinese item, so the probe's order is not the query's choice: the named paper stands."""
    probe = [hit("Gaokao 新课标III Chemistry", 8, year=2018, subject="chemistry", language="zh"),
             hit("Gaokao 新课标III Biology", 8, year=2018, rank=6, subject="biology", language="zh")]
    assert corrected_sitting(NAMED, OVERRULED, probe, written="de") is None
    assert corrected_sitting(NAMED, OVERRULED, probe, written="zh") is not None


def test_words_in_a_language_none_of_the_items_is_in_do_not_renumber_the_item():
    """Round 48 (mc_tb_synth.01): "2022 全国乙卷 理科数学 第19题: tabela da área da secção da raiz ..." - Portuguese words
    reach no Chinese item, so the probe's first item of the paper (question 13) does not replace the stated 19."""
    asked = Scope.from_dict({"subject": "mathematics", "level": "grade_12", "year": 2022, "question_number": 19,
                             "paper": "Gaokao 全国乙 Mathematics I (science track)"})
    probe = [hit("Gaokao 全国乙 Mathematics I (science track)", 13, year=2022, subject="mathematics", language="zh")]
    terms = ["tabela", "area", "secção", "raiz", "volume", "madeira"]
    assert corrected_number(asked, probe, terms, written="pt") is None
    assert corrected_number(asked, probe, terms, written="zh") is not None


def test_a_wrong_subject_whose_paper_holds_the_number_moves_to_the_sibling_the_probe_ranks_first():
    """"2018 全国3卷 生物 第8题 硫代硫酸钠 ...": the biology paper has a question 8 too, about something else; the
    probe ranks chemistry's question 8 of that sitting first, and the evidence says chemistry."""
    probe = [hit("Gaokao 新课标III Chemistry", 8, year=2018, subject="chemistry"),
             hit("Gaokao 新课标III Biology", 8, year=2018, rank=6, subject="biology")]
    corrected = corrected_sitting(NAMED, OVERRULED, probe)
    assert corrected is not None
    flt, note = corrected
    assert flt.paper == ("Gaokao 新课标III Chemistry",) and flt.subject == ("chemistry",)
    assert flt.year == (2018,) and flt.question_number == (8,)
    assert "the text's subject is corrected" in note


@pytest.mark.parametrize("subject, probe", [
    (OVERRULED, [hit("Gaokao 新课标III Biology", 8, year=2018, subject="biology"),        # the named item first
                 hit("Gaokao 新课标III Chemistry", 8, year=2018, rank=2, subject="chemistry")]),
    (FieldDecision("subject", ("biology",), 0.9, "both", "filter"),                      # no conflict
     [hit("Gaokao 新课标III Chemistry", 8, year=2018, subject="chemistry")]),
    (OVERRULED, [hit("Gaokao 新课标III Physics", 8, year=2018, subject="physics")]),      # not the evidence's subject
    (OVERRULED, [hit("Gaokao 新课标II Chemistry", 8, year=2018, subject="chemistry")]),   # another sitting
])
def test_the_named_paper_stays_unless_the_evidence_and_the_probe_agree_on_a_sibling(subject, probe):
    assert corrected_sitting(NAMED, subject, probe) is None


def test_without_a_number_the_sitting_year_decides():
    """"2018全国二卷 理综化学 垂体切除法 幼龄大鼠 ... 答案": no number, a biology item of that sitting's year first."""
    asked = NAMED.without("question_number")
    probe = [hit("Gaokao 新课标III Chemistry", 31, year=2018, subject="chemistry"),
             hit("Gaokao 新课标III Biology", 2, year=2018, rank=4, subject="biology")]
    corrected = corrected_sitting(asked, OVERRULED, probe)
    assert corrected is not None and corrected[0].paper == ("Gaokao 新课标III Chemistry",)
    assert corrected[0].question_number == ()
    probe = [hit("Gaokao 新课标III Chemistry", 31, year=2017, subject="chemistry")]   # another year
    assert corrected_sitting(asked, OVERRULED, probe) is None


def test_one_sitting_filed_under_two_names_is_one_sitting(bundled):
    """"2020全国III卷 生物 第4题 Logistic模型 ...": the corpus files that sitting's maths papers as 全国III and its
    biology paper as 新课标III; the vocabulary writes both names for one colloquial 全国III卷."""
    asked = Scope.from_dict({"level": "grade_12", "year": 2020, "paper": "Gaokao 新课标III Biology", "question_number": 4,
                             "content_type": "exam_question", "exam_board": "China NCEE (Gaokao)"})
    overruled = FieldDecision("subject", ("mathematics",), 0.95, "evidence", "filter",
                              conflict="subject: the text says biology, the evidence says mathematics")
    probe = [hit("Gaokao 全国III Mathematics I (science track)", 4, subject="mathematics")]
    assert corrected_sitting(asked, overruled, probe) is None                   # without the aliases: two sittings
    corrected = corrected_sitting(asked, overruled, probe, bundled.sitting_aliases)
    assert corrected is not None and corrected[0].paper == ("Gaokao 全国III Mathematics I (science track)",)
    assert bundled.sitting_aliases["全国III"] == bundled.sitting_aliases["新课标III"]
    assert "全国甲" not in bundled.sitting_aliases or bundled.sitting_aliases["全国甲"] != bundled.sitting_aliases["全国III"]


HISTORY = Scope.from_dict({"level": "grade_12", "year": 2019, "paper": "Gaokao 新课标II History", "question_number": 15,
                           "content_type": "mark_scheme", "exam_board": "China NCEE (Gaokao)"})
KEPT = FieldDecision("subject", ("history",), 0.68, "both", "filter",
                     candidates=(("history", 0.68), ("politics", 0.14), ("mathematics", 0.0)))


def test_without_a_conflict_a_sibling_item_at_the_top_with_the_named_item_absent_corrects_the_subject():
    """"2019 全国II卷 历史 15题 雪线邮路 其美多吉 参考答案": the evidence keeps history (0.68, politics 0.14), but the probe
    ranks politics' question 15 of that sitting first and has no history question 15 at all."""
    probe = [hit("Gaokao 新课标II Politics", 15, year=2019, subject="politics", content_type="mark_scheme")]
    corrected = corrected_sitting(HISTORY, KEPT, probe)
    assert corrected is not None and corrected[0].paper == ("Gaokao 新课标II Politics",)


@pytest.mark.parametrize("probe", [
    [hit("Gaokao 新课标II Politics", 15, year=2019, rank=4, subject="politics")],               # not near the top
    [hit("Gaokao 新课标II Politics", 15, year=2019, rank=2, subject="politics"),
     hit("Gaokao 新课标II History", 15, year=2019, rank=9, subject="history")],                 # the named item is there
    [hit("Gaokao 新课标II Geography", 15, year=2019, subject="geography")],                     # not a candidate subject
])
def test_without_a_conflict_the_named_paper_stays_otherwise(probe):
    assert corrected_sitting(HISTORY, KEPT, probe) is None


def test_a_subject_naming_both_tracks_of_a_sitting_is_corrected_too():
    """"2018 全国三卷 数学题 天琴计划 卫星 ... 周期之比" (round 15, if_fm.06): 数学 names both maths tracks; the physics
    paper of that sitting holds the item the words describe."""
    asked = Scope.from_dict({"level": "grade_12", "year": 2018, "content_type": "exam_question",
                             "paper": ["Gaokao 新课标III Mathematics I (science track)",
                                       "Gaokao 新课标III Mathematics II (liberal-arts track)"]})
    overruled = FieldDecision("subject", ("physics",), 0.49, "evidence", "rank",
                              conflict="subject: the text says mathematics, the evidence says physics")
    corrected = corrected_sitting(asked, overruled, [hit("Gaokao 新课标III Physics", 2, year=2018)])
    assert corrected is not None and corrected[0].paper == ("Gaokao 新课标III Physics",)
    assert "Mathematics I (science track) | Gaokao 新课标III Mathematics II" in corrected[1]


UNNUMBERED = HISTORY.without("question_number")


def test_without_a_conflict_or_a_number_a_sibling_item_of_the_year_near_the_top_corrects_the_subject():
    """"2019全国II卷物理 嫦娥四号中继星鹊桥 ... 求r近似值" (round 16, il_fm_ad.58): no number, the evidence keeps the
    text's subject, the probe ranks the sibling paper's item of that year near the top and holds no item of the
    named paper that year."""
    probe = [hit("Gaokao 新课标I History", 3, year=2015, subject="history"),
             hit("Gaokao 新课标II Politics", 12, year=2019, rank=3, subject="politics")]
    corrected = corrected_sitting(UNNUMBERED, KEPT, probe)
    assert corrected is not None and corrected[0].paper == ("Gaokao 新课标II Politics",)
    assert corrected[0].subject == ("politics",) and corrected[0].question_number == ()


@pytest.mark.parametrize("probe", [
    [hit("Gaokao 新课标II Politics", 12, year=2019, rank=4, subject="politics")],               # not near the top
    [hit("Gaokao 新课标II Politics", 12, year=2019, rank=2, subject="politics"),
     hit("Gaokao 新课标II History", 7, year=2019, rank=10, subject="history")],                 # the named paper's year
    [hit("Gaokao 新课标II Geography", 12, year=2019, subject="geography")],                     # not a candidate subject
    [hit("Gaokao 新课标II Politics", 12, year=2018, subject="politics")],                       # another year
])
def test_without_a_number_the_named_paper_stays_otherwise(probe):
    assert corrected_sitting(UNNUMBERED, KEPT, probe) is None


def scored(paper: str, score: float, rank: int, year: int = 2019, subject: str = "politics") -> EvidenceHit:
    return EvidenceHit({"paper": paper, "question_number": rank, "year": year, "subject": subject}, score, "sparse", rank)


def test_a_sibling_item_the_lexical_probe_ranks_first_by_a_wide_margin_corrects_the_subject():
    """"2016年全国II卷 化学 实验大题：BTB 酸碱指示剂、NaHCO3、水草 ..." (round 32): the evidence keeps the text's chemistry,
    the chemistry paper's items of that year rank (5th), but the biology item scores more than twice as high."""
    probe = [scored("Gaokao 新课标II Politics", 49.5, 1), scored("Gaokao 新课标II History", 21.1, 5, subject="history")]
    corrected = corrected_sitting(UNNUMBERED, KEPT, probe)
    assert corrected is not None and corrected[0].paper == ("Gaokao 新课标II Politics",)
    assert corrected[0].subject == ("politics",) and "lexical score 49.5 vs 21.1" in corrected[1]


@pytest.mark.parametrize("probe", [
    [scored("Gaokao 新课标II Politics", 30.0, 1), scored("Gaokao 新课标II History", 21.1, 2, subject="history")],  # no margin
    [scored("Gaokao 新课标II Politics", 49.5, 1, year=2018), scored("Gaokao 新课标II History", 21.1, 2,
                                                                  subject="history")],                   # another year
    [scored("Gaokao 新课标I Politics", 49.5, 1), scored("Gaokao 新课标II History", 21.1, 2,
                                                      subject="history")],                               # another sitting
    [scored("Gaokao 新课标II History", 49.5, 1, subject="history"), scored("Gaokao 新课标II Politics", 10.0, 2)],  # named first
    [scored("Gaokao 新课标II Politics", 49.5, 1)],                                                         # one hit: no margin
])
def test_the_lexical_margin_needs_the_first_hit_of_the_same_sitting_and_year_at_twice_the_named_papers(probe):
    assert dominant_sibling(UNNUMBERED, probe) is None


AMC = Scope.from_dict({"level": "grade_12", "year": 2024, "session": "A", "paper": "AMC 12A", "question_number": 5,
                       "content_type": "exam_question", "exam_board": "MAA AMC"})
QUOTED = ["least", "n!", "multiple", "factorial", "divisible"]


def amc(paper: str, number: int, rank: int, year: int = 2024) -> EvidenceHit:
    return EvidenceHit({"paper": paper, "question_number": number, "year": year, "subject": "mathematics"}, 1.0,
                       "sparse", rank)


def test_a_quoted_problem_the_probe_finds_under_another_number_of_the_named_paper_corrects_the_number():
    """"2024 AMC 12A prob 5 - least n so that n! is a multiple of 2024" (round 16): 12A #4, the 10A twin's #5."""
    corrected = corrected_number(AMC, [amc("AMC 10A", 5, 1), amc("AMC 12A", 4, 2)], QUOTED)
    assert corrected is not None and corrected[0].question_number == (4,)
    assert corrected[0].paper == ("AMC 12A",)
    assert "the text says 5, but question 4 of AMC 12A (2024) matches the query's words" in corrected[1]


@pytest.mark.parametrize("probe, terms", [
    ([amc("AMC 12A", 4, 1), amc("AMC 12A", 5, 7)], QUOTED),            # the stated item is in the probe too
    ([amc("AMC 12A", 4, 4)], QUOTED),                                   # not near the top
    ([amc("AMC 12A", 4, 1, year=2023)], QUOTED),                        # another year
    ([amc("AMC 10A", 4, 1)], QUOTED),                                   # another paper
    ([amc("AMC 12A", 4, 1)], QUOTED[:4]),                               # too few words to identify an item
])
def test_the_stated_number_stays_otherwise(probe, terms):
    assert corrected_number(AMC, probe, terms) is None


def test_a_number_past_the_papers_last_is_corrected_by_a_single_quoted_term():
    # "18年全国一卷文综42题 鲁滨逊漂流记": 42 is the printed 文综 number; the history paper's index stops at 17
    probe = [amc("AMC 12A", 4, 1)]
    assert corrected_number(AMC, probe, QUOTED[:1]) is None
    corrected = corrected_number(AMC, probe, QUOTED[:1], beyond=True)
    assert corrected is not None and corrected[0].question_number == (4,)


def test_a_number_past_the_papers_last_still_needs_the_words_and_the_probe():
    assert corrected_number(AMC, [amc("AMC 12A", 4, 1)], (), beyond=True) is None
    assert corrected_number(AMC, [amc("AMC 12A", 4, 4)], QUOTED[:1], beyond=True) is None  # not near the top


@pytest.mark.parametrize("text, evidence, hedged", [
    ("va SOLs 3rd grade sci, 2009 release - #13 i think? the one w/ the shadow", "#13", True),
    ("2014 AMC 12B, problem 10 or so: the column addition", "problem 10", True),
    ("2019全国I卷 好像是第5题 那道", "第5题", True),
    ("2019 AMC 10A #5? the one with the coins", "#5", False),      # a question, not a guess
    ("2019 AMC 10A #5 the one with the coins", "#5", False),
    ("no number here", "", False),
])
def test_a_hedged_number(text, evidence, hedged):
    from services.gate.sibling import hedged_number

    assert hedged_number(text, evidence) is hedged


def test_a_number_past_the_papers_last_adds_the_named_papers_items_after_the_rungs_keeping_it():
    kin = replace(ASKED, content_type=("mark_scheme", "solution"))
    ladder = [LadderStep(W0, ASKED, "W0"), LadderStep(W1, kin, "W1 kin")]
    out = with_beyond_rung(ladder, ASKED, BEYOND, ["fireworks", "shell"])
    assert [s.filter for s in out[:2]] == [ASKED, kin]
    rung = out[2]
    assert rung.step == W1 and rung.filter == ASKED.without("question_number")
    assert rung.filter.paper == ASKED.paper and rung.filter.year == ASKED.year
    assert BEYOND["question_number"] in rung.description
    # a W0-only ladder (a look-up the gate would otherwise answer empty) gets it too
    assert [s.filter for s in with_beyond_rung(ladder[:1], ASKED, BEYOND, ["fireworks"])] == \
        [ASKED, ASKED.without("question_number")]


@pytest.mark.parametrize("unsatisfiable, terms", [
    ({}, ["fireworks"]),                                   # the number is held
    (BEYOND, []),                                           # a pure look-up: nothing to find the item by
])
def test_a_held_number_or_a_pure_look_up_keeps_its_ladder(unsatisfiable, terms):
    ladder = [LadderStep(W0, ASKED, "W0")]
    assert with_beyond_rung(ladder, ASKED, unsatisfiable, terms) == ladder


def test_the_same_paper_filed_under_another_sittings_name_is_a_rung_near_the_top_only():
    """'2021全国乙卷理数12题 a=2ln1.01 ...' (six authored look-ups, rounds 16-27): the index files 2021's paper 乙 as
    新课标I; with the named paper holding nothing that year, the probe's first hit of the same year, number and track
    under another sitting's name is the W1 rung. Deeper in the probe, another track, or a named paper that can hold the
    item: no rung (one that holds the year but not the number: round 57, below)."""
    asked = Scope.from_dict({"subject": "mathematics", "year": 2021, "paper": "Gaokao 全国乙 Mathematics I (science track)",
                             "question_number": 12, "exam_board": "China NCEE (Gaokao)"})
    no_year = {"year": "Gaokao 全国乙 Mathematics I (science track) has no items for year 2021 in the corpus"}
    renamed = "Gaokao 新课标I Mathematics I (science track)"
    top = [hit(renamed, 12, year=2021, subject="mathematics")]
    rung = sibling_rung(asked, no_year, top)
    assert rung is not None and rung.step == W1 and rung.filter.paper == (renamed,)
    assert sibling_rung(asked, no_year, [hit(renamed, 12, year=2021, subject="mathematics", rank=5)]) is None
    other_track = "Gaokao 新课标I Mathematics II (liberal-arts track)"
    assert sibling_rung(asked, no_year, [hit(other_track, 12, year=2021, subject="mathematics")]) is None
    assert sibling_rung(asked, {}, top) is None   # the named paper can hold the item: no rung


def test_another_sittings_paper_of_the_subject_holds_a_number_past_the_named_papers_last():
    """Round 57: "2017 全国II卷 地理 第15题: tamarisk (柽柳) ...": the 新课标II geography paper stops at 14; question 15
    of the 新课标I paper, near the top of the probe, is the W1 rung (the sitting misnamed, never W0)."""
    asked = Scope.from_dict({"subject": "geography", "level": "grade_12", "year": 2017, "paper": "Gaokao 新课标II Geography",
                             "question_number": 15, "exam_board": "China NCEE (Gaokao)"})
    beyond = {"question_number": "question 15 is beyond what the index holds of Gaokao 新课标II Geography (2017)"}
    rung = sibling_rung(asked, beyond, [hit("Gaokao 新课标I Geography", 15, year=2017, subject="geography")])
    assert rung is not None and rung.step == W1
    assert rung.filter.paper == ("Gaokao 新课标I Geography",) and rung.filter.question_number == (15,)
    deep = [hit("Gaokao 新课标I Geography", 15, year=2017, subject="geography", rank=5)]
    assert sibling_rung(asked, beyond, deep) is None   # a renamed sitting only near the top of the probe
