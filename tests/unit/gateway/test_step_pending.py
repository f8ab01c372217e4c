"""A leg's RPC under way (gateway/step.py ``_Pending``): the stub's own future where it has one, else the executor."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import grpc
import pytest

from gateway.step import _Pending

pytestmark = pytest.mark.unit


class _Failed(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE


class _FutureMethod:
    """A stub method with ``future`` (as a gRPC channel's), answered by the caller later."""

    def __init__(self) -> None:
        self.future_obj: Future = Future()
        self.calls: list[tuple[Any, float]] = []

    def __call__(self, request: Any, timeout: float) -> Any:
        raise AssertionError("the blocking form must not be used when a future exists")

    def future(self, request: Any, timeout: float) -> Future:
        self.calls.append((request, timeout))
        return self.future_obj


def test_a_stub_with_futures_is_not_handed_to_the_executor():
    method = _FutureMethod()
    with ThreadPoolExecutor(max_workers=1) as executor:
        pending = _Pending(method, "req", 2.5, executor)
        assert method.calls == [("req", 2.5)]          # the deadline travels with the call
        method.future_obj.set_result("resp")
        response, ms = pending.result()
    assert response == "resp" and ms >= 0.0


def test_a_failed_call_raises_its_rpc_error():
    method = _FutureMethod()
    with ThreadPoolExecutor(max_workers=1) as executor:
        pending = _Pending(method, "req", 1.0, executor)
        method.future_obj.set_exception(_Failed())
        with pytest.raises(grpc.RpcError) as info:
            pending.result()
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE


def test_an_in_process_stub_without_futures_runs_on_the_executor():
    def blocking(request: Any, timeout: float) -> str:
        return f"{request}@{timeout}"

    with ThreadPoolExecutor(max_workers=1) as executor:
        response, ms = _Pending(blocking, "req", 3.0, executor).result()
    assert response == "req@3.0" and ms >= 0.0
