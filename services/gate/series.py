"""Relaxing within a named series (issue 21).

A query that names an assessment series — an exam board the corpus holds ("MCAS", "NY Regents",
"AMC", "Gaokao") — at a grade or year the corpus does not hold for it asks for something that is
absent, but the series exists at neighbouring grades or years. The honest answer is:

* **W0 is empty** — the board stays in the exact scope (:func:`with_series_board`), so no other
  board's item is ever labelled exact;
* **the next rung relaxes the missing field within the series** (:func:`series_rungs`): the grade to
  the nearest grades the series holds (ties: both sides, unless one side shares the asked grade's band:
  ``chsr.levels.nearest_levels``; the year kept when they hold it, then a second rung at those grades in
  any year), a year the series lacks dropped with the nearest years held named — the rung keeps the board
  and says which field moved and to what;
* **the ladder never leaves the series** (no unfiltered W3 rung while the series holds material), and
  skips its own rungs that ask the series for a grade it does not hold (they can only be empty).

Everything is measured in the corpus layer of the vocabulary (``Vocabulary.paper`` /
``corpus_values``): which papers a board holds, at which levels, in which years.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from chsr.levels import nearest_levels
from chsr.relaxation import W1
from chsr.scope import Scope
from services.gate.ladder import LadderStep
from services.gate.sittings import nearest_years
from services.gate.vocabulary import PaperInfo, Vocabulary, normalise_family_term


#: How a series rung's description starts.
SERIES_RUNG = "W1 relax within the series"


@dataclass(frozen=True)
class SeriesGap:
    """What the named series lacks for the asked scope."""

    boards: tuple[str, ...]
    members: tuple[PaperInfo, ...]       # the series' papers (for the stated subject when it holds one)
    missing: tuple[str, ...]             # "level" and/or "year"
    asked_paper_absent: bool


def held_boards(boards: Iterable[str], vocab: Vocabulary) -> tuple[str, ...]:
    held = vocab.corpus_values("exam_board")
    return tuple(b for b in dict.fromkeys(boards) if b in held)


def series_members(boards: tuple[str, ...], subjects: tuple[str, ...], vocab: Vocabulary) -> tuple[PaperInfo, ...]:
    """The papers of ``boards``; narrowed to ``subjects`` when the series holds one of them."""
    members = [p for board in boards for p in vocab.board_papers(board)]
    narrowed = [m for m in members if set(m.subject) & set(subjects)]
    return tuple({m.name: m for m in narrowed or members}.values())  # a paper of two named boards once


def find_gap(flt: Scope, boards: Iterable[str], vocab: Vocabulary) -> SeriesGap | None:
    """The field(s) the named series lacks for ``flt`` (None: no series named, or nothing missing)."""
    if not vocab.has_corpus:
        return None
    held = held_boards([*flt.exam_board, *boards], vocab)
    if not held:
        return None
    members = series_members(held, flt.subject, vocab)
    if not members:
        return None
    known = [vocab.paper(p) for p in flt.paper]
    asked_absent = bool(flt.paper) and all(i is None for i in known)
    at_level = [m for m in members if not flt.level or set(m.level) & set(flt.level)]
    missing: list[str] = []
    if at_level and asked_absent:
        return None  # an absent paper at a level the series holds is another variant: the paper rules decide
    if not at_level:
        missing.append("level")
    pool = [i for i in known if i is not None] or at_level
    if flt.year and pool and not any(y in m.years for m in pool for y in flt.year):
        missing.append("year")
    if not missing:
        return None
    return SeriesGap(held, members, tuple(missing), asked_absent)


def series_subject(flt: Scope, gap: SeriesGap) -> tuple[Scope, str] | None:
    """The scope with the named series' one subject, and a note, when the scope's subject is one the series does not
    hold (None otherwise).

    "TIMSS 2011 niveau 6e : cuillère en métal vs cuillère en bois dans la soupe chaude": TIMSS is held at grades 4
    and 8, in science only; the French words about heat find physics items, the evidence overruled science, and the
    rungs within the series (TIMSS grades 4 and 8, 2011) kept physics and held nothing. Like a named paper
    (``services.gate.overruled.named_paper_subject``), a named series of one subject carries it."""
    subjects = tuple(dict.fromkeys(s for m in gap.members for s in m.subject))
    if len(subjects) != 1 or not flt.subject or set(flt.subject) & set(subjects):
        return None
    note = (f"subject: the named series {' | '.join(gap.boards)} holds {subjects[0]} only; the evidence's "
            f"{'/'.join(flt.subject)} is not kept beside it")
    return replace(flt, subject=subjects), note


def board_beside_corrected_subject(flt: Scope, boards: Iterable[str], vocab: Vocabulary) -> Scope | None:
    """The exact scope with the named board filtering, when the evidence corrected the text's subject and the board
    holds a paper of the corrected subject at the scope's level and year; None otherwise (decision 61).

    "geography q from the ohio 8th grade achievement test 2011 - which rock forms by deposition + cementation?": the
    Ohio grade-8 paper is science; the evidence moves the subject to science, but a board the text names only ranks,
    so other boards' grade-8 2011 science items came back beside Ohio's. The board and the corrected subject meet in
    one of the board's papers, so the board is what the text asks for."""
    if not vocab.has_corpus or not flt.subject or not flt.level or flt.paper:
        return None
    held = [b for b in held_boards(boards, vocab) if b not in flt.exam_board]
    if not held:
        return None
    papers = [p for board in held for p in vocab.board_papers(board)
              if set(p.subject) & set(flt.subject) and set(p.level) & set(flt.level)
              and (not flt.year or any(y in p.years for y in flt.year))]
    if not papers:
        return None
    return replace(flt, exam_board=tuple(dict.fromkeys([*flt.exam_board, *held])))


