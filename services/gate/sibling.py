"""A numbered question named under the wrong subject of a real sitting (issue 21, adversarial).

"2020年新课标I卷 化学 第11题 运-20 重型运输机 升力": the student names the 2020 新课标I chemistry paper, but its
question 11 is a physics question (the chemistry paper the index holds stops at question 5; the words are about
an aircraft's lift). The named paper cannot hold the item — the question number is beyond it, or the paper was
not set that year — while the probe (the query's words, unfiltered) finds a question with that number, in that
year, of the same board's sitting under another subject. Then the item is almost certainly that one, and the
text's subject is the mistake (curriculum README: "the gold scope holds the true value").

:func:`sibling_rung` makes that a W1 rung right after W0: the sibling paper (and its subject), the same year and
number, saying what it replaced. It needs a hit the probe ranks in its top ``SIBLING_DEPTH`` of a leg; a look-up
without topic words keeps its W0-only ladder (nothing but the number would tie the item to the query).

The named paper may hold a question with that number too ("2018 全国3卷 生物 第8题 硫代硫酸钠 ...": the biology
paper has a question 8, about something else). When the evidence overrules the text's subject, and the probe ranks
the sibling's item (same sitting, year and number, in the evidence's subject) above the named paper's, the text's
subject is the mistake and :func:`corrected_sitting` moves the exact scope to the sibling paper: W0, as for any
wrongly named subject (curriculum README: the gold scope holds the true value). Without a question number the same
holds for the sitting's year ("2018全国二卷 理综化学 垂体切除法 幼龄大鼠 ... 答案": the biology paper's item). Where
the evidence kept the text's subject, a sibling item near the top of the probe corrects it only while the probe holds
nothing of the named paper: no item with the asked number, or, unnumbered, no item of that year in its top
``SIBLING_DEPTH`` ("2019全国II卷物理 嫦娥四号中继星鹊桥 ... 求r近似值": the mathematics paper's item, decision 54).
"""

from __future__ import annotations

import re

from dataclasses import replace
from typing import Mapping, Sequence

from chsr.relaxation import W1
from chsr.scope import Scope
from services.gate.evidence import FieldDecision
from services.gate.evidence_features import EvidenceHit
from services.gate.ladder import LadderStep

#: How deep in a leg's probe list a sibling item may be and still be taken as the one the query means.
SIBLING_DEPTH = 10
#: Without an overruled subject: how near the top the sibling's numbered item must be, and how likely the evidence
#: must find its subject (a candidate, not the decision).
NEAR_TOP = 3
CANDIDATE_P = 0.1
#: The unsatisfiable fields (``Vocabulary.unsatisfiable``) that show the named paper cannot hold the item.
EMPTY_BECAUSE = ("question_number", "year")


def sibling_rung(flt: Scope, unsatisfiable: Mapping[str, str], probe: Sequence[EvidenceHit],
                 aliases: Mapping[str, str] | None = None) -> LadderStep | None:
    """The W1 rung to the sibling paper of the same sitting that holds the numbered item, or None.
    ``aliases``: ``Vocabulary.sitting_aliases`` (one sitting filed under two names)."""
    if not flt.paper or not flt.question_number or not any(k in unsatisfiable for k in EMPTY_BECAUSE):
        return None
    for hit in sorted(probe, key=lambda h: h.rank):
        if hit.rank > SIBLING_DEPTH:
            break
        meta = hit.metadata
        paper = meta.get("paper")
        if not paper or paper in flt.paper or meta.get("question_number") not in flt.question_number:
            continue
        if flt.year and meta.get("year") not in flt.year:
            continue
        if flt.exam_board and meta.get("exam_board") not in flt.exam_board:
            continue
        if flt.content_type and meta.get("content_type") not in flt.content_type:
            continue
        renamed = hit.rank <= NEAR_TOP and any(_renamed(paper, asked) for asked in flt.paper)
        if not renamed and not any(_same_sitting(paper, asked, aliases) for asked in flt.paper):
            continue
        subject = meta.get("subject")
        relaxed = replace(flt, paper=(paper,), subject=(subject,) if subject and flt.subject else flt.subject)
        why = "; ".join(unsatisfiable[k] for k in EMPTY_BECAUSE if k in unsatisfiable)
        year = f" ({meta['year']})" if meta.get("year") else ""
        return LadderStep(W1, relaxed, f"W1 the named paper cannot hold the item ({why}); question "
                                       f"{meta.get('question_number')} of {paper}{year} matches the query's words: "
                                       f"paper {'|'.join(flt.paper)} -> {paper}")
    return None


