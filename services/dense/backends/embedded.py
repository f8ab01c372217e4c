"""Embedded vector backend: exact (masked matrix product) or HNSW (hnswlib).

Vectors are normalised, so similarity = cosine = dot product in [-1, 1].
Gating is pre-retrieval: exact search masks rows before top-k; HNSW passes the
mask as hnswlib's filter function so the graph walk only returns admissible rows.

Passage mode (``CHSR_DENSE_PASSAGES=maxp``): each document is stored as a block of
passage vectors (one SQLite row per document, the block's rows back to back; ``off`` stores a
block of one) and scored by its best passage (MaxP). Exact search takes the max per document
block, masks documents, then top-k documents; HNSW indexes passages, fetches more passages than
k and groups them by document until k documents are found. The mode is stored with the vectors;
opening a data dir in another mode raises :class:`PassageModeMismatch` unless a ``reencode``
function is given (``python -m tools.reindex_dense``).
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from services.retrieval.columns import MetadataColumns
from chsr.documents import Doc
from services.retrieval.docstore import DocStore, DocStoreBacked
from services.retrieval.backend import Hit, UpsertResult
from chsr.scope import Scope
from chsr.config import PassageMode
from services.dense.passages import parse_passage_mode, storage_key

log = logging.getLogger(__name__)

#: docs -> vectors in the backend's mode: an (n, dim) array (off) or n (n_i, dim) blocks (maxp)
Vectorize = Callable[[Sequence[Doc]], Any]
REENCODE_BATCH = 256


class PassageModeMismatch(RuntimeError):
    """The data dir's vectors were built in another passage mode; mixing would rank unfairly."""


@dataclass(frozen=True)
class _Index:
    docs: list[Doc]
    matrix: np.ndarray                 # (passages, dim); one row per document when off
    starts: np.ndarray | None          # first passage row of each document; None = one row each
    owner: np.ndarray | None           # document row of each passage row; None = identity
    columns: MetadataColumns
    hnsw: Any = None


