"""The graph leg: knowledge-graph retrieval (seed 003 #14) behind the shared RetrieverService."""

from __future__ import annotations

from collections.abc import Sequence

from chsr.documents import Doc
from chsr.scope import Scope
from services.graph.backend import GraphBackend
from services.retrieval.backend import Hit, UpsertResult


class GraphLeg:
    models: tuple[str, ...] = ("kg",)

    def __init__(self, backend: GraphBackend) -> None:
        self.backend = backend

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str,
               vector: Sequence[float] | None = None, metadata_only: bool = False) -> list[Hit]:
        return self.backend.search(query, flt, k)

    def embed(self, query: str) -> None:
        return None

    def accept_vector(self, vector: object) -> None:
        return None  # lexical: nothing to carry between calls

    def upsert(self, docs: list[Doc]) -> UpsertResult:
        return self.backend.upsert(docs)
