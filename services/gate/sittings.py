"""A sitting after the last year the index holds is not relaxed (issue 21, abstention).

"2030 AMC 12B problem 3 about logarithms": no sitting of 2030 exists in the index, nor anywhere yet. The curriculum
README counts "a year after the corpus ends" among the papers that do not exist: the correct answer is nothing in
scope, and another year's item is leakage. A year the index lacks *within* its span ("2009年新课标卷 ... 第17题",
before its Gaokao papers start; "2023 高考 全国甲卷" when another board runs to 2025) is a relaxation to the nearest
years, as before. So when every asked year is later than the latest year the whole index holds, the ladder is W0
only, and the note says why.
"""

from __future__ import annotations

from dataclasses import replace
from functools import reduce
from math import gcd
from typing import Mapping, Sequence

from chsr.relaxation import W0, W1, step_label
from chsr.scope import Scope
from services.gate.evidence import FieldDecision
from services.gate.evidence_features import EvidenceHit
from services.gate.ladder import LadderStep
from services.gate.vocabulary import Vocabulary


def after_the_index(flt: Scope, vocab: Vocabulary) -> str:
    """The note when every asked year is after the latest year the index holds ('' otherwise, or without a corpus)."""
    latest = vocab.latest_year
    if not flt.year or latest is None or min(flt.year) <= latest:
        return ""
    asked = ", ".join(str(y) for y in flt.year)
    return f"year {asked} is after the latest year the index holds ({latest}): no such sitting to relax to; not relaxed"


#: A series is taken as periodic when the index holds at least this many of its years, all on one cycle.
CYCLE_YEARS = 3


def off_cycle(flt: Scope, vocab: Vocabulary) -> str:
    """The note when every named paper is a periodic series and every asked year falls between its sittings
    ('' otherwise).

    "TIMSS 2009 8th grade science ... chlorophyll": the index holds TIMSS grade 8 in 1995, 2003, 2007 and 2011, every
    year on one four-year cycle; 2009 lies inside that span and off the cycle, so no such sitting was held (not
    merely not indexed). Another cycle's items would be labelled as the paper asked for: like a sitting after the
    index, the ladder is W0 only. A year on the cycle (1999) or outside the span is a relaxation, as before; a series
    with fewer than ``CYCLE_YEARS`` years held, or held in consecutive years, is never taken as periodic."""
    if not flt.paper or not flt.year:
        return ""
    cycles = []
    for name in flt.paper:
        held = _years_held(name, vocab)
        if len(held) < CYCLE_YEARS:
            return ""
        period = reduce(gcd, (b - a for a, b in zip(held, held[1:])))
        if period < 2 or not all(held[0] < y < held[-1] and (y - held[0]) % period for y in flt.year):
            return ""
        cycles.append(f"{name}: every {period} years, held {', '.join(map(str, held))}")
    asked = ", ".join(str(y) for y in flt.year)
    return f"year {asked} falls between the sittings of a periodic series ({'; '.join(cycles)}): no such sitting " \
           "was held; not relaxed"


def numbered_gap(flt: Scope, vocab: Vocabulary) -> str:
    """The note when a numbered item is asked of a year inside the span of years its paper is held, but not held
    ('' otherwise).

    "need 2021 amc 8 problem 17 + answer": the index holds AMC 8 every year from 1999 to 2025 but 2021. A year missing
    inside a series' span is a sitting that was not held (AMC 8 2021 was not) or is not indexed; either way the
    question number names an item of that one sitting, and another year's problem 17 is another problem, labelled
    as the asked one. Like a sitting after the index, the ladder is W0 only. Nine annotators, blind to the gate,
    wrote this look-up as an abstention 17 times. A topical query without a number ("2021 AMC 8 problems on
    probability") still relaxes to the years held, and so does a year before the first or after the last year the
    paper is held ("2009年新课标卷理科数学第17题 解三角形": the dev set relaxes it)."""
    if not flt.question_number or not flt.paper or not flt.year:
        return ""
    spans = []
    for name in flt.paper:
        held = _years_held(name, vocab)
        if len(held) < 2 or not all(held[0] < y < held[-1] and y not in held for y in flt.year):
            return ""
        spans.append(f"{name} is held {held[0]}-{held[-1]}")
    asked = ", ".join(str(y) for y in flt.year)
    numbers = "|".join(str(n) for n in flt.question_number)
    return f"year {asked} is not held although it falls inside the years the paper is ({'; '.join(spans)}): " \
           f"question {numbers} names an item of that one sitting; not relaxed"


