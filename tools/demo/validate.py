"""Validate the demo corpus, queries, qrels and CERB-style cases in ``data/demo`` (stdlib only).

Why: these hand-written files feed the embedded default backend, the README quick start and the tests, so a
typo in a level, a dangling qrels id or a gold label outside its own scope would silently skew every score.
Vocabulary and case semantics follow the curriculum benchmark README (``$CHSR_CURRICULUM_DIR/README.md``):
levels compare literally, a list in a scope means "any of", and a null field is outside any scope setting it.
Usage: ``python tools/demo/validate.py [--dir DIR] [--write-readme]``; exits 1, logging one line per problem.
"""
from __future__ import annotations

import argparse
import collections
import json
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LOG = logging.getLogger("demo.validate")
SUBJECTS = frozenset({"science", "physics", "chemistry", "biology", "mathematics", "computer_science", "economics",
                      "history", "geography", "politics", "psychology", "english", "tourism"})
LEVELS = frozenset({"grade_k", "elementary", "high_school", "college", *(f"grade_{n}" for n in range(1, 13))})
CONTENT_TYPES = frozenset({"exam_question", "solution", "mark_scheme", "textbook", "syllabus"})
LANGUAGES = frozenset({"en", "zh", "fr", "de", "es"})
SESSIONS = frozenset({"A", "B"})
YEARS = range(2015, 2024)  # the demo corpus spans 2015-2023 (brief); cases may ask for years outside it
META_FIELDS = ("subject", "level", "year", "session", "paper", "content_type", "question_number", "source",
               "exam_board", "language")
SCOPE_FIELDS = ("subject", "level", "year", "session", "paper", "content_type", "question_number")
CASE_FIELDS = frozenset({"case_id", "query", "slice", "task_type", "scope", "relevant", "expect_empty_scope",
                         "relaxed_scope", "split_group", "notes"})
SLICES = frozenset({"mcq", "structured", "formula", "cross_subject", "bilingual", "mark_scheme", "table"})
TASK_TYPES = frozenset({"exact", "synthesis", "relaxation", "adversarial"})
COMPANIONS = ("mark_scheme", "solution")
WORD_RANGE, ZH_CHAR_RANGE = (20, 120), (20, 300)  # "1-5 sentences, 20-120 words" (brief); zh counted in chars
ID_RE = re.compile(r"^demo:[a-z0-9_]+(:(mark_scheme|solution|fr|de|es|zh))?$")
QRELS_HEADER = "query-id\tcorpus-id\tscore"
COUNTS_START, COUNTS_END = "<!-- counts:start -->", "<!-- counts:end -->"


@dataclass
class Report:
    """Collects problems so that one run lists all of them, not just the first."""
    errors: list[str] = field(default_factory=list)

    def error(self, where: str, msg: str) -> None:
        self.errors.append(f"{where}: {msg}")


def read_jsonl(path: Path, report: Report) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows += [json.loads(line)] if line.strip() else []
        except json.JSONDecodeError as exc:
            report.error(f"{path.name}:{n}", f"invalid JSON ({exc.msg})")
    return rows


def _check_meta(where: str, m: dict[str, Any], report: Report) -> None:
    checks = {"subject": m.get("subject") in SUBJECTS, "level": m.get("level") in LEVELS,
              "content_type": m.get("content_type") in CONTENT_TYPES, "language": m.get("language") in LANGUAGES,
              "year": m.get("year") is None or (type(m.get("year")) is int and m["year"] in YEARS),
              "session": m.get("session") is None or m.get("session") in SESSIONS,
              "question_number": m.get("question_number") is None
              or (type(m.get("question_number")) is int and m["question_number"] >= 1),
              "source": m.get("source") == "demo",
              "paper": m.get("paper") is None or (isinstance(m["paper"], str) and m["paper"].strip() != ""),
              "exam_board": isinstance(m.get("exam_board"), str) and m["exam_board"].strip() != ""}
    for name, ok in checks.items():
        if not ok:
            report.error(where, f"non-canonical {name}={m.get(name)!r}")
    missing = [k for k in ("year", "paper", "question_number") if m.get(k) is None]
    if m.get("content_type") in ("exam_question", *COMPANIONS) and missing:
        report.error(where, f"{m['content_type']} lacks {', '.join(missing)}")
    if m.get("content_type") in ("textbook", "syllabus") and m.get("question_number") is not None:
        report.error(where, f"{m['content_type']} must not have a question_number")


