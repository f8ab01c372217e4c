"""Recognise the corpus's own paper names in a query ("recognise paper names from a corpus").

A known paper matches when every word of its name occurs in the query, except:

* generic paper words (paper, épreuve, 试卷 ...; ``paper_names.optional``);
* words naming the paper's own subject when that subject was extracted
  ("épreuve de physique 1" matches "Northfield Physics Paper 1");
* level modifiers (advanced, higher ...; ``paper_names.level_words``) when the
  query's level is the paper's level ("grade 12 Northfield physics paper 1" ->
  "Northfield Advanced Physics Paper 1").

Words inside a question number or a year never count ("question 2" does not
select "Paper 2"). When several names match, a name whose words are a subset of
another's is dropped (the most specific wins). A query that names a sibling
number the corpus lacks ("Physics Paper 3") gets that paper's name, so the exact
scope is honestly empty (curriculum README, abstention cases).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from services.gate.lexicon import SpanText
from services.gate.vocabulary import Vocabulary

_TOKEN = re.compile(r"[0-9a-z\u00c0-\u024f]+|[\u3400-\u9fff]+")
_NUMBERED = re.compile(r"(\w+) (\d+)$")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th|e|er|ème|eme|º|°)$")


def tokens(text: str) -> set[str]:
    out: set[str] = set()
    for token in _TOKEN.findall(text.lower()):
        out.add(token)
        if (match := _ORDINAL.match(token)) is not None:
            out.add(match.group(1))
    return out


def _unnumbered(st: SpanText) -> str:
    """The lower-cased query with question-number and year spans blanked."""
    chars = list(st.low)
    for start, end, label in st.claims:
        if label in ("question_number", "year"):
            chars[start:end] = " " * (end - start)
    return "".join(chars)


def query_tokens(st: SpanText) -> set[str]:
    """Tokens of the query outside question-number and year spans."""
    return tokens(_unnumbered(st))


@dataclass(frozen=True)
class _Paper:
    name: str
    words: frozenset[str]
    subjects: tuple[str, ...]
    levels: tuple[str, ...]
    numbered: tuple[str, str] | None  # ("paper", "1") for "... Paper 1"


@dataclass(frozen=True)
class _Index:
    papers: tuple[_Paper, ...]
    by_token: dict[str, tuple[int, ...]]


@lru_cache(maxsize=8)
def _index(vocab: Vocabulary) -> _Index:
    """Paper names tokenised once, with an inverted index token -> papers."""
    papers = []
    by_token: dict[str, list[int]] = {}
    for name, info in vocab.corpus.get("papers", {}).items():
        match = _NUMBERED.search(name)
        numbered = (match.group(1).lower(), match.group(2)) if match else None
        paper = _Paper(name, frozenset(tokens(name)), tuple(info["subject"]), tuple(info["level"]), numbered)
        for token in paper.words:
            by_token.setdefault(token, []).append(len(papers))
        papers.append(paper)
    return _Index(tuple(papers), {t: tuple(ix) for t, ix in by_token.items()})


def _candidates(index: _Index, query: set[str]) -> list[_Paper]:
    seen = sorted({i for t in query for i in index.by_token.get(t, ())})
    return [index.papers[i] for i in seen]


@lru_cache(maxsize=8)
def _subject_words(vocab: Vocabulary) -> dict[str, frozenset[str]]:
    words: dict[str, frozenset[str]] = {}
    for subject, spec in vocab.data["subjects"].items():
        names = [n.lstrip("=") for key in ("names", "branch_names", "weak_names") for n in spec.get(key, []) if not n.startswith("~")]
        words[subject] = frozenset(t for n in names for t in tokens(n)) | frozenset(tokens(subject.replace("_", " ")))
    return words


def match_paper_names(
    st: SpanText, vocab: Vocabulary, *, subjects: tuple[str, ...], levels: tuple[str, ...]
) -> tuple[list[str], bool]:
    """Return ``(paper names, known)``; for a sibling the corpus lacks: ``([requested, known sibling], False)``."""
    if not vocab.has_corpus:
        return [], False
    spec = vocab.data.get("paper_names", {})
    optional = frozenset(t for w in spec.get("optional", []) for t in tokens(w))
    level_words = frozenset(spec.get("level_words", []))
    query = query_tokens(st)
    subject_words = _subject_words(vocab)
    matched: list[tuple[str, frozenset[str]]] = []
    candidates = _candidates(_index(vocab), query)
    for paper in candidates:
        required = _required(paper, optional, subjects, subject_words)
        missing = required - query
        if missing and not (missing <= level_words and set(levels) & set(paper.levels)):
            continue
        if any(t.isdigit() and not _numbered(st, t) for t in required & query):
            continue
        if _grade_elsewhere(paper, required, levels):
            continue
        matched.append((paper.name, paper.words))
    if matched and levels:
        at_level = [(n, w) for n, w in matched if set(levels) & set(vocab.paper(n).level)]  # type: ignore[union-attr]
        matched = at_level or matched
    names = [n for n, w in matched if not any(w < other for _, other in matched)]
    if names:
        return names, True
    return _sibling(st, candidates, query, optional, subjects, subject_words), False


def _grade_elsewhere(paper: _Paper, required: set[str], levels: tuple[str, ...]) -> bool:
    """The name's grade number was found, but the text states other grades only, so the number came from another
    phrase: "Sec 4 teacher here. any MCAS grade 10 intro physics 2006 MCQs" does not name "MCAS Grade 4 Science"
    (its "4" is Singapore's Secondary 4; the grade asked is 10)."""
    grades = [lv for lv in levels if lv.startswith("grade_")]
    if not grades or set(grades) & set(paper.levels):
        return False
    own = {lv.removeprefix("grade_") for lv in paper.levels if lv.startswith("grade_")}
    return bool(own & required)


def _required(
    paper: _Paper, optional: frozenset[str], subjects: tuple[str, ...], subject_words: dict[str, frozenset[str]]
) -> set[str]:
    required = set(paper.words) - optional
    for subject in paper.subjects:
        if subject in subjects:
            required -= subject_words.get(subject, frozenset())
    return required


def sibling_of(names: list[str]) -> tuple[list[str], str | None]:
    """Split ``match_paper_names``' unknown result into (requested name, the known sibling)."""
    return (names[:1], names[1]) if len(names) == 2 else (names, None)


def _numbered(st: SpanText, number: str) -> bool:
    """A paper number must follow a word ("paper 1", "physique 1"), not sit in a quantity ("2.5 m")."""
    view = _unnumbered(st)
    pattern = rf"[a-z\u00c0-\u024f\u3400-\u9fff]\s*(?<![\d.,]){number}(?!\d|[.,]\d)"
    return re.search(pattern, view) is not None


def _sibling(
    st: SpanText, candidates: list[_Paper], query: set[str], optional: frozenset[str],
    subjects: tuple[str, ...], subject_words: dict[str, frozenset[str]],
) -> list[str]:
    """"Northfield Physics Paper 3" when the corpus has Paper 1 and 2 of that name."""
    asked_cache: dict[str, re.Match[str] | None] = {}
    for paper in candidates:
        if paper.numbered is None or paper.numbered[0] not in optional:
            continue
        word, number = paper.numbered
        if word not in asked_cache:
            asked_cache[word] = re.search(rf"(?<![a-z]){re.escape(word)}\s*(\d+)(?!\d)", st.low)
        asked = asked_cache[word]
        if not asked or asked.group(1) == number:
            continue
        if _required(paper, optional, subjects, subject_words) - {number} <= query:
            return [paper.name[: len(paper.name) - len(number)] + asked.group(1), paper.name]
    return []