def never_sat(flt: Scope, vocab: Vocabulary) -> str:
    """The note when every named paper is a national paper whose years are known and every asked year is before
    its first (or, for a numbered item, after its last), unheld by the index too ('' otherwise).

    "2014年全国III卷理科数学第20题 圆锥曲线": 全国III卷 was first set in 2016, so no 2014 paper III exists, in the
    index or anywhere (curriculum README: a year that was never held is an abstention, and another year's item is
    leakage), however on topic the 2017 paper's question 20 is. Three annotators, blind to the gate, wrote such
    look-ups as abstentions (round 31). A year after the paper's last is a sitting never held only for a numbered
    item ("2021年全国III卷理综物理 第13题 参考答案", round 35: like any numbered look-up of a paper the index lacks,
    dev's st_adv.05); a topical request is still relaxed: the provinces that sat 全国III moved to 全国甲 in 2021 and
    "2021 全国三卷 油膜法" names that sitting loosely (two authored relaxations of round 14 find its items that way). A
    year the paper was set but the index lacks ("2009年新课标卷 ... 第17题") is a relaxation, as before. A numbered item
    of an AMC 10A/10B/12A/12B sitting before 2002, when the A and B sittings began ("2001 AMC 10A problem 15
    solution"), was never set either (``sat_numbered``; a topical "2001 AMC 12 log problems" still relaxes)."""
    if not flt.paper or not flt.year:
        return ""
    said = []
    for name in flt.paper:
        span = vocab.sat_span(name, numbered=bool(flt.question_number))
        if span is None:
            return ""
        variant, first, last = span
        held = set(_years_held(name, vocab))
        if not all((y < first or (y > last and flt.question_number)) and y not in held for y in flt.year):
            return ""
        said.append(f"{variant} was set {first}-{last}")
    asked = ", ".join(str(y) for y in flt.year)
    return f"year {asked} was never sat ({'; '.join(dict.fromkeys(said))}): no such sitting to relax to; not relaxed"


def numbered_elsewhere(ladder: list[LadderStep], scope: Scope) -> list[LadderStep]:
    """The ladder with every step that keeps the asked question number but moves its year marked on-topic-only.

    "pulling #12 off the 2017 NYS grade 4 science test for a bell ringer": the index holds that test up to 2016, and
    the ladder moved the year, kept the number and, finding nothing on topic, answered with question 12 of other
    years (the last step is taken whatever it holds). Another sitting's question 12 is another item; it answers
    only when its words match the query's ("2009年新课标卷理科数学第17题 解三角形": the 2012 paper's question 17 solves
    a triangle, and the dev set relaxes to it). Across the authored sets 22 look-ups of a numbered item in a year
    outside its paper's years are labelled abstentions, and the two labelled relaxations name the topic."""
    if not scope.question_number or not scope.year:
        return ladder
    asked = set(scope.question_number)
    return [replace(step, on_topic_only=True)
            if step.step != W0 and asked & set(step.filter.question_number) and step.filter.year != scope.year
            else step for step in ladder]


#: How many years either side of a named sitting its neighbours lie (dev st_relax.03: 2021 -> 2020-2022).
NEIGHBOUR_YEARS = 1


