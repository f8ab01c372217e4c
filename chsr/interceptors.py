"""What every server does around every handler: metrics, error mapping, authorisation.

One :class:`MeshInterceptor` is installed on every server (``chsr.server``). For each
chsr method it wraps the handler's behaviour, outermost first:

1. **metrics** — handling time and a count by status code;
2. **errors** — a :class:`chsr.errors.ChsrError` becomes its status code and message (the
   offending field also in trailing metadata ``chsr-field``); any other exception is logged
   with its traceback and answered INTERNAL, never left as gRPC's UNKNOWN — unless the client
   has gone (cancelled, or its deadline passed): then nothing can reach it, and the metrics
   count CANCELLED / DEADLINE_EXCEEDED instead of a server error;
3. **authorisation** — a write RPC (:data:`WRITE_METHODS`) needs every configured credential:
   ``authorization: Bearer <CHSR_INGEST_TOKEN>`` and, under mTLS with
   ``CHSR_WRITER_IDENTITIES``, a client certificate whose common name or subject alternative
   name is listed. Reads are never guarded here (they are gated by the network and TLS);
4. **parsing** — requests are deserialised inside the handler, so a malformed message (e.g.
   invalid UTF-8 in a string field) is INVALID_ARGUMENT naming the message, not gRPC's INTERNAL.

Servicers therefore raise, never map, and never check credentials themselves.
"""

from __future__ import annotations

import hmac
import logging
import time
from typing import Any, Callable, Iterable

import grpc

from google.protobuf.message import DecodeError

from chsr.errors import FIELD_METADATA_KEY, ChsrError, InvalidArgument, PermissionDenied, Unauthenticated
from chsr.metrics import GRPC_HANDLED, GRPC_HANDLING, INFLIGHT

log = logging.getLogger(__name__)

#: Every RPC that changes an index (or the gate's catalogue of it). A test checks that each Upsert/Delete*/Ingest* RPC of
#: every service in protos/ is listed.
WRITE_METHODS: frozenset[str] = frozenset({
    "/chsr.v1.GatewayService/Ingest",
    "/chsr.v1.GatewayService/IngestWithProgress",
    "/chsr.v1.GatewayService/Delete",
    "/chsr.v1.GatewayService/IngestFiles",
    "/chsr.v1.GatewayService/DeleteSource",
    "/chsr.v1.RetrieverService/Upsert",
    "/chsr.v1.RetrieverService/DeleteDocuments",
    "/chsr.v1.GateService/UpdateCatalogue",
})
_UNGUARDED_PREFIXES = ("/grpc.health", "/grpc.reflection")

Behaviour = Callable[[Any, grpc.ServicerContext], Any]


class WriteCredentials:
    """The credentials a write must present (empty = that check is off)."""

    def __init__(self, token: str = "", identities: Iterable[str] = ()) -> None:
        self.token = token
        self.identities = frozenset(i for i in identities if i)

    @property
    def enabled(self) -> bool:
        return bool(self.token or self.identities)

    def check(self, context: grpc.ServicerContext) -> None:
        """Raise Unauthenticated / PermissionDenied unless ``context`` carries every credential."""
        if self.token:
            metadata = dict(context.invocation_metadata() or ())
            presented = metadata.get("authorization", "")
            if not hmac.compare_digest(presented.encode(), f"Bearer {self.token}".encode()):
                raise Unauthenticated("authorization: a valid bearer token is required for writes")
        if self.identities:
            auth = context.auth_context() or {}
            names = {v.decode() for key in ("x509_common_name", "x509_subject_alternative_name")
                     for v in auth.get(key, ())}
            if not names:
                raise Unauthenticated("a client certificate is required for writes (mTLS)")
            if not names & self.identities:
                raise PermissionDenied(f"client certificate {sorted(names)} may not write")


def _metadata_safe(value: str) -> str:
    """Metadata values must be printable ASCII; a field path may hold a client's document id."""
    return "".join(c if 32 <= ord(c) < 127 else f"\\u{ord(c):04x}" for c in value)[:256]


def _client_gone(context: grpc.ServicerContext) -> grpc.StatusCode | None:
    """CANCELLED or DEADLINE_EXCEEDED when the client no longer waits for this call (it cancelled,
    or its deadline passed), else None. A handler that fails because of that (reading the next
    request of a stream raises a bare ``grpc.RpcError``; a forwarded call runs out of the client's
    time) has no bug to report: nothing reaches the client any more, and the metrics should count
    what the client saw, not INTERNAL or UNAVAILABLE."""
    if context.is_active():
        return None
    left = context.time_remaining()
    return grpc.StatusCode.DEADLINE_EXCEEDED if left is not None and left <= 0 else grpc.StatusCode.CANCELLED


def _abort(context: grpc.ServicerContext, exc: ChsrError) -> None:
    gone = _client_gone(context)
    if gone is not None:
        context.abort(gone, exc.details)   # sends nothing (the call is over); labels the metrics
    if exc.field:
        context.set_trailing_metadata(((FIELD_METADATA_KEY, _metadata_safe(exc.field)),))
    context.abort(exc.code, exc.details)


def _gone_quietly(context: grpc.ServicerContext, method: str) -> bool:
    """For a non-chsr exception: True (re-raise it; gRPC knows it as its own) when the client is gone."""
    gone = _client_gone(context)
    if gone is None:
        return False
    context.set_code(gone)
    log.info("client gone before the handler finished", extra={"method": method, "code": gone.name})
    return True