def _check_text(where: str, text: Any, language: Any, report: Report) -> None:
    if not isinstance(text, str) or not text.strip():
        report.error(where, "empty text")
        return
    lo, hi = ZH_CHAR_RANGE if language == "zh" else WORD_RANGE
    size = len(re.sub(r"\s", "", text)) if language == "zh" else len(text.split())
    if not lo <= size <= hi:
        report.error(where, f"text length {size} outside {lo}-{hi} {'chars' if language == 'zh' else 'words'}")


def check_corpus(rows: list[dict[str, Any]], report: Report) -> dict[str, dict[str, Any]]:
    """Per-chunk checks, then the links between a question and its companions / language versions."""
    corpus: dict[str, dict[str, Any]] = {}
    for row in rows:
        _id = row.get("_id")
        where = f"corpus {_id}"
        if not isinstance(_id, str) or not ID_RE.match(_id):
            report.error(where, "missing or malformed _id")
            continue
        if _id in corpus:
            report.error(where, "duplicate _id")
        if set(row) != {"_id", "title", "text", "metadata"}:
            report.error(where, f"keys {sorted(row)} != ['_id', 'metadata', 'text', 'title']")
        meta = row.get("metadata") or {}
        if tuple(meta) != META_FIELDS:
            report.error(where, f"metadata fields {list(meta)} != {list(META_FIELDS)}")
        if not isinstance(row.get("title"), str) or not row["title"].strip():
            report.error(where, "empty title")
        _check_meta(where, meta, report)
        _check_text(where, row.get("text"), meta.get("language"), report)
        corpus[_id] = meta
    for _id, meta in corpus.items():
        base, _, suffix = _id.rpartition(":") if _id.count(":") == 2 else (_id, "", "")
        if not suffix:
            if meta.get("content_type") in COMPANIONS:
                report.error(f"corpus {_id}", f"{meta['content_type']} ids must end in :{meta['content_type']}")
            continue
        if base not in corpus:
            report.error(f"corpus {_id}", f"companion of missing item {base}")
            continue
        key = "content_type" if suffix in COMPANIONS else "language"
        if meta.get(key) != suffix:
            report.error(f"corpus {_id}", f"{key}={meta.get(key)!r} does not match id suffix :{suffix}")
        if {k: v for k, v in meta.items() if k != key} != {k: v for k, v in corpus[base].items() if k != key}:
            report.error(f"corpus {_id}", f"metadata differs from {base} beyond {key}")
    return corpus


def in_scope(meta: dict[str, Any], scope: dict[str, Any] | None) -> bool:
    """Leakage rule of the curriculum README: every non-null scope field must match (lists mean any-of)."""
    if not isinstance(scope, dict):
        return scope is None
    return all(want is None or (meta.get(key) is not None and meta[key] in (want if isinstance(want, list) else [want]))
               for key, want in (scope or {}).items())


def _check_scope(where: str, scope: Any, report: Report, exact_keys: bool) -> None:
    if scope is None:
        return
    keys = set(scope) if isinstance(scope, dict) else {None}
    if not keys <= set(SCOPE_FIELDS) or (exact_keys and keys != set(SCOPE_FIELDS)):
        report.error(where, f"scope must be null or an object with fields {list(SCOPE_FIELDS)}")
        return
    vocab = {"subject": SUBJECTS, "level": LEVELS, "content_type": CONTENT_TYPES, "session": SESSIONS}
    for key, value in scope.items():
        for v in value if isinstance(value, list) else [value]:
            if v is not None and key in vocab and v not in vocab[key]:
                report.error(where, f"non-canonical scope {key}={v!r}")
            if v is not None and key in ("year", "question_number") and type(v) is not int:
                report.error(where, f"scope {key} must be an integer, got {v!r}")