def corrected_sitting(flt: Scope, subject: FieldDecision | None, probe: Sequence[EvidenceHit],
                      aliases: Mapping[str, str] | None = None, written: str | None = None) -> tuple[Scope, str] | None:
    """The exact scope on the sibling paper, and a note saying why, when the evidence overruled the text's subject
    and the probe ranks the sibling's numbered item above the named paper's, or when the lexical probe's first hit
    is the sibling's item by a wide margin (``dominant_sibling``); None otherwise.

    ``written``: the language the query's own words (the text less its scope words) are written in (None where
    they hold Chinese: "天琴计划 satellite ..." names the item in the items' own words). Where none of the sitting's
    items of that year is in it, the words cannot pick one item over another, and the text's paper stands
    ("参考答案 / Erwartungshorizont zur Gaokao-Physik 2016 全国I卷 Nr. 14: Luftblase steigt aus 10 m Tiefe auf,
    Δp = 2σ/r": only the formula's letters reach the Chinese items, and they ranked the maths paper's question 14
    first; round 45)."""
    if subject is None or not flt.paper or not flt.year:
        return None
    if not _words_reach([h for h in probe if _same_item(h, flt)], written):
        return None
    dominant = dominant_sibling(flt, probe, aliases)
    if dominant is not None:
        return dominant
    ranked = sorted(probe, key=lambda h: h.rank)
    named = [h.rank for h in ranked if h.metadata.get("paper") in flt.paper and _same_item(h, flt)]
    # without the evidence overruling the text's subject, only a sibling item the probe ranks near the top, while
    # the named item is nowhere in it (unnumbered: no item of the named paper that year in its top SIBLING_DEPTH),
    # and whose subject the evidence counts as a candidate
    if subject.conflict:
        depth = SIBLING_DEPTH
    elif flt.question_number:
        depth = 0 if named else NEAR_TOP
    else:
        depth = 0 if any(rank <= SIBLING_DEPTH for rank in named) else NEAR_TOP
    counted = subject.values if subject.conflict else tuple(v for v, p in subject.candidates if p >= CANDIDATE_P)
    for hit in ranked:
        if hit.rank > depth or (named and named[0] <= hit.rank):
            return None
        paper, found = hit.metadata.get("paper"), hit.metadata.get("subject")
        if not paper or paper in flt.paper or not _same_item(hit, flt) or found not in counted:
            continue
        if not any(_same_sitting(paper, asked, aliases) for asked in flt.paper):
            continue
        item = f"question {hit.metadata.get('question_number')} of " if flt.question_number else ""
        note = (f"paper: the text names {' | '.join(flt.paper)}, but {item}{paper} ({hit.metadata.get('year')}) matches the "
                f"query's words: the text's subject is corrected")
        return replace(flt, paper=(paper,), subject=(found,)), note
    return None


#: How many times the named paper's best lexical score the sibling's first-ranked item must score to be taken as
#: the item meant without the evidence overruling the subject.
DOMINANT_RATIO = 2.0


def dominant_sibling(flt: Scope, probe: Sequence[EvidenceHit],
                     aliases: Mapping[str, str] | None = None) -> tuple[Scope, str] | None:
    """The exact scope on the sibling paper when the lexical probe's first hit is an item of the asked sitting and
    year (and number, where one is asked) under another subject, scoring at least ``DOMINANT_RATIO`` times the named
    paper's best hit (or, when the list holds none of it, its last hit); None otherwise.

    "2016年全国II卷 化学 实验大题：BTB 酸碱指示剂、NaHCO3、水草、试管离日光灯不同距离": the 2016 paper II biology question
    scores 49.5 and the chemistry paper's best 21.1; its words are the biology item's, and "化学" is the student's
    mistake (理综 holds physics, chemistry and biology in one sitting). Where the evidence did not overrule the text's
    subject and the named paper's item ranked in the probe, nothing else moved the scope (eleven authored
    adversarial cases of this shape, rounds 13-32)."""
    lexical = sorted((h for h in probe if h.leg == "sparse"), key=lambda h: h.rank)
    if not lexical or lexical[0].rank != 1:
        return None
    top = lexical[0]
    paper = top.metadata.get("paper")
    if not paper or paper in flt.paper or not _same_item(top, flt):
        return None
    if not any(_same_sitting(paper, asked, aliases) for asked in flt.paper):
        return None
    named = [h.score for h in lexical if h.metadata.get("paper") in flt.paper]
    floor = max(named) if named else lexical[-1].score
    if floor <= 0 or top.score < DOMINANT_RATIO * floor:
        return None
    found = top.metadata.get("subject")
    note = (f"paper: the text names {' | '.join(flt.paper)}, but {paper} ({top.metadata.get('year')}) matches the "
            f"query's words far better (lexical score {top.score:.1f} vs {floor:.1f}): the text's subject is corrected")
    return replace(flt, paper=(paper,), subject=(found,) if found else flt.subject), note


