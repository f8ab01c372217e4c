"""The retriever servicer reads the index generation at most once per TTL, and again after a write."""

from __future__ import annotations

from typing import Iterator, Sequence

import pytest

from chsr import retriever_servicer as rs
from chsr.docs import Doc
from chsr.retrieval import Hit, UpsertResult
from chsr.scope import Scope
from chsr.v1 import common_pb2

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


class FakeServicer(rs.RetrieverServicer):
    def _search(self, query: str, flt: Scope, k: int, exact: bool, with_docs: bool = True) -> list[Hit]:
        return [Hit(doc_id="d1", score=1.0, doc=None)]

    def _upsert(self, docs: list[Doc]) -> UpsertResult:
        return self.backend.upsert(docs)


class Ctx:
    def abort(self, code, details):  # type: ignore[no-untyped-def]
        raise AssertionError(f"unexpected abort {code}: {details}")


def _search(servicer: FakeServicer) -> common_pb2.RetrieveResponse:
    return servicer.Search(common_pb2.RetrieveRequest(query="q", k=5), Ctx())


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
    servicer.Delete(common_pb2.DeleteRequest(doc_ids=["d1"]), Ctx())
    assert _search(servicer).generation == 4
