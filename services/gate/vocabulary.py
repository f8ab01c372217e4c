"""The gate's curriculum vocabulary: data loaded from files, not code.

Two layers are merged:

* the bundled ``vocabulary.json`` — hand-written generic knowledge: canonical
  subjects with synonyms in en/fr/de/es/zh, level names (grades, bands, CM1,
  O/A level, 高中...), content-type phrases, question-number forms, exam boards
  and paper families, topic cues;
* optionally a corpus-derived file built by :func:`build_vocabulary_from_corpus`
  (env ``CHSR_VOCABULARY_PATH``) — the canonical values a corpus actually holds,
  its papers, and which (paper, year, session) combinations exist.

Without the corpus layer the gate still extracts every field; with it, it can
also resolve colloquial paper names and detect unsatisfiable constraints.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Mapping

from chsr.scope import Scope
from services.gate.corpus_vocabulary import CORPUS_SCHEMA, build_vocabulary_from_corpus, write_corpus_vocabulary
from services.gate.lexicon import AliasTable, compile_patterns

BUNDLED_PATH = Path(__file__).with_name("vocabulary.json")
#: Confidence of a subject named by its main name, a branch (algebra) or a weak name (economy).
NAME_CONFIDENCE = {"names": 0.95, "branch_names": 0.8, "weak_names": 0.6}
GROUP_CONFIDENCE = 0.8


@dataclass(frozen=True)
class PaperInfo:
    """What the corpus says about one paper."""

    name: str
    subject: tuple[str, ...]
    level: tuple[str, ...]
    exam_board: tuple[str, ...]
    years: Mapping[int, tuple[str | None, ...]]
    content_types: tuple[str, ...] = ()
    #: The highest question number the index holds of the paper, per year (None: its items without a year).
    max_question: Mapping[int | None, int] = field(default_factory=dict)

    def questions_held(self, years: tuple[int, ...] = ()) -> int | None:
        """The highest question number held in ``years`` (every year when none is given); None: unknown."""
        wanted = [n for y, n in self.max_question.items() if not years or y in years]
        return max(wanted) if wanted else None


#: Words a board's name ends with that do not name it ("Pinecrest Board" is named "Pinecrest").
GENERIC_BOARD_WORDS = frozenset({"board", "council", "examinations", "examination", "exams", "syndicate",
                                 "authority", "department", "agency", "commission", "of", "education", "the"})
#: Words a paper's name goes on with after its series' name ("Pinecrest Grade 5 Science").
_PAPER_TAIL = re.compile(r"\s+(?:grade|year|level|class|form|paper|\d).*$", re.IGNORECASE)


def catalogue_boards(known: list[dict[str, Any]], corpus: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Board entries for the exam boards the index holds that the bundled vocabulary does not know, named from the
    catalogue itself: the board's name, the name without its generic words, and the series name its papers share
    (issue 21: recognise a series from the corpus's own paper and board names). A name shorter than four letters
    is not used (it would read ordinary words, "AMP" as amperes)."""
    bundled = {b["exam_board"] for b in known}
    papers: dict[str, list[str]] = {}
    for name, info in corpus.get("papers", {}).items():
        for board in info.get("exam_board", []):
            papers.setdefault(board, []).append(name)
    out: list[dict[str, Any]] = []
    for board in sorted(set(corpus.get("values", {}).get("exam_board", [])) - bundled):
        words = board.split()
        while words and words[-1].lower() in GENERIC_BOARD_WORDS:
            words.pop()
        prefixes = {_PAPER_TAIL.sub("", p).strip() for p in papers.get(board, [])}
        shared = prefixes.pop() if len(prefixes) == 1 else ""
        names = [n for n in dict.fromkeys([board, " ".join(words), shared]) if len(n.replace(" ", "")) >= 4]
        if names:
            out.append({"exam_board": board, "names": names, "from_catalogue": True})
    return out


