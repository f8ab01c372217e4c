"""Is a result on-topic? Used by the relaxation ladder's sufficiency rule.

Seed 000 (Stage 5): widen when results are insufficient *or off-topic*; when
on-topic results exist but fewer than k_min, do not widen. We call a result
on-topic when it shares at least ``min_overlap`` stemmed content terms with the
gate's topic terms (the query minus its scope words), a deterministic check.

One kind of step is not judged by words: a look-up of the marking material of a
numbered question of a named paper (``chsr.scope.names_marking_of_a_question``).
A mark scheme or worked solution answers its question without repeating its words
("AMC 8 2014 #1 Harry and Terry worked solution": the solution says "H = 8 - 7 = 1"),
so the words would send an exactly identified item up the ladder, labelled relaxed.

A relaxed step whose every result is in another language than the query's cannot be judged by its words:
"初一科学 理化部分 物理变化vs化学变化 判断的选择题" shares no word with the English grade-7 science items it widens to,
and judged by words the ladder climbed on to the Chinese grade-12 papers, which share its words but are five grades
away. Such a step answers instead of a later step whose on-topic results all lie more than ``NEAR_GRADES`` from the
asked level, or that leaves the content type asked for ("高三物理 課本裡 介電常數κ的表": the only textbook is English, and
the Chinese items that share the words are exam items). A nearer same-language answer still wins ("Physik 10. Klasse
... Brennstäbe" -> the German grade-12 items, not the English high-school ones), and where no step finds anything on
topic the ladder ends as before. W0
is never such a step (an unknown foreign paper must not be answered with another
series' items labelled exact), nor is a step that answers only on topic (another year's numbered question).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from chsr.documents import Doc
from chsr.levels import NEAR_GRADES, level_distance
from chsr.scope import Scope, names_marking_of_a_question
from chsr.text import token_set, tokenize


#: A word typed glued to its number ("log5 3", "sin30", "mol2"): the item writes it apart or in LaTeX ("\\log _{5} 3"),
#: so the word alone is a stem too (three letters at least, so "x2" or "h2" add nothing).
_GLUED_NUMBER = re.compile(r"([a-z]{3,})\d+")
#: A Han character: the tokenizer's Chinese stems are such characters and their pairs (``sitting_stems``).
_HAN_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def topic_stems(topic_terms: Iterable[str]) -> set[str]:
    stems: set[str] = set()
    for term in topic_terms:
        for token in tokenize(term):
            stems.add(token)
            if glued := _GLUED_NUMBER.fullmatch(token):
                stems.add(glued.group(1))
    return stems


def sitting_stems(stems: set[str]) -> set[str]:
    """The stems a topical request's exact scope is judged by: single Chinese characters left out where the query has
    longer Chinese words ("2018年全国I卷物理 选修3-3 气体 气缸活塞": the paper's items share 气 and 计 with it, not 气体;
    one character is in almost every Chinese item, so with it every named sitting looked on topic)."""
    if not any(len(s) > 1 and _HAN_CHAR.match(s) for s in stems):
        return stems
    return {s for s in stems if len(s) > 1 or not _HAN_CHAR.match(s)}


def is_on_topic(text: str, stems: set[str], min_overlap: int = 1) -> bool:
    if not stems:
        return True
    return len(stems.intersection(token_set(text))) >= min(min_overlap, len(stems))


#: Words a result must share with the query for another sitting's numbered question to answer (a step marked
#: ``on_topic_only``, services.gate.sittings.numbered_elsewhere): one shared word is chance, not the asked item
#: ("pull up question five from the ... fourth grade science test twenty seventeen": "pull" is in other years'
#: question 5 about magnets; round 27-29 annotators label every such look-up an abstention).
NUMBERED_ELSEWHERE_OVERLAP = 2


def answers_elsewhere(text: str, stems: set[str]) -> bool:
    """Whether ``text`` shares ``NUMBERED_ELSEWHERE_OVERLAP`` of the query's topic stems (never with fewer stems)."""
    return len(stems) >= NUMBERED_ELSEWHERE_OVERLAP and is_on_topic(text, stems, NUMBERED_ELSEWHERE_OVERLAP)


def judged_by_words(step_filter: Scope) -> bool:
    """Whether a step's results must share the query's topic words to count as on-topic."""
    return not names_marking_of_a_question(step_filter)


def exact_item_in_another_language(step_filter: Scope, docs: Sequence[Doc], language: str) -> bool:
    """Whether W0's results are the numbered question of a named paper and year, every one of them in another language
    than the query's: the scope words identify the item, and words cannot judge it ("AMC 12A 2018, problema 7 (la
    versión del 12A, no la del 10A)": the English item shares no word with the Spanish query, and judged by words the
    ladder left the exact item for its solution)."""
    return bool(step_filter.question_number and step_filter.paper and step_filter.year and docs) \
        and not words_can_judge(docs, language)


def words_can_judge(docs: Sequence[Doc], language: str) -> bool:
    """Whether some result is in the query's language (or no language is known), so shared words can judge it."""
    return not language or not docs or any(_in_language(d, language) for d in docs)


def _in_language(doc: Doc, language: str) -> bool:
    """Whether ``doc`` is in ``language`` (a document of no known language counts as being in any)."""
    return doc.metadata.get("language") in (None, "", language)


def _grade_distances(doc: Doc, asked_levels: Sequence[str]) -> list[int]:
    """How many grades ``doc`` lies from each asked level on the grade line (levels off the line left out)."""
    level = str(doc.metadata.get("level") or "")
    return [d for asked in asked_levels if (d := level_distance(asked, level)) is not None]


def near_in_language(docs: Sequence[Doc], stems: set[str], asked_levels: Sequence[str], language: str) -> bool:
    """Whether some on-topic result is in the query's ``language`` and within ``NEAR_GRADES`` grades of an asked level
    (any level when none was asked or none is on the grade line): "MC-Frage Physik Klasse 11 ... Impuls" is answered
    by the German grade-12 items, not by the English high-school ones that share "Energie" and "Masse" with it."""
    for doc in docs:
        if _in_language(doc, language) and is_on_topic(doc.full_text, stems):
            distances = _grade_distances(doc, asked_levels)
            if not distances or min(distances) <= NEAR_GRADES:
                return True
    return False


def drops_asked_kind(answering: Scope, later: Scope, asked: Scope) -> bool:
    """Whether ``later`` leaves the asked content type that ``answering`` still keeps ("高三物理 課本裡 介電常數κ的表":
    the textbook asked for is the English one; the Chinese rung that shares the query's words holds exam items)."""
    kinds = set(asked.content_type)
    return bool(kinds) and bool(kinds & set(answering.content_type)) and not kinds & set(later.content_type)


def far_from_asked(docs: Sequence[Doc], stems: set[str], asked_levels: Sequence[str]) -> bool:
    """Whether every on-topic result lies more than ``NEAR_GRADES`` grades from every asked level (False when no
    level was asked or none of the levels is on the grade line)."""
    distances = [d for doc in docs if is_on_topic(doc.full_text, stems) for d in _grade_distances(doc, asked_levels)]
    return bool(distances) and min(distances) > NEAR_GRADES
