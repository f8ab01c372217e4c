"""The sparse leg: BM25 over the configured backend (embedded bm25s or Elasticsearch)."""

from __future__ import annotations

from chsr.documents import Doc
from chsr.scope import Scope
from services.retrieval.backend import Hit, SparseBackend, UpsertResult


class SparseLeg:
    models: tuple[str, ...] = ("bm25",)

    def __init__(self, backend: SparseBackend) -> None:
        self.backend = backend

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str) -> list[Hit]:
        return self.backend.search(query, flt, k, with_docs=with_docs)

    def upsert(self, docs: list[Doc]) -> UpsertResult:
        return self.backend.upsert(docs)
