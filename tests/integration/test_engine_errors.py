"""Engine adapters' error paths: per-item ingest errors, and fail-fast when an engine is unreachable.

(Stopping an engine mid-run is issue 7's fault matrix; here the engines are either healthy or
were never there.)
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from chsr.documents import Doc
from services.retrieval.backend import BackendUnavailable
from chsr.scope import Scope

pytestmark = pytest.mark.integration

FAIL_FAST_S = 3.0  # well under the gateway's 5 s default deadline


def _doc(doc_id: str, **meta: object) -> Doc:
    return Doc(id=doc_id, title="Probe", text=f"probe document {doc_id}", metadata=dict(meta))


@pytest.mark.elasticsearch
def test_es_bulk_reports_failed_items_and_keeps_the_rest(es_url: str, run_id: str) -> None:
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    backend = ElasticsearchSparseBackend(es_url, f"chsr-test-{run_id}-errors")
    try:
        result = backend.upsert([_doc("ok", subject="physics", year=2019), _doc("bad", year=10**12)])
        assert result.indexed == 1 and result.unchanged == 0
        assert [(e.doc_id, e.field) for e in result.errors] == [("bad", "metadata.year")]
        assert "integer" in result.errors[0].message or "range" in result.errors[0].message
        assert backend.count() == 1 and [d.id for d in backend.get(["ok", "bad"])] == ["ok"]
        assert backend.details()["analyzer"]  # the chosen analyzer is reported by Stats
    finally:
        backend.drop()
        backend.close()


@pytest.mark.weaviate
def test_weaviate_batch_reports_failed_objects(weaviate_addrs: tuple[str, str], run_id: str) -> None:
    from services.dense.backends.weaviate import WeaviateDenseBackend

    http, grpc_addr = weaviate_addrs
    name = f"ChsrTest{run_id}Errors"
    backend = WeaviateDenseBackend(http, grpc_addr, name, 4)
    wrong_dim = WeaviateDenseBackend(http, grpc_addr, name, 3)  # same collection, mis-configured writer
    try:
        vec = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], np.float32)
        assert backend.upsert([_doc("a", subject="physics"), _doc("b")], vec).indexed == 2
        result = backend.upsert([_doc("c"), _doc("d")], np.array([[1.0, 0, 0, 0], [1.0, 0, 0]], dtype=object))
        assert result.indexed == 1 and [(e.doc_id, e.field) for e in result.errors] == [("d", "vector")]
        server_side = wrong_dim.upsert([_doc("e")], np.array([[1.0, 0.0, 0.0]], np.float32))
        assert server_side.indexed == 0 and [e.doc_id for e in server_side.errors] == ["e"]
        assert backend.count() == 3
        hits = backend.search([1.0, 0.0, 0.0, 0.0], Scope.from_dict({"subject": "physics"}), 10)
        assert [h.doc_id for h in hits] == ["a"] and abs(hits[0].score - 1.0) < 1e-5
    finally:
        backend.drop()
        backend.close()
        wrong_dim.close()


def _assert_fails_fast(call) -> None:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    with pytest.raises(BackendUnavailable):
        call()
    assert time.perf_counter() - start < FAIL_FAST_S


def test_es_unreachable_is_backend_unavailable_fast(closed_port: int) -> None:
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    backend = ElasticsearchSparseBackend(f"http://127.0.0.1:{closed_port}", "chsr-nowhere")
    for call in (lambda: backend.search("energy", Scope(), 5), backend.count, backend.generation,
                 lambda: backend.upsert([_doc("x")]), lambda: list(backend.ids())):
        _assert_fails_fast(call)
    backend.close()


def test_weaviate_unreachable_is_backend_unavailable_fast(closed_ports: tuple[int, int]) -> None:
    from services.dense.backends.weaviate import WeaviateDenseBackend

    backend = WeaviateDenseBackend(*(f"127.0.0.1:{p}" for p in closed_ports), "ChsrNowhere", 4)
    for call in (lambda: backend.search([1.0, 0, 0, 0], Scope(), 5), backend.count, backend.generation,
                 lambda: backend.upsert([_doc("x")], np.ones((1, 4), np.float32))):
        _assert_fails_fast(call)
    backend.close()
