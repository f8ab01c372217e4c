"""A handler that fails because its client has gone (cancelled, or past its deadline) is not a
server error: no traceback, no INTERNAL in the metrics (issue 10: a 1 ms ingest made the gateway
log 'unhandled error' and count INTERNAL for every cancelled stream)."""

from __future__ import annotations

import logging
from typing import Any, Iterator

import grpc
import pytest

from chsr.errors import Unavailable
from chsr.interceptors import _errors

pytestmark = pytest.mark.unit


class Aborted(Exception):
    pass


class Ctx:
    """The ServicerContext surface the error wrapper uses."""

    def __init__(self, active: bool, left: float) -> None:
        self.active, self.left, self._code = active, left, None
        self.trailing: tuple = ()

    def is_active(self) -> bool:
        return self.active

    def time_remaining(self) -> float:
        return self.left

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_trailing_metadata(self, md: tuple) -> None:
        self.trailing = md

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self._code = code
        raise Aborted(details)


def stream_failing_with(exc: Exception):  # type: ignore[no-untyped-def]
    def behaviour(request: Any, context: Any) -> Iterator[int]:
        yield 1
        raise exc
    return _errors(behaviour, True, "/chsr.v1.GatewayService/IngestWithProgress")


@pytest.mark.parametrize("left,want", [(0.0, grpc.StatusCode.DEADLINE_EXCEEDED), (9e18, grpc.StatusCode.CANCELLED)])
def test_a_stream_whose_client_left_is_not_internal(left: float, want: grpc.StatusCode,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    ctx = Ctx(active=False, left=left)
    gone = grpc.RpcError()   # what reading the next request raises once the call is over
    with caplog.at_level(logging.INFO), pytest.raises(grpc.RpcError):
        list(stream_failing_with(gone)(None, ctx))
    assert ctx.code() == want
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_chsr_error_after_the_client_left_is_labelled_as_the_client_saw_it() -> None:
    ctx = Ctx(active=False, left=0.0)
    with pytest.raises(Aborted):
        list(stream_failing_with(Unavailable("ingest backend failed"))(None, ctx))
    assert ctx.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_the_same_failure_with_the_client_waiting_is_internal(caplog: pytest.LogCaptureFixture) -> None:
    ctx = Ctx(active=True, left=5.0)
    with caplog.at_level(logging.INFO), pytest.raises(Aborted):
        list(stream_failing_with(RuntimeError("a bug"))(None, ctx))
    assert ctx.code() == grpc.StatusCode.INTERNAL
    assert any(r.levelno >= logging.ERROR for r in caplog.records)


def test_a_unary_handler_whose_client_left_reraises_quietly() -> None:
    def behaviour(request: Any, context: Any) -> int:
        raise grpc.RpcError()
    ctx = Ctx(active=False, left=0.0)
    with pytest.raises(grpc.RpcError):
        _errors(behaviour, False, "/chsr.v1.GatewayService/Search")(None, ctx)
    assert ctx.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_a_stream_closed_by_grpc_after_the_client_left_is_counted_as_the_client_saw_it() -> None:
    """gRPC closes the response generator (GeneratorExit) of a stream whose client is gone."""
    from chsr.interceptors import _metrics
    from chsr.metrics import GRPC_HANDLED

    def behaviour(request: Any, context: Any) -> Iterator[int]:
        yield 1
        yield 2
    method = "/chsr.v1.GatewayService/IngestWithProgress"
    counter = GRPC_HANDLED.labels("unit-gone", "IngestWithProgress", "DEADLINE_EXCEEDED")
    before = counter._value.get()
    stream = _metrics(_errors(behaviour, True, method), True, "unit-gone", method)(None, Ctx(active=False, left=0.0))
    next(stream)
    stream.close()
    assert counter._value.get() == before + 1
    assert GRPC_HANDLED.labels("unit-gone", "IngestWithProgress", "INTERNAL")._value.get() == 0