def board_keeps_stated_subject(flt: Scope, boards: Iterable[str], stated: tuple[str, ...],
                               vocab: Vocabulary) -> tuple[Scope, str] | None:
    """The exact scope with the text's subject and the named board, and a note, when the evidence overruled the
    text's subject but the board the text names holds papers of the text's subject at the scope's level and none of
    the evidence's; None otherwise (decision 61).

    "Common Core Lehrplan Mathe USA, 3. Klasse: wo steht, dass man die Fläche von so L-förmigen Figuren ausrechnet":
    the German words find German physics items, and the evidence said physics (0.92) against the named maths; the
    Common Core standards the text names are mathematics (and English) at grade 3, never physics."""
    if not vocab.has_corpus or not stated or not flt.subject or set(stated) & set(flt.subject):
        return None
    held = held_boards(boards, vocab)
    if not held:
        return None
    papers = [p for board in held for p in vocab.board_papers(board)
              if not flt.level or set(p.level) & set(flt.level)]
    subjects = {s for p in papers for s in p.subject}
    if not set(stated) <= subjects or set(flt.subject) & subjects:
        return None
    note = (f"subject: the named {', '.join(held)} holds {'/'.join(stated)}, not the evidence's "
            f"{'/'.join(flt.subject)}: the text's subject stands")
    return replace(flt, subject=tuple(stated), exam_board=tuple(dict.fromkeys([*flt.exam_board, *held]))), note


def gap_note(gap: SeriesGap, flt: Scope, ladder: list[LadderStep]) -> str:
    """The answer's note on the gap: relaxed within the series when the ladder has a series rung; otherwise (a
    pure look-up, or a strict scope: W0 only) that it was not, with the nearest years the asked paper is held,
    so no note claims a relaxation nothing made."""
    named = [m.name for m in gap.members if m.name in flt.paper]
    # the named paper(s) when the text names one ("2021全国三卷理数18题": the board holds 2021, that series does not)
    who = " | ".join(named) if named else ", ".join(gap.boards)
    absent = f"{who} holds no material for the asked {' and '.join(gap.missing)}"
    if any(step.description.startswith(SERIES_RUNG) for step in ladder):
        return f"{absent}: relaxed within the series"
    papers = [m for m in gap.members if m.name in flt.paper] or list(gap.members)
    nearest = nearest_years(sorted({y for p in papers for y in p.years}), flt.year) if "year" in gap.missing else ()
    held = f"; nearest years held: {_join(nearest)}" if nearest else ""
    return f"{absent}{held}: not relaxed"


def with_series_board(flt: Scope, gap: SeriesGap | None) -> Scope:
    """The exact scope of a query naming a series: the board filters (W0 is then honestly empty)."""
    if gap is None or set(gap.boards) <= set(flt.exam_board):
        return flt
    return replace(flt, exam_board=tuple(dict.fromkeys([*flt.exam_board, *gap.boards])))


def series_rungs(flt: Scope, gap: SeriesGap) -> list[LadderStep]:
    """The rungs that relax the missing field(s) within the series, nearest first."""
    name = _series_name(gap)
    base = replace(flt, exam_board=tuple(dict.fromkeys([*flt.exam_board, *gap.boards])))
    if "level" in gap.missing:  # another paper's question number names another item
        base = base.without("question_number")
    papers: list[PaperInfo] = [m for m in gap.members if not flt.level or set(m.level) & set(flt.level)]
    moved: list[str] = []
    if "level" in gap.missing:
        papers, levels = _nearest_level(gap.members, flt.level)
        if not papers:
            return []
        base = replace(base, paper=tuple(p.name for p in papers), level=levels)
        grades = ", ".join(_level_text(lv) for lv in levels)
        moved.append(f"{_levels_text(flt.level)} not held for {name}; nearest held: {grades} "
                     f"({', '.join(p.name for p in papers)})")
    elif flt.paper:
        papers = [m for m in gap.members if m.name in flt.paper]
    if not flt.year:
        return [LadderStep(W1, base, SERIES_RUNG + ": " + "; ".join(moved))]
    held_years = sorted({y for p in papers for y in p.years})
    if any(y in held_years for y in flt.year):
        kept = LadderStep(W1, base, SERIES_RUNG + ": " + "; ".join(moved + [f"year {_join(flt.year)} kept"]))
        if "level" not in gap.missing:
            return [kept]
        # the nearest grades' paper of that year may not hold the topic: then the same grades in any year, before
        # the ladder's own rungs (which, at a grade the series lacks, can only come back empty)
        return [kept, LadderStep(W1, replace(base, year=()), SERIES_RUNG + ": " + "; ".join(
            moved + [f"year {_join(flt.year)} dropped (no on-topic result in that year's paper)"]))]
    nearest = nearest_years(held_years, flt.year)
    year_text = f"year {_join(flt.year)} not held for {', '.join(p.name for p in papers) if base.paper else name}"
    # the year is dropped here and the nearest held years only named: the ladder's own nearest-years rung, which
    # comes before this one unless the probe finds the item only in other years, asks for them
    # (services.gate.sittings.with_nearest_years)
    return [LadderStep(W1, replace(base, year=()), SERIES_RUNG + ": " + "; ".join(
        moved + [f"{year_text}; nearest years held: {_join(nearest)}; year dropped"]))]


