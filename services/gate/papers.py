"""Exam boards and paper names: find the mentions, then name the paper(s).

Three ways a query names a paper, all driven by ``vocabulary.json``:

* a **pattern** (``AMC 10A`` -> paper ``AMC 10A``, session A, level grade_10);
* a **composite** family whose papers are ``variant + subject (+ track)``
  (Gaokao: ``2019 全国III卷 理数`` -> ``Gaokao 新课标III Mathematics I (science track)``;
  a colloquial variant maps to several candidates and the corpus index picks the
  ones that exist for the requested year);
* a **template** learnt from the corpus for boards whose papers are
  ``<board> Grade N <subject>`` (``NY grade 8 science`` -> ``NYSED Regents Grade 8
  Science``). A requested paper that the corpus lacks is still named, so the exact
  scope honestly returns nothing (curriculum README, abstention cases).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from services.gate.lexicon import NEGATED, SpanText, find_pattern, glued_cjk
from services.gate.paper_names import match_paper_names, sibling_of
from services.gate.vocabulary import Vocabulary

#: Confidence of a paper the corpus holds / that it lacks / named without a corpus index.
KNOWN_PAPER, UNKNOWN_PAPER, UNCHECKED_PAPER = 0.95, 0.6, 0.85
#: A paper inferred as the board's only one for the subject: a hard constraint but not a strict key.
INFERRED_PAPER = 0.75
_EXAM_CONTEXT = re.compile(r"(?<![a-z])(?:test|tests|exam|exams|examination|assessment|eog)(?![a-z])")


@dataclass
class Mentions:
    """Everything paper-like found in a query (spans are claimed as they are found)."""

    patterned: list[tuple[list[str], str | None, str | None, int, str]] = field(default_factory=list)
    variants: list[tuple[list[str], bool, int, str]] = field(default_factory=list)
    tracks: set[str] = field(default_factory=set)
    track_subject: bool = False
    boards: list[tuple[int, str]] = field(default_factory=list)

    def board_indexes(self) -> list[int]:
        seen = [i for *_, i, _ in self.patterned] + [i for _, _, i, _ in self.variants] + [i for i, _ in self.boards]
        return list(dict.fromkeys(seen))


@dataclass(frozen=True)
class PaperDecision:
    papers: tuple[str, ...]
    confidence: float
    evidence: str
    level: tuple[str, ...] = ()
    session: tuple[str, ...] = ()
    like: str | None = None  # a known paper of the same family (for an unknown sibling's level/subject/board)


def find_mentions(st: SpanText, vocab: Vocabulary, *, has_grade: bool) -> Mentions:
    found = Mentions()
    for index, patterns in vocab.paper_patterns.items():
        for pattern, spec in patterns:
            if spec.get("needs_year") and (not _DATED.search(st.text) or any(p[3] == index for p in found.patterned)):
                continue  # bare shorthand ("10A") names a paper only in a dated query naming none in full (in "AMC
                # 12A ... not the 10A one" it names the twin the user does not want)
            for match in find_pattern(st, pattern, case_sensitive=bool(spec.get("case_sensitive"))):
                if NEGATED.search(st.low[max(0, match.start() - 16):match.start()]):
                    st.claim(match.start(), match.end(), "paper")
                    continue  # "I want that paper's copy not the AMC 12": the paper ruled out is not the one asked
                patterned = _patterned(match, spec, index)
                if spec.get("needs_year") and not all(vocab.paper(name) is not None for name in patterned[0]):
                    continue  # shorthand names only a paper the index holds ("Lakeside Challenge 10B" is not AMC's)
                found.patterned.append(patterned)
                st.claim(match.start(), match.end(), "paper")
    named = {index for index, weak in (hit.value for hit in vocab.board_names.find(st)) if not weak}
    for index, (patterns, tracks) in vocab.composites.items():
        for pattern, spec in patterns:
            if spec.get("after_board") and index not in named:
                continue  # "paper III" names a Gaokao paper only where the text names the Gaokao
            for match in find_pattern(st, pattern):
                groups = match.groupdict()
                # "全国I、II、III卷": a list names each of its papers (num2, num3)
                numerals = [groups[g] for g in ("num", "num2", "num3") if groups.get(g)] or [""]
                for numeral in numerals:
                    num = vocab.boards[index]["composite"]["numerals"].get(numeral, "")
                    variants = [v.format(num=num) for v in spec["variants"]]
                    found.variants.append((variants, spec.get("tracks", True), index, st.text[match.start():match.end()]))
                st.claim(match.start(), match.end(), "paper")
        for hit in tracks.find(st):
            if glued_cjk(st.text, hit.start, hit.end):
                continue  # "物理数学" is physics + mathematics, "天文数据" astronomy data: no 理数 / 文数 in them
            track, names_subject = hit.value
            found.tracks.add(track)
            found.track_subject = found.track_subject or names_subject
            st.claim(hit.start, hit.end, "track")
    exam_context = has_grade or bool(_EXAM_CONTEXT.search(st.low))
    for hit in vocab.board_names.find(st):
        index, weak = hit.value
        if weak and not exam_context:
            continue
        found.boards.append((index, hit.text))
        st.claim(hit.start, hit.end, "exam_board")
    if not found.board_indexes():
        _misspelt_acronym(st, vocab, found)
    return found


#: A four-digit year, or a two-digit one written as a year ("'16", "16年").
_DATED = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])|['’][0-9]{2}(?![0-9])|(?<![0-9])[0-9]{2}\s*年")


#: A board's one-word acronym ("TIMSS", "MCAS") and a capitalised token one typo from it ("TIMMS", "MACS").
_CAPS_TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{4,6}(?![A-Za-z0-9])")


def _misspelt_acronym(st: SpanText, vocab: Vocabulary, found: Mentions) -> None:
    """A capitalised token of 4-6 letters one typo (two neighbours swapped, one letter changed, added or left out)
    from exactly one board's one-word acronym names that board ("TIMMS 2011 eighth grade sci": TIMSS). A token that
    is itself a known name of anything, or near two boards' acronyms, names nothing."""
    acronyms = vocab.board_acronyms
    for match in _CAPS_TOKEN.finditer(st.view(case_sensitive=True)):
        token = match.group(0)
        if token.lower() in vocab.series_name_words or token.lower() in vocab.series_stop_words:
            continue
        near = {index for name, index in acronyms.items() if _one_typo(token, name)}
        if len(near) == 1:
            found.boards.append((near.pop(), token))
            st.claim(match.start(), match.end(), "exam_board")