def check_queries(rows: list[dict[str, Any]], report: Report) -> dict[str, dict[str, Any]]:
    queries: dict[str, dict[str, Any]] = {}
    for row in rows:
        qid = row.get("_id")
        if not isinstance(qid, str) or qid in queries:
            report.error(f"query {qid}", "missing or duplicate _id")
            continue
        if not set(row) <= {"_id", "text", "scope"} or not str(row.get("text", "")).strip():
            report.error(f"query {qid}", "needs a non-empty text and only _id/text/scope keys")
        _check_scope(f"query {qid}", row.get("scope"), report, exact_keys=False)
        queries[qid] = row
    return queries


def check_qrels(path: Path, queries: dict[str, dict[str, Any]], corpus: dict[str, dict[str, Any]],
                report: Report) -> int:
    lines = path.read_text(encoding="utf-8").splitlines() or [""]
    if lines[0] != QRELS_HEADER:
        report.error(path.name, f"first line must be the header {QRELS_HEADER!r}")
    seen: set[tuple[str, str]] = set()
    exact: collections.Counter[str] = collections.Counter()
    for n, line in enumerate(lines[1:], 2):
        parts = line.split("\t")
        if len(parts) != 3 or parts[2] not in ("1", "2"):
            report.error(f"{path.name}:{n}", "expected query-id<TAB>corpus-id<TAB>score with score 1 or 2")
            continue
        qid, did, score = parts[0], parts[1], int(parts[2])
        if qid not in queries or did not in corpus:
            report.error(f"{path.name}:{n}", f"unknown {'query' if qid not in queries else 'corpus'} id")
            continue
        if (qid, did) in seen:
            report.error(f"{path.name}:{n}", "duplicate pair")
        seen.add((qid, did))
        exact[qid] += score == 2
        if not in_scope(corpus[did], queries[qid].get("scope")):
            report.error(f"{path.name}:{n}", f"grade-{score} {did} lies outside the scope hint of {qid}")
    for qid in queries:
        if not exact[qid]:
            report.error(f"query {qid}", "has no grade-2 judgement in qrels")
    return len(seen)


def check_cases(rows: list[dict[str, Any]], corpus: dict[str, dict[str, Any]], report: Report) -> None:
    by_target: dict[str, set[str]] = collections.defaultdict(set)
    ids = [r.get("case_id") for r in rows]
    for case in rows:
        cid = case.get("case_id")
        where = f"case {cid}"
        if set(case) != CASE_FIELDS or ids.count(cid) != 1 or not re.match(r"^[a-z0-9_]+\.\d{2}$", str(cid)):
            report.error(where, "needs a unique case_id <family>.<nn> and exactly the fields " + ", ".join(
                sorted(CASE_FIELDS)))
            continue
        if case["slice"] not in SLICES or case["task_type"] not in TASK_TYPES or not str(case["query"]).strip():
            report.error(where, "unknown slice/task_type or empty query")
        _check_scope(where, case["scope"], report, exact_keys=True)
        rel = case["relevant"] if isinstance(case["relevant"], dict) else {}
        for did, grade in rel.items():
            if did not in corpus or grade not in (1, 2):
                report.error(where, f"label {did}={grade!r}: unknown id or grade not 1/2")
        rel = {d: g for d, g in rel.items() if d in corpus}
        _check_scope(where, case["relaxed_scope"], report, exact_keys=True)
        _check_labels(where, case, rel, corpus, report)
        for did in (d for d, g in rel.items() if g == 2):  # question + companions + translations = one target
            by_target[":".join(did.split(":")[:2])].add(cid)
    _check_split_groups(rows, by_target, report)


def _check_labels(where: str, case: dict[str, Any], rel: dict[str, int], corpus: dict[str, dict[str, Any]],
                  report: Report) -> None:
    """Abstention: scope empty, no labels. Relaxation: labels outside scope, inside relaxed_scope. Else inside."""
    relaxed = case["task_type"] == "relaxation"
    if relaxed != (case["relaxed_scope"] is not None):
        report.error(where, "relaxed_scope is required on relaxation cases and must be null otherwise")
    if not rel:  # abstention: nothing exists in the requested scope
        if case["task_type"] != "adversarial" or case["expect_empty_scope"] is not True:
            report.error(where, "empty relevant is only allowed for adversarial abstention cases")
        hits = [d for d, m in corpus.items() if in_scope(m, case["scope"])]
        if hits:
            report.error(where, f"abstention scope is not empty: {hits[:3]}")
    elif 2 not in rel.values():
        report.error(where, "has no grade-2 label")
    if relaxed:
        if case["expect_empty_scope"] is not True:
            report.error(where, "relaxation cases need expect_empty_scope=true")
        for did in rel:
            if in_scope(corpus[did], case["scope"]) or not in_scope(corpus[did], case["relaxed_scope"]):
                report.error(where, f"{did} must lie outside scope and inside relaxed_scope")
    elif rel:
        if case["expect_empty_scope"] is not False:
            report.error(where, "labelled non-relaxation cases need expect_empty_scope=false")
        for did, grade in rel.items():
            if not in_scope(corpus[did], case["scope"]):
                report.error(where, f"grade-{grade} label {did} lies outside the scope")