def _nearest_level(members: tuple[PaperInfo, ...], levels: tuple[str, ...]) -> tuple[list[PaperInfo], tuple[str, ...]]:
    """The series' levels nearest the asked ones (ties: both sides, or the side in the asked band) and the
    papers held there."""
    held = nearest_levels({lv for m in members for lv in m.level}, levels)
    return [m for m in members if set(m.level) & set(held)], held


def _series_name(gap: SeriesGap) -> str:
    subjects = sorted({s for m in gap.members for s in m.subject})
    return f"{', '.join(gap.boards)} {'/'.join(subjects)}".strip()


def _level_text(level: str) -> str:
    return f"grade {level.removeprefix('grade_')}" if level.startswith("grade_") else level


def _levels_text(levels: tuple[str, ...]) -> str:
    return "|".join(_level_text(lv) for lv in levels)


def _join(values: Iterable[object]) -> str:
    return ", ".join(str(v) for v in values)


def within_named_boards(steps: list[LadderStep], boards: Iterable[str], vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` without the unfiltered rung when the text names a board the corpus holds (decision 61).

    "gaokao history multiple choice with a small table: ... zhuangyuan ... Henan vs Jiangsu ... 2015 maybe?": the
    English words share none with the Chinese items of the asked scope, every rung was off topic, and the unfiltered
    rung answered with MMLU and AMC items. A named series is never left for the whole index: the last filtered rung
    answers, labelled, as :func:`with_series_rungs` does when the series lacks a field."""
    if len(steps) < 3 or not held_boards(boards, vocab):
        return steps
    kept = [s for s in steps if not s.lexical_only]
    return kept if len(kept) >= 2 else steps


def within_parent_board(steps: list[LadderStep], flt: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` kept within the board that the asked family is part of, and without the unfiltered rung.

    "2022年北京高考数学 数列大题": the Beijing paper (``exam_families.within``) is not in the index, so the exact scope
    is empty and the ladder drops the board; without this rule the relaxed answer held AMC 12 2022 items beside the
    national papers. The nearest scope the index holds is the Gaokao's own papers of that year: every rung that drops
    the family keeps its board, labelled."""
    boards = (vocab.family_boards.get(normalise_family_term(b)) for b in flt.exam_board)
    parents = tuple(dict.fromkeys(p for p in boards if p))
    if not parents or len(steps) < 2:
        return steps
    out = [steps[0]]
    for step in steps[1:]:
        if step.lexical_only:
            continue
        if not step.filter.exam_board:
            step = replace(step, filter=replace(step.filter, exam_board=parents),
                           description=f"{step.description}; within {', '.join(parents)} "
                                       f"({', '.join(flt.exam_board)} is part of it)")
        if all(s.filter != step.filter for s in out):
            out.append(step)
    return out


def with_series_rungs(steps: list[LadderStep], flt: Scope, gap: SeriesGap | None) -> list[LadderStep]:
    """``steps`` with the series rungs right after W0 and no unfiltered rung (the answer stays in the series)."""
    if gap is None or len(steps) < 2:
        return steps
    rungs = series_rungs(flt, gap)
    if not rungs:
        return steps
    absent = _absent_levels(flt, gap)
    out = [steps[0]]
    for step in [*rungs, *steps[1:]]:
        if step.lexical_only or any(s.filter == step.filter for s in out):
            continue
        if absent and set(gap.boards) <= set(step.filter.exam_board) and step.filter.level \
                and set(step.filter.level) <= absent:
            continue  # the series at grades it does not hold: certainly empty
        out.append(step)
    return out


def _absent_levels(flt: Scope, gap: SeriesGap) -> set[str]:
    """The asked levels the series holds no paper at (empty unless the level is what it lacks)."""
    if "level" not in gap.missing:
        return set()
    held = {lv for m in gap.members for lv in m.level}
    return {lv for lv in flt.level if lv not in held}
