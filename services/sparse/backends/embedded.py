"""Embedded BM25 backend: bm25s over a durable SQLite document table.

bm25s ("fast and simple", NumPy-first) has no incremental add, so the index
is rebuilt lazily on the first search after a change. Gating is a row mask
applied to the full score vector before top-k (pre-retrieval gating).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Iterator, Sequence

import bm25s
import numpy as np

from services.retrieval.columns import MetadataColumns
from chsr.documents import Doc
from services.retrieval.docstore import DocStore, DocStoreBacked
from services.retrieval.backend import Hit, UpsertResult
from services.sparse.lexical_models import CorpusSnapshot
from chsr.scope import Scope
from chsr.text import TOKENIZER, tokenize

log = logging.getLogger(__name__)


class EmbeddedSparseBackend(DocStoreBacked):
    name = "embedded-bm25"

    def __init__(self, data_dir: Path, k1: float = 1.2, b: float = 0.75) -> None:
        self._store = DocStore(data_dir / "sparse" / "docs.sqlite")
        self._k1, self._b = k1, b
        self._lock = threading.RLock()
        self._built_generation = -1
        self._retriever: bm25s.BM25 | None = None
        self._docs: list[Doc] = []
        self._tokens: list[list[str]] = []
        self._columns = MetadataColumns([])

    # ---- index maintenance ---------------------------------------------
    def _rebuild(self, docs: list[Doc]) -> None:
        retriever = None
        tokens = [tokenize(d.full_text) for d in docs]
        if docs:
            retriever = bm25s.BM25(k1=self._k1, b=self._b)
            retriever.index(tokens, show_progress=False)
        self._docs, self._tokens, self._retriever = docs, tokens, retriever
        self._columns = MetadataColumns([d.metadata for d in docs])
        log.info("bm25 index built", extra={"documents": len(docs)})

    def upsert(self, docs: Sequence[Doc]) -> UpsertResult:
        known = self._store.hashes([d.id for d in docs])
        changed = [d for d in docs if known.get(d.id) != d.content_hash()]
        self._store.put(changed)
        return UpsertResult(indexed=len(changed), unchanged=len(docs) - len(changed))

    def delete(self, ids: Sequence[str]) -> int:
        return self._store.delete(ids)

    # ---- queries ---------------------------------------------------------
    def search(self, query: str, flt: Scope, k: int, with_docs: bool = True,
               metadata_only: bool = False) -> list[Hit]:
        # Documents are in memory: ``with_docs`` costs nothing here and is ignored.
        self._ensure_index()
        with self._lock:
            retriever, docs, columns = self._retriever, self._docs, self._columns
        if retriever is None or k <= 0:
            return []
        tokens = tokenize(query)
        if not tokens:
            return []
        scores = retriever.get_scores(tokens).astype(np.float32)
        mask = columns.mask(flt)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        candidates = np.flatnonzero(scores > 0)
        if candidates.size == 0:
            return []
        top = candidates[np.argsort(-scores[candidates], kind="stable")[:k]]
        return [Hit(doc_id=docs[i].id, score=float(scores[i]), doc=docs[i]) for i in top]

    def snapshot(self) -> CorpusSnapshot:
        """The indexed documents and their tokens, for the TF-IDF and PPMI models."""
        self._ensure_index()
        with self._lock:
            return CorpusSnapshot(self._built_generation, list(self._docs), list(self._tokens))

    def details(self) -> dict[str, str]:
        return {"k1": str(self._k1), "b": str(self._b), "tokenizer": TOKENIZER}

    def close(self) -> None:
        self._store.close()