def _words_reach(hits: Sequence[EvidenceHit], written: str | None) -> bool:
    """Whether words in the ``written`` language can reach some of ``hits`` (any can when it is None; a hit of no
    known language counts as being in any)."""
    return not written or any(h.metadata.get("language") in (None, "", written) for h in hits)


def _same_item(hit: EvidenceHit, flt: Scope) -> bool:
    """The hit is the asked item's year (and number, where one is asked)."""
    number = not flt.question_number or hit.metadata.get("question_number") in flt.question_number
    return number and hit.metadata.get("year") in flt.year


def with_sibling_rung(steps: list[LadderStep], rung: LadderStep | None) -> list[LadderStep]:
    """``steps`` with ``rung`` right after W0 (a W0-only ladder, strict or a pure look-up, is left as it is)."""
    if rung is None or len(steps) < 2 or any(s.filter == rung.filter for s in steps):
        return steps
    return [steps[0], rung, *steps[1:]]


def _renamed(paper: str, asked: str) -> bool:
    """The same paper under another sitting's name: the names differ in one word only, not the first or the last
    ("Gaokao 全国乙 Mathematics I (science track)" and "Gaokao 新课标I Mathematics I (science track)").

    The index files the 2021 national paper 乙 as 新课标I (the 2021 新课标I papers are the 乙 papers, under the
    numbering of the years before). "2021全国乙卷理数12题 a=2ln1.01 ...": 全国乙 holds nothing in 2021, and the probe's
    first hits are question 12 of the 2021 新课标I science paper, the item six blind annotators labelled for such
    look-ups. :func:`sibling_rung` takes such a hit only near the top of the probe (``NEAR_TOP``), only when the named
    paper cannot hold the item (nothing in the asked year, or the number is past its last: "2017 全国II卷 地理 第15题:
    tamarisk (柽柳) ...", question 15 of the 新课标I paper; round 57), and as a labelled W1 rung, never W0."""
    a, b = paper.split(), asked.split()
    if len(a) != len(b) or len(a) < 3:
        return False
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(differ) == 1 and 0 < differ[0] < len(a) - 1


def _same_sitting(paper: str, asked: str, aliases: Mapping[str, str] | None = None) -> bool:
    """Two papers of one sitting: their names share every word but the subject's ("Gaokao 新课标I Chemistry" and
    "Gaokao 新课标I Physics"): the same first words, at least two, up to where either name's last word starts. A word
    ``aliases`` names as one sitting's counts as the same ("Gaokao 全国III Mathematics I ..." and "Gaokao 新课标III
    Biology")."""
    aliases = aliases or {}
    a, b = ([aliases.get(w, w) for w in name.split()] for name in (paper, asked))
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared >= 2 and shared >= min(len(a), len(b)) - 1


#: A stated number is corrected only for a query that quotes the problem: at least this many topic terms.
QUOTED_TERMS = 5
#: Topic terms enough to name the item when the stated number is past the paper's last (a printed 理综 / 文综 number).
BEYOND_TERMS = 1


#: Words that make a stated number a guess: after it ("#13 i think?", "problem 10 or so") or before it ("maybe Q5",
#: "好像是第5题").
_HEDGE_AFTER = re.compile(r"^[\s,.)]{0,3}(?:i\s+think|i\s+believe|i\s+guess|or\s+so|maybe|probably|not\s+sure|吧|好像|大概)",
                          re.IGNORECASE)
_HEDGE_BEFORE = re.compile(r"(?:maybe|around|about|approx\.?|roughly|probably|i\s+think\s+it'?s|好像是?|大概是?|应该是|可能是)"
                           r"[\s:]*$", re.IGNORECASE)


def hedged_number(text: str, evidence: str) -> bool:
    """Does the text hedge the question number it states (``evidence``: the matched number phrase)?"""
    at = text.find(evidence) if evidence else -1
    if at < 0:
        return False
    return bool(_HEDGE_AFTER.search(text[at + len(evidence):at + len(evidence) + 16])
                or _HEDGE_BEFORE.search(text[max(0, at - 16):at]))


