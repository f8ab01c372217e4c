"""The gateway's per-backend upsert: one bounded wait for a reconnecting backend, no long hang."""

from __future__ import annotations

import grpc
import pytest

from chsr.inprocess import InProcessAbort
from chsr.v1 import retriever_pb2
from gateway import ingest

pytestmark = pytest.mark.unit


class ScriptedStub:
    def __init__(self, *outcomes) -> None:  # type: ignore[no-untyped-def]
        self.outcomes = list(outcomes)
        self.calls: list[dict] = []

    def Upsert(self, req, timeout, wait_for_ready=None, metadata=()):  # type: ignore[no-untyped-def]
        self.calls.append({"timeout": timeout, "wait_for_ready": wait_for_ready, "metadata": metadata})
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, grpc.StatusCode):
            raise InProcessAbort(outcome, f"{outcome.name} from the backend")
        return outcome


OK = retriever_pb2.UpsertResponse(indexed=2)


def test_reconnecting_backend_gets_one_bounded_wait() -> None:
    stub = ScriptedStub(grpc.StatusCode.UNAVAILABLE, OK)
    token = (("authorization", "Bearer t"),)
    assert ingest.upsert_with_reconnect(stub, retriever_pb2.UpsertRequest(), token, None) == OK
    assert stub.calls == [{"timeout": ingest.UPSERT_TIMEOUT_S, "wait_for_ready": None, "metadata": token},
                          {"timeout": ingest.RECONNECT_WAIT_S, "wait_for_ready": True, "metadata": token}]


class Ctx:
    def __init__(self, left: float | None) -> None:
        self.left = left

    def time_remaining(self) -> float | None:
        return self.left


def test_upsert_timeouts_never_outlive_the_client_deadline() -> None:
    stub = ScriptedStub(grpc.StatusCode.UNAVAILABLE, OK)
    ingest.upsert_with_reconnect(stub, retriever_pb2.UpsertRequest(), (), Ctx(3.0))
    assert [c["timeout"] for c in stub.calls] == [pytest.approx(3.0, abs=0.1), pytest.approx(3.0, abs=0.1)]
    stub = ScriptedStub(OK)
    ingest.upsert_with_reconnect(stub, retriever_pb2.UpsertRequest(), (), Ctx(9.22e18))  # gRPC's "no deadline"
    assert stub.calls[0]["timeout"] == ingest.UPSERT_TIMEOUT_S


def test_backend_still_down_reports_unavailable_not_a_deadline() -> None:
    stub = ScriptedStub(grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    with pytest.raises(grpc.RpcError) as err:
        ingest.upsert_with_reconnect(stub, retriever_pb2.UpsertRequest(), (), None)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE


def test_other_errors_are_not_retried() -> None:
    stub = ScriptedStub(grpc.StatusCode.INVALID_ARGUMENT)
    with pytest.raises(grpc.RpcError) as err:
        ingest.upsert_with_reconnect(stub, retriever_pb2.UpsertRequest(), (), None)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and len(stub.calls) == 1


class Stubs:
    """The part of gateway.stubs.StageStubs that upsert_batch uses."""

    def __init__(self, **servers: ScriptedStub) -> None:
        self.servers = servers
        self.write_metadata = ()


@pytest.mark.parametrize("sparse,dense,want", [
    (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED"),
    (OK, grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED"),
    (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL, "UNAVAILABLE"),
    (OK, grpc.StatusCode.INTERNAL, "UNAVAILABLE"),
])
def test_a_batch_that_ran_out_of_time_is_deadline_exceeded_not_unavailable(sparse, dense, want) -> None:  # type: ignore[no-untyped-def]
    """Upserts forwarded with the client's remaining time fail DEADLINE_EXCEEDED when it runs out: the
    gateway then answers what the client's own deadline says, not UNAVAILABLE."""
    from concurrent.futures import ThreadPoolExecutor

    from chsr.errors import ChsrError
    from chsr.v1 import common_pb2

    stubs = Stubs(sparse=ScriptedStub(sparse), dense=ScriptedStub(dense))
    with ThreadPoolExecutor(2) as pool, pytest.raises(ChsrError) as err:
        ingest.upsert_batch(stubs, pool, [common_pb2.Document(id="a", text="t")], ingest.IngestTotals())  # type: ignore[arg-type]
    assert err.value.code.name == want
