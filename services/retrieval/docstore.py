"""A durable document table (SQLite) used by the embedded backends.

It holds each document, its content hash and a monotonically increasing
generation, so indexes survive restarts and re-ingesting unchanged text is a
no-op. A chunk's citation and chunking digest live in the ``extra`` JSON column (added
in place to a data dir made before it existed); ``metadata.source`` is indexed, so the
chunks of one ingested file are listed without a scan.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Iterator, Sequence

from chsr.documents import Citation, Doc
from services.retrieval.backend import StoredEntry

_COLUMNS = "id, hash, title, text, metadata, seq, extra"
_SOURCE = "json_extract(metadata, '$.source')"


class DocStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, hash TEXT NOT NULL, title TEXT, text TEXT,"
            " metadata TEXT, seq INTEGER NOT NULL)"
        )
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('generation', 0), ('seq', 0)")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(docs)")}
        if "extra" not in columns:  # a data dir from before citations
            self._db.execute("ALTER TABLE docs ADD COLUMN extra TEXT")
        self._db.execute(f"CREATE INDEX IF NOT EXISTS docs_source ON docs ({_SOURCE})")

    def _meta(self, key: str) -> int:
        return int(self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()[0])

    def generation(self) -> int:
        with self._lock:
            return self._meta("generation")

    def hashes(self, ids: Sequence[str]) -> dict[str, str]:
        with self._lock:
            out: dict[str, str] = {}
            for start in range(0, len(ids), 500):
                chunk = list(ids[start:start + 500])
                marks = ",".join("?" * len(chunk))
                out.update(self._db.execute(f"SELECT id, hash FROM docs WHERE id IN ({marks})", chunk).fetchall())
            return out

    def put(self, docs: Sequence[Doc]) -> None:
        """Insert or replace ``docs`` in one transaction and bump the generation."""
        if not docs:
            return
        with self._lock:
            seq = self._meta("seq")
            rows = []
            for doc in docs:
                seq += 1
                rows.append((doc.id, doc.content_hash(), doc.title, doc.text,
                             json.dumps(doc.metadata, ensure_ascii=False), seq, _extra(doc)))
            self._db.execute("BEGIN")
            self._db.executemany(f"INSERT OR REPLACE INTO docs ({_COLUMNS}) VALUES (?,?,?,?,?,?,?)", rows)
            self._db.execute("UPDATE meta SET value=? WHERE key='seq'", (seq,))
            self._db.execute("UPDATE meta SET value=value+1 WHERE key='generation'")
            self._db.execute("COMMIT")

    def delete(self, ids: Sequence[str]) -> int:
        with self._lock:
            self._db.execute("BEGIN")
            cur = self._db.executemany("DELETE FROM docs WHERE id=?", [(i,) for i in ids])
            deleted = cur.rowcount
            if deleted:
                self._db.execute("UPDATE meta SET value=value+1 WHERE key='generation'")
            self._db.execute("COMMIT")
            return max(deleted, 0)

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM docs").fetchone()[0])

    def ids(self) -> Iterator[str]:
        with self._lock:
            rows = self._db.execute("SELECT id FROM docs ORDER BY seq").fetchall()
        for (doc_id,) in rows:
            yield doc_id

    def entries(self, source: str = "") -> Iterator[StoredEntry]:
        """Id, content hash and source of every document (of ``source`` only, when given)."""
        where, args = (f" WHERE {_SOURCE} = ?", (source,)) if source else ("", ())
        with self._lock:
            rows = self._db.execute(f"SELECT id, hash, {_SOURCE} FROM docs{where} ORDER BY seq", args).fetchall()
        for doc_id, digest, src in rows:
            yield StoredEntry(doc_id, digest, src or "")

    def all_docs(self) -> list[Doc]:
        """Every document in insertion order (used to (re)build in-memory indexes)."""
        with self._lock:
            rows = self._db.execute("SELECT id, title, text, metadata, extra FROM docs ORDER BY seq").fetchall()
        return [_doc(r) for r in rows]

    def get(self, ids: Sequence[str]) -> list[Doc]:
        with self._lock:
            found: dict[str, Doc] = {}
            for start in range(0, len(ids), 500):
                chunk = list(ids[start:start + 500])
                marks = ",".join("?" * len(chunk))
                for r in self._db.execute(
                        f"SELECT id, title, text, metadata, extra FROM docs WHERE id IN ({marks})", chunk):
                    found[r[0]] = _doc(r)
        return [found[i] for i in ids if i in found]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _extra(doc: Doc) -> str | None:
    if doc.citation is None and not doc.chunking:
        return None
    return json.dumps({"citation": doc.citation.to_dict() if doc.citation else None, "chunking": doc.chunking},
                      ensure_ascii=False)


def _doc(row: Sequence) -> Doc:  # type: ignore[type-arg]
    extra = json.loads(row[4]) if row[4] else {}
    return Doc(id=row[0], title=row[1] or "", text=row[2], metadata=json.loads(row[3]),
               citation=Citation.from_dict(extra.get("citation")), chunking=extra.get("chunking") or "")


class DocStoreBacked:
    """What both embedded backends share: the reads their ``_store`` answers, and an in-memory
    index rebuilt from the store whenever its generation moved (a write, here or in another
    process over the same data dir). Subclasses set ``_store``, ``_lock`` and
    ``_built_generation = -1`` and implement :meth:`_rebuild`."""

    _store: DocStore
    _lock: threading.RLock
    _built_generation: int

    def _rebuild(self, docs: list[Doc]) -> None:
        raise NotImplementedError

    def warm(self) -> None:
        """Build the in-memory index now (at start-up), so the first search does not pay for it: on the
        curriculum corpus ~1-2 s, longer than a probe's deadline."""
        self._ensure_index()

    def _ensure_index(self) -> None:
        generation = self._store.generation()
        if generation == self._built_generation:
            return
        with self._lock:
            if generation == self._built_generation:
                return
            self._rebuild(self._store.all_docs())
            self._built_generation = generation

    def get(self, ids: Sequence[str]) -> list[Doc]:
        return self._store.get(ids)

    def count(self) -> int:
        return self._store.count()

    def ids(self) -> Iterator[str]:
        return self._store.ids()

    def entries(self, source: str = "") -> Iterator[StoredEntry]:
        return self._store.entries(source)

    def generation(self) -> int:
        return self._store.generation()
