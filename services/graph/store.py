"""Durable graph storage: documents (the shared SQLite :class:`DocStore`) and, beside them, each
document's extracted entities and relations keyed by its content hash.

Extraction runs at ingest (:meth:`GraphStore.put`), so a restart loads the graph without
re-reading any text; an update replaces a document's rows, a delete removes them. A document whose
extraction row is missing or stale (an interrupted write, an older data dir) is re-extracted on
the next load, so the two tables cannot drift apart for long.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Sequence

from chsr.documents import Doc
from services.graph.extract import Extraction, extract
from services.retrieval.docstore import DocStore


def _encode(ex: Extraction) -> str:
    return json.dumps({"e": dict(ex.entities), "s": ex.surfaces, "r": ex.relations}, ensure_ascii=False)


def _decode(raw: str) -> Extraction:
    obj = json.loads(raw)
    out = Extraction()
    out.entities.update(obj["e"])
    out.surfaces.update(obj["s"])
    out.relations.extend(tuple(r) for r in obj["r"])  # type: ignore[misc]
    return out


class GraphStore:
    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.docs = DocStore(root / "docs.sqlite")
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(root / "graph.sqlite"), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS extraction (id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL)")

    def put(self, docs: Sequence[Doc]) -> None:
        """Extract and store ``docs`` (new or changed), then store the documents."""
        rows = [(d.id, d.content_hash(), _encode(extract(d.full_text))) for d in docs]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO extraction VALUES (?,?,?)", rows)
            self._db.execute("COMMIT")
        self.docs.put(docs)

    def delete(self, ids: Sequence[str]) -> int:
        deleted = self.docs.delete(ids)
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("DELETE FROM extraction WHERE id=?", [(i,) for i in ids])
            self._db.execute("COMMIT")
        return deleted

    def extractions(self, docs: Sequence[Doc]) -> list[Extraction]:
        """Each document's stored extraction; missing or stale ones are extracted and stored now."""
        with self._lock:
            stored = {r[0]: (r[1], r[2]) for r in self._db.execute("SELECT id, hash, data FROM extraction")}
        out: list[Extraction] = []
        repaired = []
        for d in docs:
            row = stored.get(d.id)
            if row is not None and row[0] == d.content_hash():
                out.append(_decode(row[1]))
            else:
                ex = extract(d.full_text)
                out.append(ex)
                repaired.append((d.id, d.content_hash(), _encode(ex)))
        if repaired:
            with self._lock:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR REPLACE INTO extraction VALUES (?,?,?)", repaired)
                self._db.execute("COMMIT")
        return out

    def extracted_count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM extraction").fetchone()[0])

    def close(self) -> None:
        self.docs.close()
        with self._lock:
            self._db.close()
