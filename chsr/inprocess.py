"""Call a servicer in-process through the same stub-shaped interface.

The gateway talks to stages through stubs; swapping a gRPC stub for an
:class:`InProcessStub` removes network and serialisation so a benchmark can
separate algorithm time from mesh overhead (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import inspect
import time
from typing import Any, Callable, Iterator

import grpc

from chsr.errors import ChsrError


class InProcessAbort(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


class LocalContext:
    """The subset of ``grpc.ServicerContext`` our servicers use."""

    def __init__(self, timeout: float | None, metadata: Any = None) -> None:
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._metadata = tuple(metadata or ())
        self._code: grpc.StatusCode | None = None
        self._details = ""

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def invocation_metadata(self) -> tuple:
        return self._metadata

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise InProcessAbort(code, details)

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_details(self, details: str) -> None:
        self._details = details

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def is_active(self) -> bool:
        return True

    def peer(self) -> str:
        return "inprocess"


class InProcessStub:
    """``stub.Method(request, timeout=..., metadata=...)`` that calls ``servicer.Method``."""

    def __init__(self, servicer: Any) -> None:
        self._servicer = servicer

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._servicer, name)

        def call(request: Any, timeout: float | None = None, metadata: Any = None, **_: Any) -> Any:
            """Typed errors become :class:`InProcessAbort` with the code the server's interceptor
            would send, so callers see the same ``grpc.RpcError`` either way."""
            try:
                result = method(request, LocalContext(timeout, metadata))
            except ChsrError as exc:
                raise InProcessAbort(exc.code, exc.details) from exc
            return _mapped(result) if inspect.isgenerator(result) else result

        return call


def _mapped(stream: Iterator[Any]) -> Iterator[Any]:
    try:
        yield from stream
    except ChsrError as exc:
        raise InProcessAbort(exc.code, exc.details) from exc