def corrected_number(flt: Scope, probe: Sequence[EvidenceHit], topic_terms: Sequence[str], *,
                     beyond: bool = False, written: str | None = None) -> tuple[Scope, str] | None:
    """The exact scope with the named paper's item the query's words find, and a note, when the stated number names
    an item the probe does not find; None otherwise (decision 57).

    "2024 AMC 12A prob 5 - least n so that n! is a multiple of 2024" (it is problem 4 of the 12A, problem 5 of the
    10A twin), "2017全国一卷理综24题 飞船 8.00×10^4kg 进入大气层 ..." (the combined paper's number 24; the index numbers
    that physics item 11): the student quotes the problem and misnumbers it. When the query quotes enough of the
    problem (``QUOTED_TERMS`` topic terms), one number is stated, the probe ranks an item of the named paper and year
    with another number in a leg's top ``NEAR_TOP``, and no item of the named paper and year with the stated number
    in its top ``SIBLING_DEPTH``, the words identify the item better than the number: the number is corrected.

    ``beyond``: the stated number is past the last the index holds of the paper, or the text hedges it ("#13 i
    think?", "problem 10 or so"); either way it may not be the index's number ("2018 全国二卷 理综 生物 29题
    (垂体切除 大鼠 体重那道)": the combined paper's number; biology holds questions up to 11). That number cannot
    be the index's, so one topic term (``BEYOND_TERMS``) is enough for the words to name the item (decision 61).

    ``written``: as for :func:`corrected_sitting`: words in a language none of the paper's items is in do not
    name an item ("2022 全国乙卷 理科数学 第19题: tabela da área da secção da raiz ..." stays question 19; round 48)."""
    needed = BEYOND_TERMS if beyond else QUOTED_TERMS
    if len(flt.question_number) != 1 or not flt.paper or not flt.year or len(topic_terms) < needed:
        return None
    same = [h for h in sorted(probe, key=lambda h: h.rank)
            if h.metadata.get("paper") in flt.paper and h.metadata.get("year") in flt.year
            and h.metadata.get("question_number") is not None]
    if any(h.metadata.get("question_number") in flt.question_number and h.rank <= SIBLING_DEPTH for h in same):
        return None
    if not _words_reach(same, written):
        return None
    top = [h for h in same if h.rank <= NEAR_TOP]
    if not top:
        return None
    number = top[0].metadata.get("question_number")
    note = (f"question_number: the text says {flt.question_number[0]}, but question {number} of "
            f"{top[0].metadata.get('paper')} ({top[0].metadata.get('year')}) matches the query's words: the number is "
            "corrected")
    return replace(flt, question_number=(number,)), note


def with_beyond_rung(steps: list[LadderStep], flt: Scope, unsatisfiable: Mapping[str, str],
                     topic_terms: Sequence[str]) -> list[LadderStep]:
    """``steps`` with a W1 rung holding the named paper's items without the asked number, after the last rung that
    keeps the number, where that number is past the last the index holds of the paper and the query has words to
    find the item by (``BEYOND_TERMS``); unchanged otherwise (a pure look-up, a number held). The caller leaves a
    strict scope (the client's, or a sitting after the index) as it is.

    "2018 national paper I physics (理综 Q24 I think) - fireworks shell ... need the mark scheme", "gaokao 2018
    全国1卷 理综 física, el problema 24 del 烟花弹": the student quotes the combined booklet's number; the index numbers
    that physics item 11 and holds physics questions up to 11. Where the probe finds the item
    (:func:`corrected_number`) the number is corrected; where it does not (an English or Spanish query about a
    Chinese item), the exact scope kept the number and came back empty. The named paper, year and kind are still
    where the item is: the rung answers with them, labelled, the note saying the number is past the paper's last.
    Round 21's annotators wrote four such cases, blind to the gate; the text-only path already drops such a number
    at W1 (``logic.run_gate``)."""
    reason = unsatisfiable.get("question_number")
    if not reason or not flt.paper or not flt.question_number or len(topic_terms) < BEYOND_TERMS:
        return steps
    rung = LadderStep(W1, replace(flt, question_number=()),
                      f"W1 {reason}: the named paper's items, without the number")
    if any(s.filter == rung.filter for s in steps):
        return steps
    at = max(i for i, s in enumerate(steps) if s.filter.question_number == flt.question_number or i == 0) + 1
    return steps[:at] + [rung] + steps[at:]
