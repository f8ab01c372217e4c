"""The retriever servicer reads the index generation at most once per TTL, and again after a write."""

from __future__ import annotations

from typing import Iterator, Sequence

import pytest

from services.retrieval import servicer as rs
from chsr.documents import Doc
from services.retrieval.backend import Hit, UpsertResult
from chsr.scope import Scope
from chsr.v1 import retriever_pb2

pytestmark = pytest.mark.unit


class CountingBackend:
    name = "fake"

    def __init__(self) -> None:
        self.generation_calls = 0
        self.gen = 3

    def upsert(self, docs: Sequence[Doc]) -> UpsertResult:
        self.gen += 1
        return UpsertResult(indexed=len(docs), unchanged=0, errors=[])

    def delete(self, ids: Sequence[str]) -> int:
        self.gen += 1
        return len(ids)

    def get(self, ids: Sequence[str]) -> list[Doc]:
        return []

    def count(self) -> int:
        return 0

    def ids(self) -> Iterator[str]:
        return iter(())

    def generation(self) -> int:
        self.generation_calls += 1
        return self.gen

    def details(self) -> dict[str, str]:
        return {}

    def close(self) -> None:
        pass


class FakeLeg:
    models = ("fake",)

    def __init__(self, backend: CountingBackend) -> None:
        self.backend = backend

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str,
               vector: object = None, metadata_only: bool = False) -> list[Hit]:
        return [Hit(doc_id="d1", score=1.0, doc=None)]

    def embed(self, query: str) -> None:
        return None

    def accept_vector(self, vector: object) -> None:
        return None

    def upsert(self, docs: list[Doc]) -> UpsertResult:
        return self.backend.upsert(docs)


def FakeServicer(backend: CountingBackend, probe_interval_s: float) -> rs.RetrieverServicer:  # noqa: N802
    return rs.RetrieverServicer(FakeLeg(backend), probe_interval_s=probe_interval_s)


def _search(servicer: rs.RetrieverServicer) -> retriever_pb2.RetrieveResponse:
    return servicer.Retrieve(retriever_pb2.RetrieveRequest(query="q", k=5), None)  # type: ignore[arg-type]


def test_generation_is_read_once_per_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(rs.time, "monotonic", lambda: clock[0])
    backend = CountingBackend()
    servicer = FakeServicer(backend, probe_interval_s=0)
    assert [_search(servicer).generation for _ in range(5)] == [3] * 5
    assert backend.generation_calls == 1
    clock[0] += rs.GENERATION_TTL_S + 0.01
    backend.gen = 4
    assert _search(servicer).generation == 4
    assert backend.generation_calls == 2


def test_a_write_through_the_server_is_seen_by_the_next_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rs.time, "monotonic", lambda: 50.0)
    backend = CountingBackend()
    servicer = FakeServicer(backend, probe_interval_s=0)
    assert _search(servicer).generation == 3
    servicer.DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=["d1"]), None)  # type: ignore[arg-type]
    assert _search(servicer).generation == 4
