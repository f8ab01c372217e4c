"""Generated kinds whose strict scope is empty: relaxation (a year, level or content type the
corpus lacks for the item asked about, or a named series at a grade it does not hold; labels inside
``relaxed_scope``) and abstention (a pure
look-up of a paper, year or item that does not exist; no labels). Conventions in ``query_kinds.py``."""

from __future__ import annotations

import random
from functools import cache
from typing import Callable

from chsr.levels import LEVEL_SPAN, level_distance
from chsr.levels import nearest_levels as _nearest
from services.gate.corpus_vocabulary import GRADE_PAPER
from services.gate.ladder import SCIENCE_DISCIPLINES, widens_to_parent
from services.gate.vocabulary import Vocabulary
from tools.gate import query_forms as qf
from tools.gate import query_text as qt
from tools.gate.corpus_items import CorpusIndex, Item
from tools.gate.query_kinds import (Case, cited as _cited, cue_lang, cue_text, gold, level_known, lookup_text,
                                    make_case, relevant_for, slice_of, topic)


def relax_year(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng, _cited)
    if item is None:
        return None
    years = idx.paper_years[item.meta["paper"]]
    low, high = idx.corpus_years
    missing = [y for y in range(max(low, min(years) - 4), min(high, max(years) + 3) + 1) if y not in years]
    if not missing:
        return None
    year = rng.choice(missing)
    lang = cue_lang(item, rng)
    query = f"{lookup_text(item, lang, rng, year=year, qn=None)} {rng.choice(['', ': ', '- '])}{topic(item, rng)}"
    scope = gold(item, level=True, cite=("year", "paper"))
    scope["year"] = year
    if _never_sat(item.meta["paper"], year):
        # a year before the paper was first set ("2013年全国卷III"): no such sitting anywhere, an abstention
        # (curriculum README), not a relaxation; made from the same draws, so the cases after it stay as they were
        return make_case(kind, query, scope, {}, slice_=slice_of(item, lang), task="adversarial", items=[item.id],
                         empty=True, notes="a year before the paper was first set: never sat, nothing to relax to")
    relaxed = dict(scope, year=None)
    return make_case(kind, query, scope, relevant_for(idx, [item.id], relaxed), slice_=slice_of(item, lang),
                     task="relaxation", items=[item.id], empty=True, relaxed=relaxed)


def _never_sat(paper: str, year: int) -> bool:
    """Whether ``year`` is before ``paper``'s national paper was first set (the vocabulary's ``sat`` years)."""
    span = _vocabulary().sat_span(paper)
    return span is not None and year < span[1]


@cache
def _vocabulary() -> Vocabulary:
    return Vocabulary.load()


def nearest_levels(idx: CorpusIndex, subjects: tuple[str, ...], asked: str, content_type: str) -> list[str]:
    """The levels the corpus holds for ``subjects`` x ``content_type`` nearest to ``asked`` (ties kept)."""
    held = {lv for lv in LEVEL_SPAN for s in subjects if idx.combo_exists(s, lv, content_type)}
    return sorted(_nearest(held, [asked]))


