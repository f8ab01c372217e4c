"""`chsr ingest` for files: which files under which names; the summary table; --skip-invalid's parse;
run records' citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chsr.v1 import common_pb2, gateway_pb2, ingest_pb2
from tools.cli.ingest_files import PathError, expand, summary_table
from tools.corpus import CorpusError, parse_corpus, read_corpus
from tools.runfile import response_to_record

pytestmark = pytest.mark.unit


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel in ("docs/papers/2019/a.pdf", "docs/papers/b.docx", "docs/books/c.md", "docs/notes.xyz",
                "docs/.hidden/d.md", "docs/.e.md"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    return tmp_path


def test_names_are_relative_to_what_was_named(tree: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tree)
    files, skipped = expand(["docs"])
    assert [f.name for f in files] == ["books/c.md", "papers/2019/a.pdf", "papers/b.docx"]
    assert [p.name for p in skipped] == ["notes.xyz"]
    assert [f.name for f in expand(["docs/papers/2019/a.pdf"])[0]] == ["a.pdf"]
    assert [f.name for f in expand(["docs/**/*.pdf"])[0]] == ["papers/2019/a.pdf"]
    assert [f.name for f in expand(["docs/papers/*.docx"])[0]] == ["b.docx"]
    assert [f.name for f in expand(["docs/papers", "docs/books"], root=tree / "docs")[0]] == \
        ["papers/2019/a.pdf", "papers/b.docx", "books/c.md"]
    assert [f.name for f in expand(["docs/notes.xyz"])[0]] == ["notes.xyz"]  # named explicitly: sent anyway
    assert len(expand(["docs", "docs/books/c.md"])[0]) == 3  # each file once
    with pytest.raises(PathError):
        expand(["docs/none*.pdf"])
    with pytest.raises(PathError):
        expand(["missing"])


def test_summary_table_lists_files_totals_and_reasons():
    ok = gateway_pb2.FileResult(file="a.pdf", chunks=5, written=5, pages=2,
                                fields=[ingest_pb2.FieldProvenance(field="year", value="2019", source="document")],
                                unresolved=["session"])
    same = gateway_pb2.FileResult(file="b.md", chunks=2, unchanged=2)
    bad = gateway_pb2.FileResult(file="c.pdf", error=ingest_pb2.FileError(
        file="c.pdf", reason=ingest_pb2.FILE_ERROR_REASON_ENCRYPTED, detail="the PDF is password-protected"))
    text = summary_table([ok, same, bad], gateway_pb2.IngestFilesSummary(files=3, failed=1, chunks=7, written=5))
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["file", "status", "chunks"]
    assert "a.pdf" in lines[2] and " ok " in lines[2] and "year=2019 (document)" in lines[2]
    assert " unchanged " in lines[3] and " encrypted " in lines[4]
    assert "3 files, 1 failed" in text and "error: c.pdf: encrypted: the PDF is password-protected" in text
    assert "note: a.pdf: unresolved session" in text


def test_parse_corpus_lists_bad_lines_and_read_corpus_refuses_them(tmp_path: Path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"_id": "a", "text": "fine"}\n{"_id": "b", "title": "", "text": ""}\nnot json\n'
                      '{"_id": "a", "text": "again"}\n')
    parsed = parse_corpus(corpus)
    assert [d.id for d in parsed.docs] == ["a"] and len(parsed.errors) == 3
    assert parsed.errors[0].endswith("c.jsonl:2: field 'text': missing or empty")
    with pytest.raises(CorpusError):
        read_corpus(corpus)


def test_run_records_carry_citations():
    cit = common_pb2.Citation(source="p.pdf", page_start=2, page_end=3, heading_path=["A"])
    resp = gateway_pb2.SearchResponse(results=[gateway_pb2.SearchResult(doc_id="x", citation=cit),
                                               gateway_pb2.SearchResult(doc_id="y", citation=common_pb2.Citation(
                                                   source="scifact"))])
    rec = response_to_record("q", resp)
    assert rec["results"][0]["citation"] == {"source": "p.pdf", "page_start": 2, "page_end": 3, "heading_path": ["A"]}
    assert rec["results"][1]["citation"] == {"source": "scifact", "page_start": None, "page_end": None, "heading_path": []}
    json.dumps(rec)