def _one_typo(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one swap of neighbours, one changed letter, or one letter added or left out."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _patterned(match: re.Match[str], spec: dict[str, Any], index: int) -> tuple[list[str], str | None, str | None, int, str]:
    n = match.group("n")
    groups = match.groupdict()
    session = (groups.get("s") or groups.get("s_glued") or "").upper()
    if session:
        papers = [spec["paper"].format(n=n, S=session)]
    else:
        papers = [spec["paper"].format(n=n, S=s) for s in spec.get("sessions_if_missing", {}).get(n, [""])]
    level = spec["level"].format(n=n) if spec.get("level") else None
    return papers, level, session or None, index, match.group(0)


def resolve_paper(
    st: SpanText, found: Mentions, vocab: Vocabulary, *, subjects: tuple[str, ...], levels: tuple[str, ...],
    years: tuple[int, ...], content_types: tuple[str, ...] = (),
) -> PaperDecision | None:
    """Name the paper(s): pattern > composite > known name > grade template > the board's only paper."""
    if found.patterned:
        papers = [p for cands, *_ in found.patterned for p in cands]
        sessions = tuple(dict.fromkeys(s for _, _, s, _, _ in found.patterned if s))
        level = tuple(dict.fromkeys(lv for _, lv, _, _, _ in found.patterned if lv))
        evidence = ", ".join(text for *_, text in found.patterned)
        return _checked(papers, vocab, years, evidence, level=level, session=sessions)
    if found.variants:
        return _composite(found, vocab, subjects, years)
    names, known = match_paper_names(st, vocab, subjects=subjects, levels=levels)
    if names and known:
        return _checked(names, vocab, years, ", ".join(names))
    if names:
        requested, sibling = sibling_of(names)
        return PaperDecision(tuple(requested), UNKNOWN_PAPER, f"{requested[0]}: not in the corpus (sibling of {sibling})",
                             like=sibling)
    return _template(found, vocab, subjects, levels, years) or _only_paper(found, vocab, subjects, levels, content_types)


def _template(
    found: Mentions, vocab: Vocabulary, subjects: tuple[str, ...], levels: tuple[str, ...], years: tuple[int, ...]
) -> PaperDecision | None:
    grades = [lv for lv in levels if lv.startswith("grade_")]
    if len(grades) != 1 or len(levels) != 1:
        return None
    grade = grades[0].removeprefix("grade_").upper()
    for index, text in found.boards:
        board = vocab.boards[index]
        if board.get("compose_papers") is False or board.get("composite") or board.get("paper_patterns"):
            continue
        for subject in subjects or (board.get("subject"),):
            template = vocab.paper_template(board["exam_board"], subject) if subject else None
            if template:
                return _checked([template.format(n=grade)], vocab, years, f"{text} + {levels[0]} + {subject}")
    return None


def _only_paper(
    found: Mentions, vocab: Vocabulary, subjects: tuple[str, ...], levels: tuple[str, ...], content_types: tuple[str, ...]
) -> PaperDecision | None:
    """A board + subject (+ level, content type) that the corpus holds exactly one paper for."""
    boards = {vocab.boards[i]["exam_board"] for i, _ in found.boards if vocab.boards[i].get("compose_papers") is not False}
    if not boards or not subjects or not vocab.has_corpus:
        return None
    candidates = []
    for name in vocab.corpus_values("paper"):
        info = vocab.paper(name)
        if info is None or not set(info.exam_board) & boards or not set(info.subject) & set(subjects):
            continue
        if (levels and not set(info.level) & set(levels)) or (content_types and not set(info.content_types) & set(content_types)):
            continue
        candidates.append(name)
    if len(candidates) != 1:
        return None
    return PaperDecision((candidates[0],), INFERRED_PAPER, f"the only {'/'.join(subjects)} paper of {', '.join(sorted(boards))}")


def _composite(found: Mentions, vocab: Vocabulary, subjects: tuple[str, ...], years: tuple[int, ...]) -> PaperDecision | None:
    """The papers the first composite mention names; a list ("全国I、II、III卷") names each of its papers."""
    text = found.variants[0][3]
    decisions = [d for mention in found.variants if mention[3] == text
                 if (d := _composite_one(mention, found, vocab, subjects, years)) is not None]
    if len(decisions) < 2:
        return decisions[0] if decisions else None
    papers = tuple(dict.fromkeys(p for d in decisions for p in d.papers))
    return PaperDecision(papers, min(d.confidence for d in decisions), text)


def _composite_one(
    mention: tuple[list[str], bool, int, str], found: Mentions, vocab: Vocabulary, subjects: tuple[str, ...],
    years: tuple[int, ...],
) -> PaperDecision | None:
    variants, tracks_enabled, index, text = mention
    spec = vocab.boards[index]["composite"]
    titles: dict[str, Any] = spec["subject_titles"]
    wanted = [s for s in subjects if s in titles] or (list(titles) if vocab.has_corpus else [])
    pairs: list[tuple[str, str]] = []  # (variant, paper name)
    for variant in variants:
        for subject in wanted:
            for title in _titles(titles[subject], found.tracks, tracks_enabled):
                pairs.append((variant, spec["format"].format(variant=variant, subject_title=title)))
    if not pairs:
        return None
    literal = tuple(paper for variant, paper in pairs if variant == variants[0])
    if not vocab.has_corpus:
        return PaperDecision(literal, UNCHECKED_PAPER, f"{text} (not checked against a corpus)")
    known = [paper for _, paper in pairs if vocab.paper(paper) is not None]
    era = spec.get("eras", {}).get(variants[0])
    if era is not None and (set(years) & set(era["years"]) or not known):
        # "2016 全国丙卷": the era's name for the sitting, which the corpus files as 新课标III
        for subject in wanted:
            for title in _titles(titles[subject], found.tracks, tracks_enabled):
                paper = spec["format"].format(variant=era["name"], subject_title=title)
                if vocab.paper(paper) is not None and paper not in known:
                    known.append(paper)
    if not known:
        if not [s for s in subjects if s in titles]:
            return None  # variant without a subject: nothing specific to name
        return PaperDecision(literal, UNKNOWN_PAPER, f"{text}: not in the corpus")
    with_year = [c for c in known if any(y in vocab.paper(c).years for y in years)]  # type: ignore[union-attr]
    if not with_year and years:
        with_year = _numbered_that_year(variants[0], spec, wanted, found, tracks_enabled, vocab, years)
    chosen = with_year or known
    return PaperDecision(tuple(chosen), KNOWN_PAPER, text)


def _numbered_that_year(variant: str, spec: dict[str, Any], wanted: list[str], found: Mentions, tracks_enabled: bool,
                        vocab: Vocabulary, years: tuple[int, ...]) -> list[str]:
    """The numbered papers of an unnumbered family name that hold the asked year: "2010 gaokao 新课标 physics Q11" -
    the index files that year's physics paper as 新课标I (the other subjects' as 新课标), so the unnumbered name holds
    nothing in 2010 (round 46). A year with two numbered papers (2013: I and II) gives both."""
    numerals = list(dict.fromkeys(spec.get("numerals", {}).values()))
    if not numerals or any(variant.endswith(n) for n in numerals):
        return []
    out: list[str] = []
    for subject in wanted:
        for title in _titles(spec["subject_titles"][subject], found.tracks, tracks_enabled):
            for num in numerals:
                info = vocab.paper(spec["format"].format(variant=f"{variant}{num}", subject_title=title))
                if info is not None and any(y in info.years for y in years) and info.name not in out:
                    out.append(info.name)
    return out


def _titles(title: Any, tracks: set[str], tracks_enabled: bool) -> list[str]:
    if isinstance(title, str):
        return [title]
    if not tracks_enabled:
        return [title["none"]]
    chosen = [title[t] for t in ("science", "liberal_arts") if t in tracks]
    return chosen or [title["science"], title["liberal_arts"]]


def _checked(
    papers: list[str], vocab: Vocabulary, years: tuple[int, ...], evidence: str,
    *, level: tuple[str, ...] = (), session: tuple[str, ...] = (),
) -> PaperDecision:
    papers = list(dict.fromkeys(papers))
    if not vocab.has_corpus:
        return PaperDecision(tuple(papers), UNCHECKED_PAPER, f"{evidence} (not checked against a corpus)", level, session)
    known = [p for p in papers if vocab.paper(p) is not None]
    if known:
        return PaperDecision(tuple(known), KNOWN_PAPER, evidence, level, session)
    return PaperDecision(tuple(papers), UNKNOWN_PAPER, f"{evidence}: not in the corpus", level, session)


def board_defaults(found: Mentions, vocab: Vocabulary) -> dict[str, Any]:
    """Subject / level / content type / exam_board implied by the boards mentioned."""
    boards = [vocab.boards[i] for i in found.board_indexes()]
    out: dict[str, Any] = {"exam_board": tuple(b["exam_board"] for b in boards)}
    for key in ("subject", "level", "content_type"):
        values = list(dict.fromkeys(b[key] for b in boards if b.get(key)))
        out[key] = values[0] if len(values) == 1 else None
    return out
