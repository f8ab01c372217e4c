"""The embedded doc store keeps citations and lists one source's chunks; an older data dir is upgraded in place."""

from __future__ import annotations

import json
import sqlite3

import pytest

from chsr.documents import Citation, Doc
from services.retrieval.docstore import DocStore

pytestmark = pytest.mark.unit


def test_citations_survive_and_sources_are_listed(tmp_path):
    store = DocStore(tmp_path / "docs.sqlite")
    cited = Doc(id="f:q1", text="q", metadata={"source": "a.pdf"}, citation=Citation(source="a.pdf", page_start=1),
                chunking="d1")
    store.put([cited, Doc(id="c1", text="corpus line", metadata={"source": "demo"}), Doc(id="c2", text="no source")])
    assert store.get(["f:q1"]) == [cited] and store.get(["c1"])[0].citation is None
    assert [(e.doc_id, e.source) for e in store.entries("a.pdf")] == [("f:q1", "a.pdf")]
    assert {e.doc_id: e.content_hash for e in store.entries()} == store.hashes(["f:q1", "c1", "c2"])
    assert [e.source for e in store.entries()] == ["a.pdf", "demo", ""]


def test_a_data_dir_from_before_citations_is_upgraded(tmp_path):
    path = tmp_path / "docs.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE docs (id TEXT PRIMARY KEY, hash TEXT NOT NULL, title TEXT, text TEXT, metadata TEXT,"
               " seq INTEGER NOT NULL)")
    db.execute("INSERT INTO docs VALUES ('old', 'h', '', 'old text', ?, 1)", (json.dumps({"source": "demo"}),))
    db.commit()
    db.close()
    store = DocStore(path)
    assert store.get(["old"])[0].text == "old text" and [e.doc_id for e in store.entries("demo")] == ["old"]
    store.put([Doc(id="new", text="t", citation=Citation(source="n.md"))])
    assert store.get(["new"])[0].citation == Citation(source="n.md")
