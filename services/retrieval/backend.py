"""The small interface every retrieval backend implements (sparse and dense).

Backends: ``services/sparse/backends/{embedded,elasticsearch}.py`` and
``services/dense/backends/{embedded,weaviate}.py``. Upserts are idempotent by
document id; an unchanged content hash is counted as ``unchanged``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Protocol, Sequence

from chsr.config import PassageMode
from chsr.documents import Doc
from chsr.errors import Unavailable
from chsr.scope import Scope


@dataclass(frozen=True)
class Hit:
    doc_id: str
    score: float
    doc: Doc | None = None


@dataclass(frozen=True)
class StoredEntry:
    """One stored document as a listing shows it: enough to plan a re-ingest or verify backends."""

    doc_id: str
    content_hash: str
    source: str = ""   # metadata.source; "" when unset


@dataclass
class ItemFailure:
    doc_id: str
    field: str
    message: str


@dataclass
class UpsertResult:
    indexed: int = 0
    unchanged: int = 0
    errors: list[ItemFailure] = field(default_factory=list)


class BackendUnavailable(Unavailable):
    """The engine behind a backend cannot be reached (UNAVAILABLE)."""


class RetrievalBackend(Protocol):
    """Common part of sparse and dense backends."""

    name: str

    def upsert(self, docs: Sequence[Doc]) -> UpsertResult: ...

    def delete(self, ids: Sequence[str]) -> int: ...

    def get(self, ids: Sequence[str]) -> list[Doc]: ...

    def count(self) -> int: ...

    def ids(self) -> Iterator[str]: ...

    def entries(self, source: str = "") -> Iterator[StoredEntry]:
        """Every stored document's id, content hash and source; only ``source``'s when given."""
        ...

    def generation(self) -> int: ...

    def details(self) -> dict[str, str]: ...

    def close(self) -> None: ...


class RetrievalLeg(Protocol):
    """What a retrieval service plugs into :class:`services.retrieval.servicer.RetrieverServicer`:
    how a query is scored and how a document is indexed; storage is its ``backend``."""

    backend: RetrievalBackend
    #: Scoring models this leg offers (``RetrieveRequest.model``); the first is the default.
    models: tuple[str, ...]

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str,
               vector: Sequence[float] | None = None, metadata_only: bool = False) -> list[Hit]:
        """``vector``: the query's embedding from an earlier call of the same request (dense legs search
        with it instead of encoding ``query``; lexical legs ignore it)."""
        ...

    def embed(self, query: str) -> Sequence[float] | None:
        """The query's embedding, for the request's later calls; None for a leg that does not embed."""
        ...

    def accept_vector(self, vector: Sequence[float]) -> Sequence[float] | None:
        """A vector the request carries (``RetrieveRequest.query_vector``), checked (INVALID_ARGUMENT when it
        does not fit this leg's encoder); None for a leg that does not embed (it ignores the vector)."""
        ...

    def upsert(self, docs: list[Doc]) -> UpsertResult: ...


class SparseBackend(RetrievalBackend, Protocol):
    def search(self, query: str, flt: Scope, k: int, with_docs: bool = True,
               metadata_only: bool = False) -> list[Hit]:
        """Top ``k`` admitted by ``flt``; ``with_docs=False`` lets an engine skip fetching stored
        fields (``Hit.doc`` may then be None): the gateway hydrates only the fused top;
        ``metadata_only`` asks for each hit's curriculum fields without its text (the gate's probe)."""
        ...


class DenseBackend(RetrievalBackend, Protocol):
    passage_mode: "PassageMode"  # how documents are vectorised (one vector, or MaxP passages)

    def upsert(self, docs: Sequence[Doc], vectors: Sequence[Any]) -> UpsertResult: ...  # type: ignore[override]

    def search(self, vector: "Sequence[float]", flt: Scope, k: int, exact: bool = False,
               with_docs: bool = True, metadata_only: bool = False) -> list[Hit]: ...
