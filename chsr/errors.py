"""One way to fail: typed errors raised anywhere, mapped to gRPC status codes in one place.

Servicers, logic modules and backends raise these; they never call
``context.abort`` themselves. :class:`chsr.interceptors.ErrorInterceptor` (every
server) and :class:`chsr.inprocess.InProcessStub` (the in-process benchmark) turn
them into a status code and a message that starts with the offending field or
limit, e.g. ``"k: must be in 1..100, got 0"``. The field also travels in the
trailing metadata key ``chsr-field``, so clients (:mod:`chsr.client`) can raise a
typed exception that names it without parsing the message.

The pattern is weaviate-python-client's ``exceptions.py``: one base error,
subclasses that carry structured context, raised deep and mapped once at the edge.
"""

from __future__ import annotations

import grpc

#: Trailing-metadata key that carries the offending field of an INVALID_ARGUMENT.
FIELD_METADATA_KEY = "chsr-field"


class ChsrError(Exception):
    """Base of every error the mesh maps to a status code."""

    code: grpc.StatusCode = grpc.StatusCode.INTERNAL

    def __init__(self, message: str, *, field: str = "") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)

    @property
    def details(self) -> str:
        """The status message a client sees."""
        return str(self)


class InvalidArgument(ChsrError, ValueError):
    """The request is wrong; ``field`` names what (``query``, ``k``, ``hints.year``, ``documents[3].text``).
    Also a ValueError, so plain-Python callers of the logic modules may catch it as one."""

    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, field=field)


class FailedPrecondition(ChsrError):
    """The request is valid but the server is not set up for it (e.g. no cross-encoder configured)."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class Unauthenticated(ChsrError):
    """A write without the configured credential."""

    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(ChsrError):
    """A credential that is valid but not allowed to write (an mTLS identity not listed)."""

    code = grpc.StatusCode.PERMISSION_DENIED


class Unavailable(ChsrError):
    """A backend or stage the answer needs cannot be reached; retrying later may work."""

    code = grpc.StatusCode.UNAVAILABLE


class DeadlineExceeded(ChsrError):
    """The request's budget ran out before the answer was complete."""

    code = grpc.StatusCode.DEADLINE_EXCEEDED


class ResourceExhausted(ChsrError):
    """A size or rate limit was hit; ``field`` names the limit."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


def from_rpc_error(exc: grpc.RpcError, stage: str) -> ChsrError:
    """Re-raise a downstream stage's failure as ours, keeping its meaning: a caller's bad
    input stays INVALID_ARGUMENT, a timeout stays DEADLINE_EXCEEDED, the rest is UNAVAILABLE."""
    code, details = exc.code(), exc.details() or ""
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        field, _, message = details.partition(": ")
        return InvalidArgument(field, message) if message else InvalidArgument("request", details)
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return DeadlineExceeded(f"{stage}: {details or 'deadline exceeded'}")
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return Unauthenticated(f"{stage}: {details}")
    return Unavailable(f"{stage} unavailable ({code.name}): {details}")