class EmbeddedDenseBackend(DocStoreBacked):
    name = "embedded-vectors"

    def __init__(self, data_dir: Path, dim: int, index: str = "exact", ef: int = 128, m: int = 16,
                 passages: "str | PassageMode" = PassageMode.OFF, reencode: Vectorize | None = None) -> None:
        root = data_dir / "dense"
        self._store = DocStore(root / "docs.sqlite")
        self._vec_db = sqlite3.connect(str(root / "vectors.sqlite"), check_same_thread=False, isolation_level=None)
        self._vec_db.execute("CREATE TABLE IF NOT EXISTS vec (id TEXT PRIMARY KEY, v BLOB NOT NULL)")
        self._vec_db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._dim, self._index_kind, self._ef, self._m = dim, index, ef, m
        self._mode = parse_passage_mode(passages)
        self._lock = threading.RLock()
        self._built_generation = -1
        self._index = _Index([], np.zeros((0, dim), np.float32), None, None, MetadataColumns([]))
        try:
            self._check_mode(root, reencode)
        except Exception:
            self.close()
            raise

    @property
    def passage_mode(self) -> PassageMode:
        return self._mode

    def _check_mode(self, root: Path, reencode: Vectorize | None) -> None:
        """Record the mode on a fresh dir; on a dir built in another mode re-encode or refuse."""
        row = self._vec_db.execute("SELECT value FROM meta WHERE key='passages'").fetchone()
        has_vectors = self._vec_db.execute("SELECT 1 FROM vec LIMIT 1").fetchone() is not None
        stored = row[0] if row else ("off" if has_vectors else None)  # older data dirs knew only "off"
        wanted = storage_key(self._mode)
        if stored is not None and stored != wanted and has_vectors:
            if reencode is None:
                raise PassageModeMismatch(
                    f"{root} holds dense vectors built with passages={stored!r} but this process runs "
                    f"passages={wanted!r} (CHSR_DENSE_PASSAGES); refusing to mix them. Set "
                    f"CHSR_DENSE_PASSAGES back, re-encode the stored documents with "
                    f"`python -m tools.reindex_dense` (uses the embedding cache), or use an empty CHSR_DATA_DIR.")
            self._reencode_all(reencode)
        self._vec_db.execute("INSERT OR REPLACE INTO meta VALUES ('passages', ?)", (wanted,))

    def _reencode_all(self, vectorize: Vectorize) -> None:
        docs = self._store.all_docs()
        log.warning("re-encoding dense vectors for a new passage mode",
                    extra={"documents": len(docs), "passages": self._mode.value})
        rows: list[tuple[str, bytes]] = []
        for start in range(0, len(docs), REENCODE_BATCH):
            batch = docs[start:start + REENCODE_BATCH]
            blocks = self._blocks(vectorize(batch), len(batch))
            rows.extend((d.id, b.tobytes()) for d, b in zip(batch, blocks))
        with self._lock:
            self._vec_db.execute("BEGIN")
            self._vec_db.execute("DELETE FROM vec")
            self._vec_db.executemany("INSERT INTO vec VALUES (?, ?)", rows)
            self._vec_db.execute("INSERT OR REPLACE INTO meta VALUES ('passages', ?)", (storage_key(self._mode),))
            self._vec_db.execute("COMMIT")
            self._built_generation = -1

    def _blocks(self, vectors: Any, n_docs: int) -> list[np.ndarray]:
        """One float32 ``(n_passages, dim)`` block per document, validated against the mode."""
        if vectors is None or len(vectors) != n_docs:
            raise ValueError("dense upsert needs one vector (off) or one passage block (maxp) per document")
        blocks = []
        for item in vectors:
            block = np.asarray(item, dtype=np.float32)
            block = block.reshape(1, -1) if block.ndim == 1 else block
            if block.ndim != 2 or block.shape[1] != self._dim or block.shape[0] < 1:
                raise ValueError(f"expected {self._dim}-d vectors, got an array of shape {np.shape(item)}")
            if self._mode is PassageMode.OFF and block.shape[0] != 1:
                raise ValueError("passage blocks given but CHSR_DENSE_PASSAGES=off: one vector per document")
            blocks.append(np.ascontiguousarray(block))
        return blocks

    def _rebuild(self, docs: list[Doc]) -> None:
        vecs = dict(self._vec_db.execute("SELECT id, v FROM vec").fetchall())
        blocks = [np.frombuffer(vecs[d.id], np.float32).reshape(-1, self._dim) for d in docs]
        matrix = np.concatenate(blocks) if docs else np.zeros((0, self._dim), np.float32)
        counts = np.array([len(b) for b in blocks], dtype=np.int64)
        starts = owner = None
        if len(matrix) != len(docs):
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
            owner = np.repeat(np.arange(len(docs)), counts)
        hnsw = None
        if docs and self._index_kind == "hnsw":
            import hnswlib
            hnsw = hnswlib.Index(space="ip", dim=self._dim)
            hnsw.init_index(max_elements=len(matrix), ef_construction=200, M=self._m, random_seed=42)
            hnsw.add_items(matrix, np.arange(len(matrix)))
            hnsw.set_ef(self._ef)
        self._index = _Index(docs, matrix, starts, owner, MetadataColumns([d.metadata for d in docs]), hnsw)
        log.info("vector index built", extra={"documents": len(docs), "passages": len(matrix),
                                              "kind": self._index_kind})

    def upsert(self, docs: Sequence[Doc], vectors: Any = None) -> UpsertResult:
        """``vectors``: an ``(n, dim)`` array when off; ``n`` ``(n_passages, dim)`` blocks in maxp."""
        blocks = self._blocks(vectors, len(docs))
        known = self._store.hashes([d.id for d in docs])
        changed = [i for i, d in enumerate(docs) if known.get(d.id) != d.content_hash()]
        if changed:
            with self._lock:
                self._vec_db.execute("BEGIN")
                self._vec_db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)",
                                         [(docs[i].id, blocks[i].tobytes()) for i in changed])
                self._vec_db.execute("COMMIT")
            self._store.put([docs[i] for i in changed])
        return UpsertResult(indexed=len(changed), unchanged=len(docs) - len(changed))

    def delete(self, ids: Sequence[str]) -> int:
        with self._lock:
            self._vec_db.executemany("DELETE FROM vec WHERE id=?", [(i,) for i in ids])
        return self._store.delete(ids)

    def search(self, vector: Sequence[float], flt: Scope, k: int, exact: bool = False,
               with_docs: bool = True, metadata_only: bool = False) -> list[Hit]:
        # Documents are in memory: ``with_docs`` costs nothing here and is ignored.
        self._ensure_index()
        with self._lock:
            idx = self._index
        if not idx.docs or k <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32)
        mask = idx.columns.mask(flt)
        if idx.hnsw is not None and not exact:
            if idx.owner is None:
                return self._search_hnsw(idx.hnsw, idx.docs, q, mask, k)
            return self._search_hnsw_passages(idx, q, mask, k)
        scores = idx.matrix @ q
        if idx.starts is not None:  # MaxP: a document scores its best passage
            scores = np.maximum.reduceat(scores, idx.starts)
        rows = np.arange(len(idx.docs)) if mask is None else np.flatnonzero(mask)
        if rows.size == 0:
            return []
        top = rows[np.argsort(-scores[rows], kind="stable")[:k]]
        return [Hit(doc_id=idx.docs[i].id, score=float(scores[i]), doc=idx.docs[i]) for i in top]

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

    @staticmethod
    def _search_hnsw_passages(idx: _Index, q: np.ndarray, mask: np.ndarray | None, k: int) -> list[Hit]:
        """Fetch ~2x the mean passages per document times k passages, keep each document's best, and
        double the fetch until k distinct documents are found or every admissible passage is in."""
        owner = idx.owner
        assert owner is not None
        n_docs = len(idx.docs)
        allowed_docs = n_docs if mask is None else int(mask.sum())
        if allowed_docs == 0:
            return []
        k = min(k, allowed_docs)
        allowed = len(owner) if mask is None else int(mask[owner].sum())
        filt = None if mask is None else (lambda label: bool(mask[owner[label]]))
        fetch = min(allowed, k * 2 * math.ceil(len(owner) / n_docs))
        while True:
            labels, dists = idx.hnsw.knn_query(q, k=fetch, filter=filt)
            best: dict[int, float] = {}
            for label, dist in zip(labels[0], dists[0]):
                row, score = int(owner[int(label)]), float(1.0 - dist)
                if score > best.get(row, -math.inf):
                    best[row] = score
            if len(best) >= k or fetch >= allowed:
                break
            fetch = min(allowed, fetch * 2)
        top = sorted(best.items(), key=lambda item: -item[1])[:k]
        return [Hit(doc_id=idx.docs[row].id, score=score, doc=idx.docs[row]) for row, score in top]

    def details(self) -> dict[str, str]:
        return {"index": self._index_kind, "dim": str(self._dim), "similarity": "cosine",
                "passages": storage_key(self._mode)}

    def close(self) -> None:
        self._store.close()
        self._vec_db.close()