def _internal(context: grpc.ServicerContext, method: str) -> None:
    log.exception("unhandled error in handler", extra={"method": method})
    context.abort(grpc.StatusCode.INTERNAL, f"internal error in {method.rsplit('/', 1)[-1]} (logged by the server)")


def _errors(behaviour: Behaviour, streaming: bool, method: str) -> Behaviour:
    if streaming:
        def stream(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                yield from behaviour(request, context)
            except ChsrError as exc:
                _abort(context, exc)
            except Exception:
                if context.code() is not None:  # context.abort() inside the handler: already mapped
                    raise
                if _gone_quietly(context, method):
                    raise
                _internal(context, method)
        return stream

    def unary(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return behaviour(request, context)
        except ChsrError as exc:
            _abort(context, exc)
        except Exception:
            if context.code() is not None:
                raise
            if _gone_quietly(context, method):
                raise
            _internal(context, method)
    return unary


def _authorise(behaviour: Behaviour, streaming: bool, credentials: WriteCredentials) -> Behaviour:
    if streaming:
        def stream(request: Any, context: grpc.ServicerContext) -> Any:
            credentials.check(context)
            yield from behaviour(request, context)
        return stream

    def unary(request: Any, context: grpc.ServicerContext) -> Any:
        credentials.check(context)
        return behaviour(request, context)
    return unary


def _parsing(behaviour: Behaviour, deserializer: Callable[[bytes], Any], request_streaming: bool) -> Behaviour:
    def parse(data: bytes) -> Any:
        try:
            return deserializer(data)
        except DecodeError as exc:
            name = getattr(getattr(deserializer, "__self__", None), "DESCRIPTOR", None)
            what = name.name if name is not None else "request"
            raise InvalidArgument("request", f"not a valid {what} (e.g. invalid UTF-8 in a string field): {exc}") from None

    if request_streaming:
        def streamed(requests: Any, context: grpc.ServicerContext) -> Any:
            return behaviour((parse(d) for d in requests), context)
        return streamed

    def single(request: Any, context: grpc.ServicerContext) -> Any:
        return behaviour(parse(request), context)
    return single


def _metrics(behaviour: Behaviour, streaming: bool, service: str, method: str) -> Behaviour:
    name = method.rsplit("/", 1)[-1]

    def observe(context: grpc.ServicerContext, start: float, failed: bool) -> None:
        code = context.code()
        if code is None and failed:
            # e.g. GeneratorExit: gRPC closes a stream's response generator once its client has gone
            gone = _client_gone(context)
            code = gone if gone is not None else grpc.StatusCode.INTERNAL
        label = code.name if code is not None else "OK"
        INFLIGHT.labels(service).dec()
        GRPC_HANDLING.labels(service, name).observe(time.perf_counter() - start)
        GRPC_HANDLED.labels(service, name, label).inc()

    if streaming:
        def stream(request: Any, context: grpc.ServicerContext) -> Any:
            start, failed = time.perf_counter(), False
            INFLIGHT.labels(service).inc()
            try:
                yield from behaviour(request, context)
            except BaseException:
                failed = True
                raise
            finally:
                observe(context, start, failed)
        return stream

    def unary(request: Any, context: grpc.ServicerContext) -> Any:
        start, failed = time.perf_counter(), False
        INFLIGHT.labels(service).inc()
        try:
            return behaviour(request, context)
        except BaseException:
            failed = True
            raise
        finally:
            observe(context, start, failed)
    return unary


class MeshInterceptor(grpc.ServerInterceptor):
    """Metrics, error mapping and write authorisation for every chsr method of a server."""

    def __init__(self, service: str, credentials: WriteCredentials) -> None:
        self._service = service
        self._credentials = credentials

    def intercept_service(self, continuation, handler_call_details):  # type: ignore[no-untyped-def]
        handler = continuation(handler_call_details)
        method = handler_call_details.method
        if handler is None or method.startswith(_UNGUARDED_PREFIXES):
            return handler

        def wrap(behaviour: Behaviour, request_streaming: bool, streaming: bool) -> Behaviour:
            if handler.request_deserializer is not None:
                behaviour = _parsing(behaviour, handler.request_deserializer, request_streaming)
            if method in WRITE_METHODS and self._credentials.enabled:
                behaviour = _authorise(behaviour, streaming, self._credentials)
            return _metrics(_errors(behaviour, streaming, method), streaming, self._service, method)

        return rewrap(handler, wrap)


def rewrap(handler: grpc.RpcMethodHandler,
           wrap: Callable[[Behaviour, bool, bool], Behaviour]) -> grpc.RpcMethodHandler:
    """The same handler with its behaviour replaced by ``wrap(behaviour, request_streaming,
    response_streaming)``; requests reach the new behaviour as raw bytes (it parses them)."""
    if handler.unary_unary:
        return grpc.unary_unary_rpc_method_handler(
            wrap(handler.unary_unary, False, False), None, handler.response_serializer)
    if handler.stream_unary:
        return grpc.stream_unary_rpc_method_handler(
            wrap(handler.stream_unary, True, False), None, handler.response_serializer)
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(
            wrap(handler.unary_stream, False, True), None, handler.response_serializer)
    return grpc.stream_stream_rpc_method_handler(
        wrap(handler.stream_stream, True, True), None, handler.response_serializer)