def neighbouring_sittings(ladder: list[LadderStep], scope: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """The ladder with a rung after W0 for a topical request of a named sitting the index holds: the same board,
    subject, level and kind in the sitting's year and the years either side (``NEIGHBOUR_YEARS``), any paper,
    answering only on topic.

    "2021年全国甲卷理科数学 解三角形解答题": the 2021 paper is held but sets no triangle-solving question, and the curators
    widen to the neighbouring sittings of any national paper (2020-2022; dev's st_relax.03, and three blind annotators
    of round 38 did the same for other papers and years). Before, the ladder either kept the sitting (its items
    shared single characters with the query) or moved its year to every year of the one paper. A numbered item, a
    W0-only ladder, a sitting the index does not hold (its year relaxes within the paper, as before) or a scope
    without a board or subject is left as it is."""
    if len(ladder) < 2 or scope.question_number or not scope.paper or not scope.year or not scope.exam_board \
            or not scope.subject:
        return ladder
    if not any(y in _years_held(name, vocab) for name in scope.paper for y in scope.year):
        return ladder
    lo, hi = min(scope.year) - NEIGHBOUR_YEARS, max(scope.year) + NEIGHBOUR_YEARS
    years = sorted({y for board in scope.exam_board for info in vocab.board_papers(board)
                    if set(info.subject) & set(scope.subject) and (not scope.level or set(info.level) & set(scope.level))
                    for y in info.years if y is not None and lo <= y <= hi})
    if len(years) < 2:
        return ladder
    board = "/".join(scope.exam_board)
    same = LadderStep(W1, replace(scope, paper=(), session=()),
                      f"W1 the same sitting's other papers: {', '.join(map(str, scope.year))}, any {board} paper (the "
                      "named paper holds nothing on topic)", on_topic_only=True)
    window = LadderStep(W1, replace(scope, paper=(), year=tuple(years), session=()),
                        f"W1 the neighbouring sittings: {', '.join(map(str, years))}, any {board} paper (the named "
                        "sitting holds nothing on topic)", on_topic_only=True)
    rungs = [r for r in (same, window) if all(step.filter != r.filter for step in ladder)]
    return [ladder[0], *rungs, *ladder[1:]]


def with_nearest_years(ladder: list[LadderStep], scope: Scope, vocab: Vocabulary,
                       probe: Sequence[EvidenceHit] = ()) -> list[LadderStep]:
    """The ladder with a rung before the first one that drops an asked year the index does not hold: the same scope
    in the nearest years it does hold (both sides), saying what moved (issue 21: "year Y not held for this series;
    nearest years held: ...").

    "VA SOL grade 5 science 2013 - electromagnet question": the index holds that paper for 2007-2011. Dropping the
    year answers from every year of the paper; the nearest scope the index holds is its 2011 sitting. Of the authored
    relaxations that move an asked year, 71 widen to the nearest years and 253 drop the year (as dev's curators do);
    the nearest years' items are inside the wider scope too, so they leak under neither. Where the nearest years hold
    nothing on topic, the ladder goes on to the year dropped, as before. A numbered item is left to
    :func:`numbered_elsewhere` (another year's question of that number is another item), and a year the index holds
    was dropped for another reason (the text was unsure).

    The probe says where an item described by its content is: when its hits inside the widened scope (the lexical
    leg's, else the dense leg's) all lie in other years, the year is wrong rather than absent ("2009 新课标卷 生物
    生态大题：人登岛 牧羊 狐 野兔": the item is in a later year's paper), and no nearest-years rung is added. Without that
    test the rung cost the authored relaxations nDCG@8 0.708 -> 0.671 (leakage 0.056 -> 0.031); with it, 0.706 and
    0.033 (0.708 and 0.039 when the first hit alone decided)."""
    if len(ladder) < 2 or not scope.year or scope.question_number:
        return ladder
    at = next((i for i, step in enumerate(ladder) if i > 0 and not step.filter.year and not step.lexical_only
               and not step.on_topic_only), None)
    if at is None:
        return ladder
    dropped = ladder[at]
    held = vocab.held_years(dropped.filter)
    if not held or set(scope.year) & held:
        return ladder
    years = nearest_years(sorted(held), scope.year)
    relaxed = replace(dropped.filter, year=years)
    if not years or any(step.filter == relaxed for step in ladder):
        return ladder
    if _found_elsewhere(probe, dropped.filter, years):
        return ladder
    where = ", ".join(dropped.filter.paper) or ", ".join(dropped.filter.exam_board) or "/".join(dropped.filter.subject)
    asked = ", ".join(str(y) for y in scope.year)
    rung = LadderStep(dropped.step, relaxed, f"{step_label(dropped.step)} nearest years held: year {asked} not held "
                                             f"for {where or 'the scope'}; nearest held: "
                                             f"{', '.join(str(y) for y in years)}")
    return [*ladder[:at], rung, *ladder[at:]]


#: The probe legs in the order their first hit locates an item: words first (the embedding reads English only).
LOCATING_LEGS: tuple[str, ...] = ("sparse", "dense")


def _found_elsewhere(probe: Sequence[EvidenceHit], flt: Scope, years: tuple[int, ...]) -> bool:
    """Whether the probe finds ``flt``'s material only in years other than ``years``: its hits inside ``flt`` (the
    first leg of ``LOCATING_LEGS`` that has any) lie outside ``years``, all of them. One such hit in ``years`` means
    the nearest years hold the kind of material asked for ("log equation problems from the 2025 AMC 12B": 2024's)."""
    for leg in LOCATING_LEGS:
        inside = [h for h in probe if h.leg == leg and flt.admits(h.metadata)]
        if inside:
            return not any(h.metadata.get("year") in years for h in inside)
    return False


def nearest_years(held: list[int], asked: tuple[int, ...]) -> tuple[int, ...]:
    """The nearest held year below and above each asked year."""
    out: set[int] = set()
    for y in asked:
        below = [h for h in held if h < y]
        above = [h for h in held if h > y]
        out.update(([max(below)] if below else []) + ([min(above)] if above else []))
    return tuple(sorted(out))


def _years_held(paper: str, vocab: Vocabulary) -> list[int]:
    """The years the index holds ``paper`` in, in order ([] for a paper it does not hold)."""
    info = vocab.paper(paper)
    return sorted(info.years) if info is not None else []


def series_not_held(fields: Mapping[str, FieldDecision]) -> str:
    """The note when the query looks up a numbered item of an exam series the index does not hold ('' otherwise).

    "bac S 2018 métropole physique-chimie exercice 2", "KCSE biology paper 2 2017 #19": the stated board is not in
    the corpus (``services.gate.evidence``: its conflict), and the question number names one item of one of its
    papers. No other series holds that item; relaxing drops the board and answers with another series' question
    of the same number, an answer to a question nobody asked (curriculum README: a paper family the corpus does not
    contain is an abstention). So, like a sitting after the index, the ladder is W0 only. A topical query that names
    an absent board ("WAEC chemistry question on electrolysis") still relaxes: the topic is there to find."""
    board, number = fields.get("exam_board"), fields.get("question_number")
    if board is None or number is None or not board.conflict or board.action != "filter":
        return ""
    if number.action != "filter" or number.source == "evidence":
        return ""
    return f"{board.conflict}: question {'|'.join(map(str, number.values))} of one of its papers is in no other " \
           "series; not relaxed"
