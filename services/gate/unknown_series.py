"""An exam series the query names but the index does not know (issue 21, bad input).

"KCSE biology paper 2 2017 #19", "Abitur Physik 2013 Aufgabe 8", "Hogwarts 2019 physics paper 1 question 3":
a look-up of one item of a named series that no board, paper or alias of the vocabulary or the corpus knows.
Without this the name is simply not understood, the scope keeps subject + year + number, and the ladder
answers with another board's item — an answer to a question nobody asked. With it, the name becomes the
scope's ``exam_board`` (a value the corpus does not hold), so the gate says "exam_board KCSE is not in the
corpus" and nothing is presented as that item, the same way a known absent board (WAEC, AQA) is treated.

A *look-up* names a series in this sense: the query carries a question number, or a year and a "paper N".
So does a *dated* topical query ("Singapore PSLE science 2015 question on plants", "2018年北京卷历史 ... 那道选择题":
a year names a sitting of the series). A topical query that mentions a family without a year ("A-level question on
moments") keeps its level hint.
The name is one of:

* an **exam family term** of the vocabulary (``exam_families``: GCSE, A level, Abitur, bac, 北京卷, ...): words the
  level extractor reads as a level hint, which in a look-up or a dated query name the family itself;
* an **acronym** (2-6 capitals) next to the subject, year, level, content type or question number, or right
  before a paper word, or at the start;
* a **capitalised word at the start** of a query that also says "paper N".

A candidate that is a stopword, a generic paper word, in ``exam_families.not_series`` (US, UK, DNA, ...) or
a word of any board, alias or paper name the vocabulary or the corpus knows (for a capitalised word: close to
one, since a typo of a known series is not an unknown series) is not a series name.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from typing import Iterable

from services.gate.lexicon import SpanText
from services.gate.vocabulary import Vocabulary, normalise_family_term

#: Confidence of the named-but-unknown series as the scope's exam board: a hard constraint (>= 0.7).
UNKNOWN_SERIES = 0.85
#: How close (difflib ratio) a candidate may come to a known series word before it counts as that word.
NEAR_KNOWN = 0.75
_ACRONYM = re.compile(r"[A-Z]{2,6}")
_TITLE_WORD = re.compile(r"[A-Z][a-z\u00c0-\u024f]{2,}")
_PAPER_N = re.compile(r"(?<![a-z])(?:paper|prüfung|épreuve|examen|sujet)\s*(?:no\.?\s*)?\d{1,2}(?![0-9])", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w\-]*", re.UNICODE)
_PAPER_WORD_AFTER = re.compile(r"\s*(?:paper|exam|test)\b", re.IGNORECASE)
#: Claims after which (or before which) a series name stands: "KCSE biology", "Abitur 2013", "WASSCE grade 12".
_ANCHORS = {"year", "subject", "level", "content_type", "question_number"}


def unknown_series(st: SpanText, vocab: Vocabulary, *, has_question: bool, has_year: bool) -> tuple[str, str] | None:
    """(series name, evidence) when the query looks up an item of a series no vocabulary or corpus name matches.
    A name found among the unclaimed words is claimed (label ``exam_board``): it is not a topic term."""
    paper_n = bool(_PAPER_N.search(st.text))
    look_up = has_question or (has_year and paper_n)
    if not (look_up or has_year):
        return None
    family = _family_term(st, vocab)
    if family:
        return family, f"{family!r} names an exam family (in a dated query or a look-up: the series, not only a level)"
    claims = sorted(st.claims)
    remaining = st.remaining()
    for match in _WORD.finditer(remaining):
        word, start, end = match.group(), match.start(), match.end()
        if not _is_candidate(word, start, paper_n, remaining):
            continue
        if not look_up and not _ACRONYM.fullmatch(word):
            continue  # a dated topical query: only an acronym names a sitting ("2015 PSLE science question ...")
        if not _anchored(start, end, claims, st.text):
            continue
        if _known_word(word, vocab):
            continue
        st.claim(start, end, "exam_board")
        return word, f"{word!r} reads as the name of an exam series (no board, alias or paper of the index)"
    return None


def family_within(st: SpanText, vocab: Vocabulary, boards: Iterable[str], *, has_question: bool,
                  has_year: bool) -> tuple[str, str] | None:
    """(family name, evidence) when a dated query or a look-up names, beside a board the corpus holds, a family that
    is part of that board and that the corpus lacks: "2022年北京高考数学 数列大题", "2019 北京卷 高考 物理 第20题".
    The Gaokao is named, but the paper asked for is Beijing's, which the index does not hold: the family is the
    series asked for (the scope as asked is empty), and a relaxation stays within the board (``within_parent_board``
    in ``services.gate.series``)."""
    if not (has_question or has_year):
        return None
    family = _family_term(st, vocab)
    parent = vocab.family_boards.get(normalise_family_term(family)) if family else None
    if parent is None or parent not in set(boards):
        return None
    return family, f"{family!r} names a paper of {parent} the index lacks"


def _family_term(st: SpanText, vocab: Vocabulary) -> str | None:
    for start, end, label in st.claims:
        if label == "level" and normalise_family_term(st.text[start:end]) in vocab.exam_family_terms:
            return st.text[start:end]
    return None


def _is_candidate(word: str, start: int, paper_n: bool, remaining: str) -> bool:
    if _ACRONYM.fullmatch(word):
        return True
    first = not remaining[:start].strip()
    return bool(paper_n and first and _TITLE_WORD.fullmatch(word))


def _anchored(start: int, end: int, claims: Iterable[tuple[int, int, str]], text: str) -> bool:
    """At the start of the query, or next to a year / subject / level / content-type / number claim or a paper
    word, with only spaces between."""
    if not text[:start].strip():
        return True
    if _PAPER_WORD_AFTER.match(text, end):
        return True
    for c_start, c_end, label in claims:
        if label not in _ANCHORS:
            continue
        if c_start >= end and not text[end:c_start].strip():
            return True
        if c_end <= start and not text[c_end:start].strip():
            return True
    return False


def _known_word(word: str, vocab: Vocabulary) -> bool:
    """An acronym must match a known word exactly (KCSE is not IGCSE); a longer word may be a typo of one."""
    low = word.lower()
    if low in vocab.stopwords or low in vocab.series_stop_words or low in vocab.series_name_words:
        return True
    if _ACRONYM.fullmatch(word):
        return False
    return bool(get_close_matches(low, vocab.series_typo_targets, n=1, cutoff=NEAR_KNOWN))

