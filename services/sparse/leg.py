"""The sparse leg: BM25 by the configured backend (embedded bm25s or Elasticsearch), and the
in-server lexical models TF-IDF and PPMI (seed 003 #2, #9) over the same documents."""

from __future__ import annotations

from collections.abc import Sequence

from chsr.documents import Doc
from chsr.scope import Scope
from services.retrieval.backend import Hit, SparseBackend, UpsertResult
from services.sparse.lexical_models import LexicalModels


class SparseLeg:
    models: tuple[str, ...] = ("bm25", "tfidf", "ppmi")

    def __init__(self, backend: SparseBackend) -> None:
        self.backend = backend
        self.lexical = LexicalModels(backend.snapshot, backend.generation)  # type: ignore[attr-defined]

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str,
               vector: Sequence[float] | None = None, metadata_only: bool = False) -> list[Hit]:
        if model == "bm25":
            return self.backend.search(query, flt, k, with_docs=with_docs, metadata_only=metadata_only)
        return self.lexical.search(model, query, flt, k)

    def embed(self, query: str) -> None:
        return None

    def accept_vector(self, vector: object) -> None:
        return None  # lexical: nothing to carry between calls

    def upsert(self, docs: list[Doc]) -> UpsertResult:
        try:
            return self.backend.upsert(docs)
        finally:
            self.lexical.invalidate()