class Vocabulary:
    """Merged vocabulary with compiled matchers and corpus look-ups."""

    def __init__(self, data: Mapping[str, Any], corpus: Mapping[str, Any] | None = None) -> None:
        self.data = data
        self.corpus = corpus or {}
        self.boards: list[dict[str, Any]] = list(data.get("boards", []))
        self.boards += catalogue_boards(self.boards, self.corpus)
        self._known_cache: dict[str, frozenset] = {}

    # ---- loading --------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path | None = None) -> "Vocabulary":
        """The bundled vocabulary, merged with a corpus-derived file when ``path`` is given.

        ``path`` is a file written by :func:`write_corpus_vocabulary` (``.json``) or a
        corpus itself (``.jsonl``, indexed in memory; fine for small corpora such as the demo).
        """
        data = json.loads(BUNDLED_PATH.read_text(encoding="utf-8"))
        if not path:
            return cls(data)
        if str(path).endswith(".jsonl"):
            return cls(data, build_vocabulary_from_corpus(path))
        extra = json.loads(Path(path).read_text(encoding="utf-8"))
        if extra.get("schema") != CORPUS_SCHEMA:
            raise ValueError(f"{path}: not a corpus vocabulary (schema {extra.get('schema')!r}, expected {CORPUS_SCHEMA!r})")
        return cls(data, extra)

    @classmethod
    def from_corpus(cls, corpus_jsonl: str | Path) -> "Vocabulary":
        """Bundled vocabulary + a corpus index built in memory (tests, benchmarks)."""
        data = json.loads(BUNDLED_PATH.read_text(encoding="utf-8"))
        return cls(data, build_vocabulary_from_corpus(corpus_jsonl))

    @property
    def has_corpus(self) -> bool:
        return bool(self.corpus)

    # ---- compiled matchers (built once per process) ---------------------
    def warm_up(self) -> "Vocabulary":
        """Build every lazily compiled table now (~1 s of regex compilation): a server calls this
        at start-up so its first request does not spend its whole gate budget compiling."""
        for name, attr in type(self).__dict__.items():
            if isinstance(attr, cached_property):
                getattr(self, name)
        return self

    @cached_property
    def subject_names(self) -> AliasTable:
        entries: list[tuple[str, Any]] = []
        for subject, spec in self.data["subjects"].items():
            for key, conf in NAME_CONFIDENCE.items():
                entries += [(alias, ((subject,), conf)) for alias in spec.get(key, [])]
        for group in self.data.get("subject_groups", []):
            entries += [(alias, (tuple(group["subjects"]), GROUP_CONFIDENCE)) for alias in group["names"]]
        return AliasTable(entries)

    @cached_property
    def topic_cues(self) -> AliasTable:
        """Cue alias -> tuple of (subject, group id); one alias may serve several subjects."""
        by_alias: dict[str, list[tuple[str, str]]] = {}
        for subject, groups in self.data.get("topics", {}).items():
            for index, group in enumerate(groups):
                for alias in group:
                    by_alias.setdefault(alias, []).append((subject, f"{subject}:{index}"))
        return AliasTable(((alias, tuple(v)) for alias, v in by_alias.items()), prefix=True)

    @cached_property
    def topic_groups(self) -> dict[str, list[str]]:
        return {f"{s}:{i}": list(g) for s, groups in self.data.get("topics", {}).items() for i, g in enumerate(groups)}

    @cached_property
    def level_aliases(self) -> AliasTable:
        entries = []
        for spec in self.data["levels"]["aliases"]:
            entries += [(term, (tuple(spec["levels"]), spec["confidence"])) for term in spec["terms"]]
        return AliasTable(entries)

    @cached_property
    def level_patterns(self) -> list:
        return compile_patterns(self.data["levels"]["patterns"])

    @cached_property
    def content_type_terms(self) -> AliasTable:
        entries = []
        for spec in self.data["content_types"]["entries"]:
            value = (spec["content_type"], spec["kind"], spec["confidence"])
            entries += [(term, value) for term in spec["terms"]]
        return AliasTable(entries)

    @cached_property
    def question_words(self) -> AliasTable:
        return AliasTable((w, True) for w in self.data["content_types"].get("question_words", {}).get("terms", []))

    @cached_property
    def question_number_patterns(self) -> list:
        return compile_patterns(self.data["question_numbers"])

    @cached_property
    def board_names(self) -> AliasTable:
        """Board alias -> (board index, weak). Weak names (US state names) and weak descriptions ("math competition")
        need exam context."""
        entries = []
        for index, board in enumerate(self.boards):
            entries += [(alias, (index, False)) for alias in board.get("names", [])]
            entries += [(alias, (index, True)) for key in ("weak_names", "weak_descriptions") for alias in board.get(key, [])]
        return AliasTable(entries)

    @cached_property
    def board_acronyms(self) -> dict[str, int]:
        """A board's one-word name of 4-6 letters, upper case ("TIMSS", "MCAS") -> the board's index."""
        return {name.upper(): index for index, board in enumerate(self.boards)
                for name in board.get("names", []) if name.isalpha() and 4 <= len(name) <= 6}

    @cached_property
    def composites(self) -> dict[int, tuple[list, AliasTable]]:
        """Board index -> (compiled variant patterns, track alias table) for composite paper families."""
        out: dict[int, tuple[list, AliasTable]] = {}
        for index, board in enumerate(self.boards):
            spec = board.get("composite")
            if spec:
                tracks = [(term, (t["track"], term in t.get("subject_terms", []))) for t in spec["tracks"] for term in t["terms"]]
                out[index] = (compile_patterns(spec["variants"]), AliasTable(tracks))
        return out

    @cached_property
    def sitting_aliases(self) -> dict[str, str]:
        """A sitting's name -> the first name of its alias set, from composite variants one pattern writes together
        (Gaokao "全国III" and "新课标III": one sitting, which the corpus files under either name by subject)."""
        out: dict[str, str] = {}
        for board in self.boards:
            spec = board.get("composite") or {}
            numerals = sorted(set(spec.get("numerals", {}).values()))
            for variant in spec.get("variants", []):
                templates = variant["variants"]
                if len(templates) < 2 or not all("{num}" in t for t in templates):
                    continue
                for num in numerals:
                    names = [t.format(num=num) for t in templates]
                    for name in names:
                        out.setdefault(name, names[0])
        return out

    @cached_property
    def sittings_sat(self) -> dict[str, tuple[int, int]]:
        """A composite family's variant -> the first and last year it was really set ("新课标III" -> (2016, 2020)),
        generic knowledge from the vocabulary, not the index's years."""
        return self._spans(lambda board: (board.get("composite") or {}).get("sat", {}))

    @cached_property
    def sittings_sat_numbered(self) -> dict[str, tuple[int, int]]:
        """A board's paper -> the first and last year its sittings were really set, for a numbered item ("AMC 10A" ->
        (2002, 2026): the A and B sittings began in 2002)."""
        return self._spans(lambda board: board.get("sat_numbered", {}))

    def _spans(self, spans_of: Callable[[dict], dict]) -> dict[str, tuple[int, int]]:
        return {variant: (int(first), int(last)) for board in self.boards
                for variant, (first, last) in spans_of(board).items()}

    def sat_span(self, paper: str, numbered: bool = False) -> tuple[str, int, int] | None:
        """The national paper ``paper`` belongs to and the first and last year it was really set ("Gaokao 新课标III
        Physics" -> ("新课标III", 2016, 2020)); for a ``numbered`` item, also a board's paper whose sittings' years are
        known ("AMC 10A" -> ("AMC 10A", 2002, 2026)); None for a paper of no such family."""
        spans = {**self.sittings_sat, **(self.sittings_sat_numbered if numbered else {})}
        for variant, (first, last) in spans.items():
            if f" {variant} " in f" {paper} ":
                return variant, first, last
        return None

    @cached_property
    def paper_patterns(self) -> dict[int, list]:
        return {i: compile_patterns(b["paper_patterns"]) for i, b in enumerate(self.boards) if b.get("paper_patterns")}

    @cached_property
    def _no_substitutes(self) -> list[tuple[re.Pattern[str], str]]:
        spec = self.data.get("no_substitutes", {})
        return [(re.compile("|".join(f"(?:{c})" for c in spec[key]), re.IGNORECASE), note)
                for key, note in (("regex", "the text asks for no substitutes"),
                                  ("whole_paper", "the text asks for a whole paper")) if spec.get(key)]

    def forbids_relaxation(self, query: str) -> str:
        """Why the text rules out any other scope ("no substitutes", "that administration only", "别的年份不要"; a whole
        paper, "选择题全套": another sitting's paper is not it), or "" when it does not."""
        return next((note for pattern, note in self._no_substitutes if pattern.search(query)), "")

    @cached_property
    def stopwords(self) -> frozenset[str]:
        return frozenset(w.lower() for words in self.data.get("stopwords", {}).values() for w in words)

    @cached_property
    def exam_family_terms(self) -> frozenset[str]:
        """Level-hint terms that name an exam family (GCSE, A level, Abitur, and the families of ``family_boards``): in a
        look-up, the series (normalised: lower case, hyphens and runs of spaces as one space)."""
        terms = self.data.get("exam_families", {}).get("terms", [])
        return frozenset(normalise_family_term(t.lstrip("=~")) for t in terms) | frozenset(self.family_boards)

    @cached_property
    def textbook_boards(self) -> frozenset[str]:
        """Boards whose material is a textbook (OpenStax): naming one names the book, the source asked for."""
        return frozenset(b["exam_board"] for b in self.boards if b.get("content_type") == "textbook")

    @cached_property
    def family_boards(self) -> dict[str, str]:
        """Exam-family term (normalised) -> the board of the corpus it is part of ("北京卷" -> the Gaokao's board):
        named beside that board, the family is the series asked for; a relaxation stays within the board."""
        within = self.data.get("exam_families", {}).get("within", {})
        return {normalise_family_term(t.lstrip("=~")): board for board, terms in within.items() for t in terms}

    @cached_property
    def series_stop_words(self) -> frozenset[str]:
        """Capitalised words and acronyms that never name an exam series (US, DNA, ...), and generic paper words."""
        spec = self.data.get("exam_families", {})
        generic = self.data.get("paper_names", {}).get("optional", [])
        return frozenset(w.lower() for w in [*spec.get("not_series", []), *generic])

    @cached_property
    def series_name_words(self) -> frozenset[str]:
        """Every word of a board name, alias or paper name the vocabulary or the corpus knows (lower case)."""
        names: list[str] = []
        for board in self.boards:
            names += [board.get("exam_board", ""), *board.get("names", []), *board.get("weak_names", [])]
        names += [*self.corpus_values("paper"), *self.corpus_values("exam_board")]
        words = {w.lower() for name in names for w in re.findall(r"[^\W\d_]+", str(name).lstrip("=~"))}
        return frozenset(w for w in words if len(w) >= 2)

    @cached_property
    def series_typo_targets(self) -> tuple[str, ...]:
        """The series-name words of four letters or more, sorted: what a misspelt series name is compared with."""
        return tuple(sorted(w for w in self.series_name_words if len(w) >= 4))

    @cached_property
    def cjk_stopwords(self) -> tuple[str, ...]:
        """Chinese function words, longest first (they split CJK runs into topic terms)."""
        return tuple(sorted(self.data.get("stopwords", {}).get("zh", []), key=len, reverse=True))

    # ---- canonical values ------------------------------------------------
    def subject_parent(self, subject: str) -> str | None:
        return self.data["subjects"].get(subject, {}).get("parent")

    @cached_property
    def subject_parents(self) -> dict[str, str]:
        return {s: spec["parent"] for s, spec in self.data["subjects"].items() if spec.get("parent")}

    @cached_property
    def affinity(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for a, b in self.data.get("subject_affinity", []):
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
        return out

    def known_values(self, field_name: str) -> frozenset:
        """Bundled canonical values plus the values the corpus holds."""
        if field_name not in self._known_cache:
            self._known_cache[field_name] = self._known_values(field_name)
        return self._known_cache[field_name]

    def corpus_values(self, field_name: str) -> frozenset:
        """Values the corpus holds (empty without a corpus layer)."""
        key = f"corpus:{field_name}"
        if key not in self._known_cache:
            source = self.corpus.get("papers", {}) if field_name == "paper" else self.corpus.get("values", {}).get(field_name, [])
            self._known_cache[key] = frozenset(source)
        return self._known_cache[key]

    def _known_values(self, field_name: str) -> frozenset:
        bundled: set = set()
        if field_name == "subject":
            bundled = set(self.data["subjects"])
        elif field_name == "level":
            bundled = set(self.data["levels"]["canonical"])
        elif field_name == "content_type":
            bundled = set(self.data["content_types"]["canonical"])
        elif field_name == "exam_board":
            bundled = {b["exam_board"] for b in self.boards}
        elif field_name == "paper":
            return frozenset(self.corpus.get("papers", {}))
        return frozenset(bundled | set(self.corpus.get("values", {}).get(field_name, [])))

    # ---- corpus look-ups ---------------------------------------------------
    def paper(self, name: str) -> PaperInfo | None:
        return self._papers.get(name)

    @cached_property
    def _papers(self) -> dict[str, PaperInfo]:
        out = {}
        for name, info in self.corpus.get("papers", {}).items():
            years = {int(y): tuple(s) for y, s in info.get("years", {}).items()}
            top = {int(y) if y else None: int(n) for y, n in info.get("max_question", {}).items()}
            out[name] = PaperInfo(
                name, tuple(info["subject"]), tuple(info["level"]), tuple(info["exam_board"]), years,
                tuple(info.get("content_types", ())), top,
            )
        return out

    @cached_property
    def latest_year(self) -> int | None:
        """The latest year the index holds material for (None: no corpus layer, or no years)."""
        years = [y for y in self.corpus_values("year") if isinstance(y, int)]
        return max(years) if years else None

    def board_papers(self, board: str) -> tuple[PaperInfo, ...]:
        """The corpus's papers of exam board ``board``, by name."""
        return self._board_papers.get(board, ())

    @cached_property
    def _board_papers(self) -> dict[str, tuple[PaperInfo, ...]]:
        out: dict[str, list[PaperInfo]] = {}
        for name in sorted(self._papers):
            for board in self._papers[name].exam_board:
                out.setdefault(board, []).append(self._papers[name])
        return {board: tuple(papers) for board, papers in out.items()}

    def subject_level_exists(self, subject: str, level: str) -> bool | None:
        """None when no corpus layer is loaded (unknown)."""
        if not self.has_corpus:
            return None
        return [subject, level] in self._subject_levels

    @cached_property
    def _subject_levels(self) -> list[list[str]]:
        return list(self.corpus.get("subject_levels", []))

    def subject_has_content(self, subject: str, content_type: str, levels: tuple[str, ...] = ()) -> bool | None:
        """Does the corpus hold ``content_type`` material for ``subject`` (at one of ``levels``)? None: unknown."""
        if not self.has_corpus:
            return None
        triples = self._subject_content
        return any((subject, content_type, lv) in triples for lv in levels) if levels else (subject, content_type) in {
            (s, c) for s, c, _ in triples}

    def held_levels(self, subjects: tuple[str, ...], content_types: tuple[str, ...] = ()) -> set[str]:
        """The levels the corpus holds material at for any of ``subjects`` (of any of ``content_types``)."""
        if content_types:
            return {lv for s, c, lv in self._subject_content if s in subjects and c in content_types}
        return {lv for s, lv in self._subject_levels if s in subjects}

    def levels_in_language(self, subjects: tuple[str, ...], language: str,
                           content_types: tuple[str, ...] = ()) -> set[str]:
        """The levels the corpus holds material in ``language`` at for any of ``subjects`` (none: any subject) of any
        of ``content_types``; empty when no corpus layer (or one built before languages were kept) is loaded."""
        return {lv for s, c, lv, g in self._subject_languages
                if (not subjects or s in subjects) and g == language and (not content_types or c in content_types)}

    @property
    def knows_languages(self) -> bool:
        """Whether the corpus layer records the languages material is held in."""
        return bool(self._subject_languages)

    def languages_of(self, content_types: tuple[str, ...]) -> set[str]:
        """The languages the corpus holds material of any of ``content_types`` in; empty when unknown."""
        return {g for _, c, _, g in self._subject_languages if c in content_types}

    @cached_property
    def _subject_languages(self) -> set[tuple[str, str, str, str]]:
        return {tuple(t) for t in self.corpus.get("subject_content_languages", [])}  # type: ignore[misc]

    def content_holders(self, content_types: tuple[str, ...]) -> tuple[str, ...]:
        """The subjects the corpus holds material of any of ``content_types`` for (sorted)."""
        return tuple(sorted({s for s, c, _ in self._subject_content if c in content_types}))

    @cached_property
    def _subject_content(self) -> set[tuple[str, str, str]]:
        return {tuple(t) for t in self.corpus.get("subject_content_levels", [])}  # type: ignore[misc]

    def paper_template(self, board: str, subject: str) -> str | None:
        entry = self.corpus.get("paper_templates", {}).get(board, {}).get(subject)
        return entry["template"] if entry else None

    def unnumbered(self, scope: Scope) -> str:
        """The note when every named paper holds the asked year but none of its items there carries a question
        number ("TIMSS Grade 8 Science 2011 #4": the index files TIMSS items by page): the number cannot be matched
        and the paper's items of that year are the nearest scope. '' otherwise, or without a corpus."""
        if not self.has_corpus or not scope.question_number or not scope.paper or not scope.year:
            return ""
        infos = [self.paper(p) for p in scope.paper]
        if any(i is None or not any(y in i.years for y in scope.year) for i in infos):
            return ""
        if any(i.questions_held(tuple(y for y in scope.year if y in i.years)) is not None for i in infos if i):
            return ""
        return f"{', '.join(scope.paper)} ({_join(scope.year)}) holds its items without question numbers: " \
               f"question {_join(scope.question_number)} is not matched"

    @cached_property
    def _years_by_subject_level(self) -> dict[tuple[str, str], frozenset[int]] | None:
        """The corpus layer's ``subject_level_years`` ("subject|level" -> years), read once; None when the layer was
        written before it counted them."""
        table = self.corpus.get("subject_level_years")
        if table is None:
            return None
        return {tuple(key.split("|", 1)): frozenset(years) for key, years in table.items()}

    def _subject_years(self, subjects: tuple[str, ...], levels: tuple[str, ...]) -> set[int] | None:
        """The years the items of ``subjects`` (at ``levels``, or any level) carry; None when the corpus layer does
        not say (an index written before it counted them, or no such subject and level at all)."""
        table = self._years_by_subject_level
        if table is None:
            return None
        keys = [k for k in table if k[0] in subjects and (not levels or k[1] in levels)]
        return {y for k in keys for y in table[k]} if keys else None

    def held_years(self, scope: Scope) -> set[int] | None:
        """The years the index holds material in for ``scope``'s papers (any of them), else for its boards and its
        subjects (at its levels); None when unknown (no corpus layer, a paper it does not hold, nothing to go by)."""
        if not self.has_corpus:
            return None
        if scope.paper:
            infos = [self.paper(name) for name in scope.paper]
            if any(info is None for info in infos):
                return None
            return {y for info in infos if info is not None for y in info.years if y is not None}
        held: set[int] | None = None
        if scope.exam_board:
            table = self.corpus.get("board_years", {})
            held = {int(y) for board in scope.exam_board for y in table.get(board, [])}
        if scope.subject:
            subject_years = self._subject_years(scope.subject, scope.level)
            if subject_years is not None:
                held = subject_years if held is None else held & subject_years
        return held

    def unsatisfiable(self, scope: Scope) -> dict[str, str]:
        """Constraints that the corpus proves cannot match (field -> reason); {} without a corpus."""
        if not self.has_corpus:
            return {}
        reasons: dict[str, str] = {}
        infos = [self.paper(p) for p in scope.paper]
        known = [i for i in infos if i is not None]
        if scope.paper and not known:
            reasons["paper"] = f"paper {', '.join(scope.paper)} is not in the corpus"
        if scope.year and known:
            if not any(y in i.years for i in known for y in scope.year):
                reasons["year"] = f"{', '.join(i.name for i in known)} has no items for year {_join(scope.year)} in the corpus"
        elif scope.year:
            years = set(self.corpus_values("year"))
            for board in scope.exam_board:
                years = set(self.corpus.get("board_years", {}).get(board, [])) or years
            if not years & set(scope.year):
                reasons["year"] = f"no items for year {_join(scope.year)} in the corpus"
            elif not scope.exam_board and scope.subject:
                held = self._subject_years(scope.subject, scope.level)
                if held is not None and not held & set(scope.year):
                    where = f"{'|'.join(scope.subject)}{' at ' + '|'.join(scope.level) if scope.level else ''}"
                    reasons["year"] = f"{where} has no items for year {_join(scope.year)} in the corpus" + \
                        ("" if held else " (none of its items is dated)")
        for name in ("exam_board", "session", "subject", "level", "content_type"):
            values = getattr(scope, name)
            if values and not set(values) & self.corpus_values(name):
                reasons[name] = f"{name} {_join(values)} is not in the corpus"
        beyond = _beyond_papers(scope, known)
        if beyond:
            reasons["question_number"] = beyond
        return reasons


def _beyond_papers(scope: Scope, papers: list[PaperInfo]) -> str:
    """A question number past the highest one the index holds of every named paper (in the asked years the paper
    has, else in any year): "question 40 is beyond what the index holds of AMC 10A (2019): questions up to 25"."""
    if not scope.question_number or not papers:
        return ""
    held: list[str] = []
    highest = 0
    for info in papers:
        years = tuple(y for y in scope.year if y in info.years)
        top = info.questions_held(years)
        if top is None:
            return ""  # a paper whose items carry no numbers: nothing to measure against
        highest = max(highest, top)
        held.append(f"{info.name}{f' ({_join(years)})' if years else ''}: questions up to {top}")
    if min(scope.question_number) <= highest:
        return ""
    return f"question {_join(scope.question_number)} is beyond what the index holds of {'; '.join(held)}"


def _join(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def normalise_family_term(text: str) -> str:
    """"A-Level", "a  level" -> "a level": how exam-family terms are compared."""
    return re.sub(r"[\s\-]+", " ", text.lower()).strip()


__all__ = ["Vocabulary", "PaperInfo", "normalise_family_term", "build_vocabulary_from_corpus",
           "write_corpus_vocabulary", "BUNDLED_PATH", "ENV_VAR"]
