"""Build the corpus-derived half of the gate vocabulary from a corpus's metadata.

The bundled ``vocabulary.json`` holds generic, hand-written knowledge (synonyms,
level names, boards). What a *particular* corpus contains — its canonical values,
its papers and which (paper, year, session) combinations exist — is read from the
corpus itself ("can be built from a corpus's metadata"). The gate uses it
to recognise paper names, to resolve colloquial Gaokao variants (全国III卷 ->
新课标III in 2019) and to tell an exact scope that cannot match anything (a year
after the corpus ends, a paper that does not exist) from one that is merely thin.

The output is a small JSON document, written by :func:`write_corpus_vocabulary`
and loaded with ``Vocabulary.load(path)`` (env ``CHSR_VOCABULARY_PATH``).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from chsr.catalogue import CatalogueEntry, question_number_of

CORPUS_SCHEMA = "chsr-gate-corpus-vocabulary/1"
VALUE_FIELDS = ("subject", "level", "year", "session", "content_type", "exam_board", "language")
#: Papers named "<board prefix> Grade N <rest>" become templates so the gate can name
#: a requested paper even when that grade is absent (e.g. "NYSED Regents Grade 6 Science").
GRADE_PAPER = re.compile(r"^(?P<pre>.*\bGrade )(?P<n>\d{1,2}|K)(?P<post>(?: .*)?)$")


def _new_paper() -> dict[str, Any]:
    return {"subject": set(), "level": set(), "exam_board": set(), "content_types": set(), "years": defaultdict(set),
            "max_question": {}}


def build_vocabulary_from_corpus(corpus_jsonl: str | Path) -> dict[str, Any]:
    """Collect the canonical values and the paper index of a BEIR-style corpus file.

    Each line is ``{"_id", "text", "metadata": {...}}`` (curriculum README). Lines
    that are not JSON objects are skipped; the count is reported under ``skipped``.
    """
    path = Path(corpus_jsonl)
    skipped = 0

    def rows() -> Iterator[tuple[Mapping[str, Any], int]]:
        nonlocal skipped
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    skipped += 1
                    continue
                meta = obj.get("metadata") if isinstance(obj, dict) else None
                if not isinstance(meta, dict):
                    skipped += 1
                    continue
                yield meta, 1

    out = build_vocabulary_from_rows(rows(), source=path.name)
    out["skipped"] = skipped
    return out


def build_vocabulary_from_catalogue(entries: Iterable[CatalogueEntry], source: str = "catalogue") -> dict[str, Any]:
    """The same corpus layer from the gateway's catalogue (``chsr.catalogue``): one row per cell."""
    return build_vocabulary_from_rows(((e.metadata() | {"question_number": e.max_question_number}, e.count)
                                       for e in entries), source=source)


def build_vocabulary_from_rows(rows: Iterable[tuple[Mapping[str, Any], int]], source: str) -> dict[str, Any]:
    """The corpus layer from (metadata, chunk count) rows: canonical values, papers, templates."""
    values: dict[str, set] = {name: set() for name in VALUE_FIELDS}
    papers: dict[str, dict[str, Any]] = defaultdict(_new_paper)
    subject_levels: set[tuple[str, str]] = set()
    subject_content: set[tuple[str, str, str]] = set()
    subject_languages: set[tuple[str, str, str, str]] = set()
    board_years: dict[str, set[int]] = defaultdict(set)
    subject_level_years: dict[str, set[int]] = defaultdict(set)
    templates: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    documents = 0
    for meta, count in rows:
        documents += count
        for name in VALUE_FIELDS:
            if meta.get(name) is not None:
                values[name].add(meta[name])
        subject, level, board, year = meta.get("subject"), meta.get("level"), meta.get("exam_board"), meta.get("year")
        if subject and level:
            subject_levels.add((subject, level))
            if meta.get("content_type"):
                subject_content.add((subject, meta["content_type"], level))
            if meta.get("language"):
                subject_languages.add((subject, meta.get("content_type") or "", level, meta["language"]))
        if board and isinstance(year, int):
            board_years[board].add(year)
        if subject and level:
            subject_level_years[f"{subject}|{level}"].update([year] if isinstance(year, int) else [])
        paper = meta.get("paper")
        if paper:
            _index_paper(papers[paper], meta)
            _index_template(templates, paper, meta)
    return {
        "schema": CORPUS_SCHEMA,
        "source": source,
        "documents": documents,
        "skipped": 0,
        "values": {name: sorted(vals, key=str) for name, vals in values.items()},
        "papers": {name: _paper_json(info) for name, info in sorted(papers.items())},
        "subject_levels": sorted([s, l] for s, l in subject_levels),
        "subject_content_levels": sorted([s, c, l] for s, c, l in subject_content),
        # [subject, content type ("" when none), level, language]: which levels hold a subject in a language
        "subject_content_languages": sorted([s, c, l, g] for s, c, l, g in subject_languages),
        "board_years": {board: sorted(years) for board, years in sorted(board_years.items())},
        # "subject|level" -> the years its items carry (empty: none is dated), for a year the rest of a scope lacks
        "subject_level_years": {key: sorted(years) for key, years in sorted(subject_level_years.items())},
        "paper_templates": {
            board: {subj: {"template": t["template"], "grades": sorted(t["grades"], key=_grade_key)} for subj, t in by.items()}
            for board, by in sorted(templates.items())
        },
    }


def _index_paper(info: dict[str, Any], meta: Mapping[str, Any]) -> None:
    for name, key in (("subject", "subject"), ("level", "level"), ("exam_board", "exam_board"), ("content_type", "content_types")):
        if meta.get(name) is not None:
            info[key].add(meta[name])
    year = meta.get("year")
    if isinstance(year, int):
        info["years"][str(year)].add(meta.get("session"))
    number = question_number_of(meta)
    if number is not None:  # the highest question number held, per year ("" = the paper's items without a year)
        key = str(year) if isinstance(year, int) else ""
        info["max_question"][key] = max(number, info["max_question"].get(key, 0))


def _index_template(templates: dict[str, dict[str, dict[str, Any]]], paper: str, meta: Mapping[str, Any]) -> None:
    match = GRADE_PAPER.match(paper)
    board, subject = meta.get("exam_board"), meta.get("subject")
    if not match or not board or not subject:
        return
    template = f"{match['pre']}{{n}}{match['post']}"
    entry = templates[board].setdefault(subject, {"template": template, "grades": set()})
    if entry["template"] == template:
        entry["grades"].add(match["n"])


def _grade_key(grade: str) -> int:
    return 0 if grade == "K" else int(grade)


def _paper_json(info: dict[str, Any]) -> dict[str, Any]:
    return {
        "subject": sorted(info["subject"]),
        "level": sorted(info["level"]),
        "exam_board": sorted(info["exam_board"]),
        "content_types": sorted(info["content_types"]),
        "years": {y: sorted(s, key=lambda v: "" if v is None else v) for y, s in sorted(info["years"].items())},
        "max_question": dict(sorted(info["max_question"].items())),
    }


def write_corpus_vocabulary(corpus_jsonl: str | Path, out_path: str | Path) -> Path:
    """Build the corpus vocabulary and write it as JSON (UTF-8, human-readable)."""
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = build_vocabulary_from_corpus(corpus_jsonl)
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out
