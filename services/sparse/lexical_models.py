"""The sparse server's in-server models (TF-IDF, PPMI) over one snapshot of its corpus.

BM25 is scored by the backend itself (bm25s or Elasticsearch). TF-IDF and PPMI are computed here,
over the same documents, on either backend: Elasticsearch has no classic TF-IDF similarity (removed
in 7.0) and the engine we run carries no script module, so its ``scripted`` similarity is not
available either (docs/decisions.md, "TF-IDF and PPMI on the engines backend"). A snapshot is
rebuilt when the backend's index generation moves; each model is built on its first query.
Filters are the same row mask the embedded backends use, applied before top-k.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from chsr.documents import Doc
from chsr.errors import FailedPrecondition
from chsr.scope import Scope
from chsr.text import tokenize
from services.retrieval.backend import Hit
from services.retrieval.columns import MetadataColumns
from services.retrieval.topk import masked_top_k
from services.sparse.ppmi import PpmiIndex
from services.sparse.tfidf import TfidfIndex

log = logging.getLogger(__name__)
MODELS = ("tfidf", "ppmi")
#: How often the backend's generation is re-read (a write through this server resets it at once).
GENERATION_TTL_S = 1.0


@dataclass
class CorpusSnapshot:
    """Documents (in index order) and their tokens at one index generation."""

    generation: int
    docs: list[Doc]
    tokens: list[list[str]] | None = None
    columns: MetadataColumns = field(init=False)
    _built: dict[str, object] = field(default_factory=dict)
    build_seconds: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.columns = MetadataColumns([d.metadata for d in self.docs])

    def model(self, name: str) -> TfidfIndex | PpmiIndex:
        if name not in self._built:
            if not self.docs:
                raise FailedPrecondition(f"model '{name}': the index holds no documents; ingest a corpus first")
            started = time.perf_counter()
            if self.tokens is None:
                self.tokens = [tokenize(d.full_text) for d in self.docs]
            self._built[name] = TfidfIndex.build(self.tokens) if name == "tfidf" else PpmiIndex.build(self.tokens)
            self.build_seconds[name] = time.perf_counter() - started
            log.info("lexical model built", extra={"model": name, "documents": len(self.docs),
                                                   "seconds": round(self.build_seconds[name], 3)})
        return self._built[name]  # type: ignore[return-value]


class LexicalModels:
    """TF-IDF / PPMI search over snapshots taken from ``snapshot()``; ``generation()`` says when to retake."""

    def __init__(self, snapshot: Callable[[], CorpusSnapshot], generation: Callable[[], int]) -> None:
        self._take = snapshot
        self._generation = generation
        self._snap: CorpusSnapshot | None = None
        self._checked = -1.0
        self._lock = threading.RLock()

    def invalidate(self) -> None:
        """Re-read the generation on the next search (called after a write through this server)."""
        self._checked = -1.0

    def current(self) -> CorpusSnapshot:
        with self._lock:
            now = time.monotonic()
            if self._snap is None or self._checked < 0 or now - self._checked > GENERATION_TTL_S:
                generation = self._generation()
                if self._snap is None or generation != self._snap.generation:
                    self._snap = self._take()
                self._checked = now
            return self._snap

    def search(self, model: str, query: str, flt: Scope, k: int) -> list[Hit]:
        with self._lock:
            snap = self.current()
            index = snap.model(model)
        scores = index.scores(tokenize(query)).astype(np.float32)
        return top_k(scores, snap, flt, k)

    def details(self) -> dict[str, str]:
        snap = self._snap
        if snap is None:
            return {}
        return {f"{m}_build_s": f"{s:.3f}" for m, s in snap.build_seconds.items()}


def top_k(scores: np.ndarray, snap: CorpusSnapshot, flt: Scope, k: int) -> list[Hit]:
    """The ``k`` best positive scores among rows the filter admits (mask before top-k)."""
    return masked_top_k(scores, snap.docs, snap.columns, flt, k)


def docs_tokens(docs: Sequence[Doc]) -> list[list[str]]:
    return [tokenize(d.full_text) for d in docs]