def _check_split_groups(rows: list[dict[str, Any]], by_target: dict[str, set[str]], report: Report) -> None:
    """split_group = smallest case_id of the component linked by shared grade-2 targets (curriculum README)."""
    parent = {c["case_id"]: c["case_id"] for c in rows if "case_id" in c}

    def find(x: str) -> str:
        return x if parent[x] == x else find(parent[x])

    for linked in by_target.values():
        first, *rest = sorted(linked)
        for other in rest:
            a, b = sorted((find(first), find(other)))
            parent[b] = a
    for case in rows:
        if "case_id" in case and case.get("split_group") != find(case["case_id"]):
            report.error(f"case {case['case_id']}", f"split_group should be {find(case['case_id'])!r}")


def counts_markdown(rows: list[dict[str, Any]], n_queries: int, n_qrels: int, cases: list[dict[str, Any]]) -> str:
    """The README counts block, computed from the files so that it cannot drift from them."""
    out = [f"{len(rows)} chunks, {n_queries} queries, {n_qrels} qrels judgements, {len(cases)} cases.", ""]
    tables = [(f"chunks by {key}", [str((r.get("metadata") or {}).get(key)) for r in rows])
              for key in ("subject", "level", "language", "content_type", "exam_board")]
    tables += [(f"cases by {key}", [str(c.get(key)) for c in cases]) for key in ("slice", "task_type")]
    for title, values in tables:
        out += [f"| {title} | count |", "|---|---|"]
        ranked = sorted(collections.Counter(values).items(), key=lambda kv: (-kv[1], kv[0]))
        out += [f"| {v} | {n} |" for v, n in ranked]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def check_readme(readme: Path, block: str, write: bool, report: Report) -> None:
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    start, end = text.find(COUNTS_START), text.find(COUNTS_END)
    if start < 0 or end < start:
        report.error(readme.name, f"missing the {COUNTS_START} ... {COUNTS_END} block")
        return
    new = text[:start + len(COUNTS_START)] + "\n" + block + text[end:]
    if write and new != text:
        readme.write_text(new, encoding="utf-8")
        LOG.info("rewrote the counts block of %s", readme)
    elif new != text:
        report.error(readme.name, "counts block is stale; rerun with --write-readme")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent, help="folder of the demo files")
    parser.add_argument("--write-readme", action="store_true", help="regenerate the README counts block")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    report = Report()
    paths = {name: args.dir / name for name in ("corpus.jsonl", "queries.jsonl", "qrels.tsv", "cases.jsonl")}
    missing = [str(p) for p in paths.values() if not p.is_file()]
    if missing:
        LOG.error("missing demo file(s): %s", ", ".join(missing))
        return 1
    rows = read_jsonl(paths["corpus.jsonl"], report)
    corpus = check_corpus(rows, report)
    queries = check_queries(read_jsonl(paths["queries.jsonl"], report), report)
    n_qrels = check_qrels(paths["qrels.tsv"], queries, corpus, report)
    cases = read_jsonl(paths["cases.jsonl"], report)
    check_cases(cases, corpus, report)
    check_readme(args.dir / "README.md", counts_markdown(rows, len(queries), n_qrels, cases),
                 args.write_readme, report)
    for problem in report.errors:
        LOG.error("%s", problem)
    if report.errors:
        LOG.error("demo data invalid: %d problem(s) in %s", len(report.errors), args.dir)
        return 1
    LOG.info("demo data OK: %d chunks, %d queries, %d qrels, %d cases", len(corpus), len(queries), n_qrels,
             len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