def relax_level(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    """A level the corpus lacks for the item's subject and content type. The curriculum README's relaxation
    target is the *nearest* scope, so a case is made only where the item's own level is (one of) the nearest
    levels held; general science widens to its disciplines, as the gate's ladder does. No case asks for a
    discipline at a grade where general science is held below high school: there the nearest scope is
    general science at that grade (README: "grade 5 physics and chemistry" relaxes to science), which the
    item does not give labels for."""
    item = idx.pick(rng, lambda i: i.source != "ccss")
    if item is None:
        return None
    return level_relaxation(idx, rng, kind, item, phrase=None)


def level_relaxation(idx: CorpusIndex, rng: random.Random, kind: str, item: Item,
                     phrase: Callable[[str, str], str] | None, *, any_content: bool = False) -> Case | None:
    """``relax_level`` for ``item``; ``phrase(lang, level_words)`` writes the query instead of the topical cue form
    (a table request asks "9th grade textbook table of refractive indices"). ``any_content``: ask only for a level
    where the subject has no material of any content type, so a query that does not say which content type it
    wants is still asking for an empty scope (grade 7 maths has standards but no exam items)."""
    m = item.meta
    level = m["level"]
    if level not in LEVEL_SPAN:
        return None
    subjects = (m["subject"], *SCIENCE_DISCIPLINES) if m["subject"] == "science" else (m["subject"],)
    options = [lv for lv in LEVEL_SPAN if lv != level and 0 < level_distance(lv, level) <= 3
               and not any(idx.combo_exists(s, lv, m["content_type"]) for s in subjects)
               and not (any_content and any((s, lv) == (c[0], c[1]) for c in idx.combos for s in subjects))
               and level in nearest_levels(idx, subjects, lv, m["content_type"])
               and not _parent_nearer(idx, m["subject"], lv, m["content_type"])]
    if not options:
        return None
    asked = rng.choice(options)
    lang = cue_lang(item, rng)
    if phrase is None:
        query = cue_text(lang, topic(item, rng), rng, subject=m["subject"], level=asked,
                         content=m["content_type"] if rng.random() < 0.6 else None)
    else:
        lang = "en" if item.lang == "en" else item.lang
        query = phrase(lang, qf.level_phrase(asked, lang, rng))
    scope = gold(item, level=True)
    scope["level"] = asked
    near = nearest_levels(idx, subjects, asked, m["content_type"])
    relaxed = dict(scope, level=near[0] if len(near) == 1 else near)
    if len(subjects) > 1:
        relaxed["subject"] = list(subjects)
    return make_case(kind, query, scope, relevant_for(idx, [item.id], relaxed), slice_=slice_of(item, lang),
                     task="relaxation", items=[item.id], empty=True, relaxed=relaxed)


def _parent_nearer(idx: CorpusIndex, subject: str, level: str, content_type: str) -> bool:
    """The ladder's W1 widens ``subject`` to general science at ``level`` and the corpus holds it there."""
    return subject in SCIENCE_DISCIPLINES and widens_to_parent([level]) and idx.combo_exists("science", level, content_type)


def relax_content(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng, lambda i: i.meta["content_type"] == "exam_question" and not i.marking or i.source == "amc")
    if item is None:
        return None
    m = item.meta
    target = item.id
    if item.source == "amc":
        if not item.marking:
            return None
        target = item.marking[0]
    elif idx.combo_exists(m["subject"], m["level"], "mark_scheme") and rng.random() < 0.7:
        return None
    lang = cue_lang(item, rng)
    phrase = rng.choice(qf.CONTENT["mark_scheme"][lang])
    by_paper = _cited(item) and rng.random() < 0.6
    ref = lookup_text(item, lang, rng, year=m["year"], qn=m["question_number"]) if by_paper else qt.paraphrase(item.stem, rng)
    query = rng.choice([f"{phrase} for {ref}" if lang == "en" else f"{ref} {phrase}", f"{ref} {phrase}"])
    cite = ("year", "paper") + (("question_number",) if by_paper and m["question_number"] else ()) if by_paper else ()
    scope = gold(item, level=level_known(idx, item, False, by_paper), cite=cite, content_type="mark_scheme")
    relaxed = dict(scope, content_type=idx.meta(target)["content_type"])
    return make_case(kind, query, scope, relevant_for(idx, [target], relaxed), slice_="mark_scheme",
                     task="relaxation", items=[item.id], empty=True, relaxed=relaxed)


def _same_colloquial_paper(a: str, b: str) -> bool:
    """Gaokao 新课标III X and Gaokao 全国III X are the same paper to a student (both "全国三卷")."""
    return a.replace("新课标", "全国") == b.replace("新课标", "全国")


def abstain(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    low, high = idx.corpus_years
    roll = rng.random()
    ct = rng.choice(["exam_question", "exam_question", "solution"])
    if roll < 0.3:  # a foreign exam family
        family, subject, phrase = rng.choice(qf.FOREIGN_FAMILIES)
        year, qn = rng.randint(2008, 2023), rng.randint(1, 30)
        query = rng.choice([f"{phrase} {year} question {qn}", f"{year} {phrase} Q{qn}", f"{phrase} {year} #{qn} {ct.replace('_', ' ')}"])
        scope = {"subject": subject, "level": None, "year": year, "session": None, "paper": f"{family}: {phrase}",
                 "content_type": ct, "question_number": qn}
        return make_case(kind, query, scope, {}, slice_="mcq", task="adversarial", items=[], empty=True,
                         notes="paper family not in the corpus")
    item = idx.pick(rng, lambda i: _cited(i) and bool(i.meta.get("question_number")))
    if item is None:
        return None
    m = item.meta
    # a Gaokao paper is asked for by its colloquial name (全国三卷), which also names the paper that ran under
    # the other official name in some years (新课标III vs 全国III): a year either was sat is no abstention
    years = {y for paper, ys in idx.paper_years.items() if _same_colloquial_paper(paper, m["paper"]) for y in ys}
    if roll < 0.75:  # a year the paper was not sat (or after the corpus ends)
        candidates = [y for y in range(low, high + 3) if y not in years]
        year, qn = rng.choice(candidates), m["question_number"]
    else:  # a question number past the paper's last
        year, qn = m["year"], 40 + rng.randint(0, 20)
    lang = cue_lang(item, rng)
    query = lookup_text(item, lang, rng, year=year, qn=qn)
    if ct == "solution":
        query += " " + rng.choice(qf.CONTENT["solution"][lang])
    scope = gold(item, level=True, cite=("year", "paper", "question_number"), content_type=ct)
    scope.update(year=year, question_number=qn)
    return make_case(kind, query, scope, {}, slice_=slice_of(item, lang), task="adversarial", items=[],
                     empty=True, notes="item does not exist")


def relax_series(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    """A named series ("MCAS", "New York State ... test") at a grade it does not hold, about an item of the series
    at one of the nearest grades it holds (ties: both sides, or the side in the asked band). Gold: the absent paper
    (W0 empty); relaxed: the series' papers at the nearest grades, the year kept when they hold it (issue 21,
    failure class 1)."""
    item = idx.pick(rng, lambda i: GRADE_PAPER.match(i.meta.get("paper") or "") is not None and i.lang == "en")
    if item is None:
        return None
    m = item.meta
    match = GRADE_PAPER.match(m["paper"])
    if match is None or not match["n"].isdigit():
        return None
    key = (m["exam_board"], m["subject"], f"{match['pre']}{{n}}{match['post']}")
    held = idx.series_grades.get(key, {})
    own = int(match["n"])
    options = []
    for asked in range(max(1, own - 3), min(12, own + 3) + 1):
        if asked in held:
            continue
        best = min(abs(asked - g) for g in held)
        if abs(asked - own) == best:
            options.append(asked)
    names = _board_names(m["exam_board"])
    if not options or not names:
        return None
    asked = rng.choice(options)
    best = min(abs(asked - g) for g in held)
    nearest = sorted(g for g in held if abs(asked - g) == best)
    papers = [held[g] for g in nearest]
    with_year = rng.random() < 0.5
    year = m["year"] if with_year and all(m["year"] in idx.paper_years.get(p, set()) for p in papers) else None
    level = f"grade_{asked}"
    board = rng.choice(names)
    subj = rng.choice(qf.SUBJECTS["en"][m["subject"]])
    grade = qf.level_phrase(level, "en", rng)
    test = rng.choice(["test", "exam", "assessment", "question", "paper"])
    head = rng.choice([f"{board} {grade} {subj} {test}", f"{grade} {board} {subj} {test}", f"{board} {subj} {grade}"])
    head = f"{head} {year}" if year and rng.random() < 0.5 else (f"{year} {head}" if year else head)
    query = f"{head}{rng.choice([': ', ' - ', ' about ', ' '])}{topic(item, rng)}"
    scope = gold(item, level=True)
    scope.update(level=level, paper=key[2].format(n=asked), year=year)
    relaxed = dict(scope, level=[f"grade_{g}" for g in nearest] if len(nearest) > 1 else f"grade_{nearest[0]}",
                   paper=papers if len(papers) > 1 else papers[0])
    return make_case(kind, query, scope, relevant_for(idx, [item.id], relaxed), slice_=slice_of(item, "en"),
                     task="relaxation", items=[item.id], empty=True, relaxed=relaxed,
                     notes=f"{key[2].format(n=asked)} is not in the corpus; nearest grades held: {nearest}")


def _board_names(board: str) -> list[str]:
    """How a student names ``board``: its names and weak names in the gate's vocabulary (``=X``: written as is)."""
    for entry in _boards():
        if entry["exam_board"] == board:
            names = [*entry.get("names", []), *entry.get("weak_names", [])]
            return [n[1:] if n.startswith("=") else n.upper() if len(n) <= 5 else n.title() for n in names]
    return []


def _boards() -> list[dict]:
    return list(_vocabulary().boards)


def cross_subject_relax(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    """Two subjects asked together at a level the corpus holds neither of (dev's ``cross_subject`` x ``relaxation``
    cell: "9th grade physics + algebra: Ohm's law and rearranging V = IR" -> high school). Two items of two subjects
    at one level, the asked level one to three grades away where neither subject has that content type and the
    items' level is the nearest held for both; general science (which the ladder widens to) is never one of the two,
    and no discipline is asked where general science is held at that grade (there the nearest scope is science,
    which the items give no labels for). ``relaxed_scope``: both subjects at the nearest level."""
    a = idx.pick(rng, lambda i: i.lang == "en" and i.source != "ccss" and i.meta["subject"] != "science")
    if a is None:
        return None
    m = a.meta
    b = idx.pick(rng, lambda i: i.lang == "en" and i.source != "ccss" and i.meta["level"] == m["level"]
                 and i.meta["content_type"] == m["content_type"] and i.meta["subject"] not in (m["subject"], "science"))
    if b is None or m["level"] not in LEVEL_SPAN:
        return None
    subjects = (m["subject"], b.meta["subject"])
    ct = m["content_type"]
    stated_ct = rng.random() < 0.5  # a query without a content type asks for a level holding nothing of either
    options = [lv for lv in LEVEL_SPAN if lv != m["level"] and 0 < level_distance(lv, m["level"]) <= 3
               and not any(idx.combo_exists(s, lv, ct) for s in subjects)
               and (stated_ct or not any((c[0], c[1]) == (s, lv) for c in idx.combos for s in subjects))
               and all(m["level"] in nearest_levels(idx, (s,), lv, ct) for s in subjects)
               and not any(_parent_nearer(idx, s, lv, ct) for s in subjects)]
    if not options:
        return None
    asked = rng.choice(options)
    names = [rng.choice(qf.SUBJECTS["en"][s]) for s in subjects]
    lvl = qf.level_phrase(asked, "en", rng)
    ka, kb = qt.keywords(a.stem, rng), qt.keywords(b.stem, rng)
    query = rng.choice([f"{lvl} {names[0]} + {names[1]}: {ka} and {kb}",
                        f"{ka} ({names[0]}) plus {kb} in {lvl} {names[1]}",
                        f"{lvl} {names[0]} and {names[1]} questions: {ka}; {kb}"])
    if stated_ct:
        what = rng.choice(qf.CONTENT[ct]["en"])
        query = f"{query} ({what})"
    scope = gold(a, level=True, content_type=ct if stated_ct else None)
    scope["subject"], scope["level"] = list(subjects), asked
    relaxed = dict(scope, level=m["level"])
    return make_case(kind, query, scope, relevant_for(idx, [a.id, b.id], relaxed), slice_="cross_subject",
                     task="relaxation", items=[a.id, b.id], empty=True, relaxed=relaxed)
