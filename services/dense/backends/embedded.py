"""Embedded vector backend: exact (masked matrix product) or HNSW (hnswlib).

Vectors are normalised, so similarity = cosine = dot product in [-1, 1].
Gating is pre-retrieval: exact search masks rows before top-k; HNSW passes the
mask as hnswlib's filter function so the graph walk only returns admissible rows.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from chsr.columns import MetadataColumns
from chsr.docs import Doc
from chsr.docstore import DocStore
from chsr.retrieval import Hit, UpsertResult
from chsr.scope import Scope

log = logging.getLogger(__name__)


class EmbeddedDenseBackend:
    name = "embedded-vectors"

    def __init__(self, data_dir: Path, dim: int, index: str = "exact", ef: int = 128, m: int = 16) -> None:
        root = data_dir / "dense"
        self._store = DocStore(root / "docs.sqlite")
        self._vec_db = sqlite3.connect(str(root / "vectors.sqlite"), check_same_thread=False, isolation_level=None)
        self._vec_db.execute("CREATE TABLE IF NOT EXISTS vec (id TEXT PRIMARY KEY, v BLOB NOT NULL)")
        self._dim, self._index_kind, self._ef, self._m = dim, index, ef, m
        self._lock = threading.RLock()
        self._built_generation = -1
        self._docs: list[Doc] = []
        self._matrix = np.zeros((0, dim), np.float32)
        self._columns = MetadataColumns([])
        self._hnsw = None

    def _ensure_index(self) -> None:
        generation = self._store.generation()
        if generation == self._built_generation:
            return
        with self._lock:
            if generation == self._built_generation:
                return
            docs = self._store.all_docs()
            vecs = dict(self._vec_db.execute("SELECT id, v FROM vec").fetchall())
            matrix = np.stack([np.frombuffer(vecs[d.id], np.float32) for d in docs]) if docs else \
                np.zeros((0, self._dim), np.float32)
            hnsw = None
            if docs and self._index_kind == "hnsw":
                import hnswlib
                hnsw = hnswlib.Index(space="ip", dim=self._dim)
                hnsw.init_index(max_elements=len(docs), ef_construction=200, M=self._m, random_seed=42)
                hnsw.add_items(matrix, np.arange(len(docs)))
                hnsw.set_ef(self._ef)
            self._docs, self._matrix, self._hnsw = docs, matrix, hnsw
            self._columns = MetadataColumns([d.metadata for d in docs])
            self._built_generation = generation
            log.info("vector index built", extra={"documents": len(docs), "kind": self._index_kind})

    def upsert(self, docs: Sequence[Doc], vectors: np.ndarray | None = None) -> UpsertResult:
        if vectors is None or len(vectors) != len(docs):
            raise ValueError("dense upsert needs one vector per document")
        known = self._store.hashes([d.id for d in docs])
        changed = [i for i, d in enumerate(docs) if known.get(d.id) != d.content_hash()]
        if changed:
            with self._lock:
                self._vec_db.execute("BEGIN")
                self._vec_db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)",
                                         [(docs[i].id, vectors[i].astype(np.float32).tobytes()) for i in changed])
                self._vec_db.execute("COMMIT")
            self._store.put([docs[i] for i in changed])
        return UpsertResult(indexed=len(changed), unchanged=len(docs) - len(changed))

    def delete(self, ids: Sequence[str]) -> int:
        with self._lock:
            self._vec_db.executemany("DELETE FROM vec WHERE id=?", [(i,) for i in ids])
        return self._store.delete(ids)

    def search(self, vector: Sequence[float], flt: Scope, k: int, exact: bool = False) -> list[Hit]:
        self._ensure_index()
        with self._lock:
            docs, matrix, columns, hnsw = self._docs, self._matrix, self._columns, self._hnsw
        if not docs or k <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32)
        mask = columns.mask(flt)
        if hnsw is not None and not exact:
            return self._search_hnsw(hnsw, docs, q, mask, k)
        scores = matrix @ q
        rows = np.arange(len(docs)) if mask is None else np.flatnonzero(mask)
        if rows.size == 0:
            return []
        top = rows[np.argsort(-scores[rows], kind="stable")[:k]]
        return [Hit(doc_id=docs[i].id, score=float(scores[i]), doc=docs[i]) for i in top]

    @staticmethod
    def _search_hnsw(hnsw, docs: list[Doc], q: np.ndarray, mask: np.ndarray | None, k: int) -> list[Hit]:
        allowed = len(docs) if mask is None else int(mask.sum())
        if allowed == 0:
            return []
        k = min(k, allowed)
        filt = None if mask is None else (lambda label: bool(mask[label]))
        labels, dists = hnsw.knn_query(q, k=k, filter=filt)
        return [Hit(doc_id=docs[int(i)].id, score=float(1.0 - d), doc=docs[int(i)])
                for i, d in zip(labels[0], dists[0])]

    def get(self, ids: Sequence[str]) -> list[Doc]:
        return self._store.get(ids)

    def count(self) -> int:
        return self._store.count()

    def ids(self) -> Iterator[str]:
        return self._store.ids()

    def generation(self) -> int:
        return self._store.generation()

    def details(self) -> dict[str, str]:
        return {"index": self._index_kind, "dim": str(self._dim), "similarity": "cosine"}

    def close(self) -> None:
        self._store.close()
        self._vec_db.close()
