"""The Python client of the gateway, for other teams: typed, sync and ``grpc.aio`` async.

    from chsr.client import GatewayClient

    with GatewayClient("gateway.chsr:50051", token=TOKEN) as client:
        resp = client.search("acceleration of a car", k=5, pipeline="E", hints={"level": "grade_10"})
        for ack in client.ingest_progress(docs):        # one acknowledgement per stored batch
            print(ack.received)
        for event in client.ingest_files([("papers/amc10a_2019.pdf", Path("amc10a_2019.pdf"))]):
            if event.HasField("file"):                   # per-file result: written, fields, errors
                print(event.file.file, event.file.written, event.file.error.detail)
        ctx = client.context("why does a skydiver reach terminal velocity", budget_tokens=512)

``AsyncGatewayClient`` has the same methods as coroutines (``ingest_progress`` is an async
iterator). Every call has a deadline (``timeout``, default 10 s; ingest 1 h); only the
idempotent reads (Search, IndexStats, VerifyIndex, ListPipelines) are retried, on
UNAVAILABLE, by gRPC's own retry policy (``chsr.channels.SERVICE_CONFIG``). A failed call
raises a :class:`ClientError` subclass carrying the status code, the server's message and,
for INVALID_ARGUMENT, the offending field. Options default to the process settings
(``CHSR_GATEWAY``, ``CHSR_INGEST_TOKEN``, ``CHSR_TLS_*``).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, Iterator, Mapping, NoReturn

import grpc
import grpc.aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from chsr.channels import channel_options
from chsr.config import Settings, get_settings
from chsr.documents import Doc
from chsr.errors import FIELD_METADATA_KEY
from chsr.scope import Scope
from chsr.v1 import gateway_pb2, gateway_pb2_grpc, ingest_pb2

DEFAULT_TIMEOUT_S = 10.0
INGEST_TIMEOUT_S = 3600.0
_END = object()   # the end of a streamed ingest
CONTEXT_TIMEOUT_S = 30.0
#: Files travel in pieces of this size, well under the default 16 MiB message limit.
PIECE_BYTES = 1024 * 1024
Hints = Mapping[str, Any] | Scope | None
#: A file to ingest: (name relative to the ingest root, its path or its bytes), optionally with
#: its own curriculum fields as a third element.
FileSpec = tuple[str, Path | bytes] | tuple[str, Path | bytes, Mapping[str, Any]]


# ---- errors --------------------------------------------------------------------------
class ClientError(grpc.RpcError):
    """A failed call. Like any ``grpc.RpcError`` it has ``code()`` and ``details()`` (the server's
    message); ``field`` is the offending request field for INVALID_ARGUMENT, else ""."""

    def __init__(self, code: grpc.StatusCode, details: str, field: str = "",
                 trailing_metadata: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(f"{code.name}: {details}")
        self._code, self._details, self.field = code, details, field
        self._trailing = trailing_metadata

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        """The server's trailing metadata, as on the ``grpc.Call`` error this one replaces (code
        that handles any ``grpc.RpcError`` of a call may read it)."""
        return self._trailing


class InvalidArgumentError(ClientError):
    """The request is wrong; ``field`` says where."""


class UnauthenticatedError(ClientError):
    """A write without the right bearer token (or client certificate)."""


class PermissionDeniedError(ClientError):
    """A client certificate that may not write."""


class UnavailableError(ClientError):
    """The gateway, or a backend the answer needs, is down; retry later."""


class DeadlineExceededError(ClientError):
    """The call ran out of time."""


class ResourceExhaustedError(ClientError):
    """A size limit was hit (e.g. a message over the server's limit)."""


class FailedPreconditionError(ClientError):
    """The server is not set up for this request (e.g. no cross-encoder configured)."""


_BY_CODE: dict[grpc.StatusCode, type[ClientError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgumentError,
    grpc.StatusCode.UNAUTHENTICATED: UnauthenticatedError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.UNAVAILABLE: UnavailableError,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPreconditionError,
}


def client_error(exc: grpc.RpcError) -> ClientError:
    """The typed exception for a failed call (sync or aio)."""
    code, details = exc.code(), exc.details() or ""
    trailing = tuple(exc.trailing_metadata() or ())  # type: ignore[attr-defined]
    field = next((v for k, v in trailing if k == FIELD_METADATA_KEY), "")
    return _BY_CODE.get(code, ClientError)(code, details, field, trailing)


def _raise(exc: grpc.RpcError) -> NoReturn:
    raise client_error(exc) from exc


def rpc_error_message(exc: grpc.RpcError) -> str:
    return f"{exc.code().name}: {exc.details()}"


# ---- requests --------------------------------------------------------------------------
def search_request(query: str, k: int, pipeline: str, hints: Hints, strict: bool,
                   no_cache: bool) -> gateway_pb2.SearchRequest:
    scope = hints if isinstance(hints, Scope) else Scope.from_dict(hints)
    return gateway_pb2.SearchRequest(query=query, k=k, pipeline=pipeline, hints=scope.to_proto(),
                                     strict_scope=strict, no_cache=no_cache)


def ingest_batches(docs: Iterable[Doc], batch_size: int) -> Iterator[gateway_pb2.IngestWithProgressRequest]:
    batch = []
    for doc in docs:
        batch.append(doc.to_proto())
        if len(batch) >= batch_size:
            yield gateway_pb2.IngestWithProgressRequest(documents=batch)
            batch = []
    if batch:
        yield gateway_pb2.IngestWithProgressRequest(documents=batch)


def file_requests(files: Iterable[FileSpec], *, manifest: str = "", manifest_format: str = "",
                  manifest_name: str = "", piece_bytes: int = PIECE_BYTES) -> Iterator[gateway_pb2.IngestFilesRequest]:
    """The IngestFiles stream for ``files``: options (a manifest's text), then per file a header,
    its bytes in ``piece_bytes`` pieces (read lazily from disk) and an end with its SHA-256."""
    if manifest:
        yield gateway_pb2.IngestFilesRequest(options=ingest_pb2.IngestOptions(
            manifest=manifest, manifest_format=manifest_format, manifest_name=manifest_name))
    for spec in files:
        name, content = spec[0], spec[1]
        fields = {k: str(v) for k, v in (spec[2] if len(spec) > 2 else {}).items()}  # type: ignore[misc]
        size = len(content) if isinstance(content, bytes) else Path(content).stat().st_size
        yield gateway_pb2.IngestFilesRequest(header=ingest_pb2.FileHeader(name=name, size=size, fields=fields))
        digest = hashlib.sha256()
        for piece in _pieces(content, piece_bytes):
            digest.update(piece)
            yield gateway_pb2.IngestFilesRequest(data=piece)
        yield gateway_pb2.IngestFilesRequest(end=ingest_pb2.FileEnd(sha256=digest.hexdigest()))


def _pieces(content: Path | bytes, size: int) -> Iterator[bytes]:
    if isinstance(content, bytes):
        for start in range(0, len(content), size):
            yield content[start:start + size]
        return
    with Path(content).open("rb") as fh:
        while piece := fh.read(size):
            yield piece


def context_request(query: str, budget_tokens: int, pipeline: str, hints: Hints, strict: bool, candidates: int,
                    answer_sentences: int) -> gateway_pb2.GetContextRequest:
    scope = hints if isinstance(hints, Scope) else Scope.from_dict(hints)
    return gateway_pb2.GetContextRequest(query=query, budget_tokens=budget_tokens, pipeline=pipeline,
                                         hints=scope.to_proto(), strict_scope=strict, candidates=candidates,
                                         answer_sentences=answer_sentences)


def _credentials(settings: Settings, tls_ca: str | Path | None, tls_cert: str | Path | None,
                 tls_key: str | Path | None) -> grpc.ChannelCredentials | None:
    ca = tls_ca if tls_ca is not None else settings.tls_ca
    if not ca:
        return None
    cert = tls_cert if tls_cert is not None else settings.tls_cert
    key = tls_key if tls_key is not None else settings.tls_key
    return grpc.ssl_channel_credentials(
        root_certificates=Path(ca).read_bytes(),
        private_key=Path(key).read_bytes() if cert and key else None,
        certificate_chain=Path(cert).read_bytes() if cert and key else None)


class _Options:
    def __init__(self, target: str | None, token: str | None, timeout: float,
                 tls_ca: str | Path | None, tls_cert: str | Path | None, tls_key: str | Path | None) -> None:
        settings = get_settings()
        self.target = target or settings.gateway
        token = settings.ingest_token if token is None else token
        self.auth = (("authorization", f"Bearer {token}"),) if token else ()
        self.timeout = timeout
        self.credentials = _credentials(settings, tls_ca, tls_cert, tls_key)
        self.channel_options = channel_options(settings)


# ---- sync -------------------------------------------------------------------------------
class GatewayClient:
    """Blocking client. ``target`` host:port; ``token`` for writes; ``tls_ca`` (and
    ``tls_cert``/``tls_key`` for mTLS) to connect over TLS; ``timeout`` the default deadline."""

    def __init__(self, target: str | None = None, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                 tls_ca: str | Path | None = None, tls_cert: str | Path | None = None,
                 tls_key: str | Path | None = None) -> None:
        opts = _Options(target, token, timeout, tls_ca, tls_cert, tls_key)
        self.address, self._auth, self._timeout = opts.target, opts.auth, opts.timeout
        self._channel = (grpc.secure_channel(opts.target, opts.credentials, opts.channel_options) if opts.credentials
                         else grpc.insecure_channel(opts.target, opts.channel_options))
        self._stub = gateway_pb2_grpc.GatewayServiceStub(self._channel)

    def __enter__(self) -> "GatewayClient":
        return self

    def wait_ready(self, timeout: float = 120.0) -> bool:
        """Wait until the gateway's health is SERVING (it is not until every stage answers); False after
        ``timeout`` seconds. Writes sent earlier wait on the gateway or fail UNAVAILABLE, never half-done."""
        stub = health_pb2_grpc.HealthStub(self._channel)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=2).status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                pass
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.25)

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def search(self, query: str, k: int = 10, pipeline: str = "", hints: Hints = None, strict: bool = False,
               no_cache: bool = False, timeout: float | None = None) -> gateway_pb2.SearchResponse:
        """Search; ``hints`` like ``{"subject": "physics", "level": ["grade_10"]}``."""
        try:
            return self._stub.Search(search_request(query, k, pipeline, hints, strict, no_cache),
                                     timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    def ingest_progress(self, docs: Iterable[Doc], batch_size: int = 64,
                        timeout: float | None = None) -> Iterator[gateway_pb2.IngestWithProgressResponse]:
        """Stream ``docs``; yields the gateway's acknowledgement after each stored batch, the last
        one carrying ``summary``."""
        try:
            yield from self._stub.IngestWithProgress(ingest_batches(docs, batch_size), metadata=self._auth,
                                                     timeout=timeout or INGEST_TIMEOUT_S)
        except grpc.RpcError as exc:
            _raise(exc)

    def ingest(self, docs: Iterable[Doc], batch_size: int = 64, on_batch=None,  # type: ignore[no-untyped-def]
               timeout: float | None = None) -> gateway_pb2.IngestSummary:
        """Stream ``docs`` and return the summary; ``on_batch(n)`` gets the documents each
        acknowledgement adds (what the gateway stored, not what was sent)."""
        stored = 0
        for ack in self.ingest_progress(docs, batch_size, timeout):
            if ack.HasField("summary"):
                return ack.summary
            if on_batch:
                on_batch(ack.received - stored)
            stored = ack.received
        raise UnavailableError(grpc.StatusCode.UNAVAILABLE, "ingest: the gateway closed the stream without a summary")

    def delete(self, doc_ids: Iterable[str], timeout: float | None = None) -> gateway_pb2.DeleteResponse:
        try:
            return self._stub.Delete(gateway_pb2.DeleteRequest(doc_ids=list(doc_ids)), metadata=self._auth,
                                     timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    def ingest_files(self, files: Iterable[FileSpec], *, manifest: str = "", manifest_format: str = "",
                     manifest_name: str = "", timeout: float | None = None,
                     requests: Iterable[gateway_pb2.IngestFilesRequest] | None = None
                     ) -> Iterator[gateway_pb2.IngestFilesResponse]:
        """Stream files (see :func:`file_requests`, or pass ready ``requests``); yields per-file progress,
        per-file results and, last, the summary."""
        stream = requests if requests is not None else file_requests(
            files, manifest=manifest, manifest_format=manifest_format, manifest_name=manifest_name)
        try:
            yield from self._stub.IngestFiles(iter(stream), metadata=self._auth, timeout=timeout or INGEST_TIMEOUT_S)
        except grpc.RpcError as exc:
            _raise(exc)

    def delete_sources(self, sources: Iterable[str], timeout: float | None = None) -> gateway_pb2.DeleteSourceResponse:
        try:
            return self._stub.DeleteSource(gateway_pb2.DeleteSourceRequest(sources=list(sources)), metadata=self._auth,
                                           timeout=timeout or max(self._timeout, 120.0))
        except grpc.RpcError as exc:
            _raise(exc)

    def context(self, query: str, budget_tokens: int = 0, pipeline: str = "", hints: Hints = None,
                strict: bool = False, candidates: int = 0, answer_sentences: int = 0,
                timeout: float | None = None) -> gateway_pb2.GetContextResponse:
        """A prompt-ready, cited context under ``budget_tokens`` (0 = 512) and an extractive answer."""
        try:
            return self._stub.GetContext(context_request(query, budget_tokens, pipeline, hints, strict, candidates,
                                                         answer_sentences), timeout=timeout or CONTEXT_TIMEOUT_S)
        except grpc.RpcError as exc:
            _raise(exc)

    def stats(self, timeout: float | None = None) -> gateway_pb2.IndexStatsResponse:
        try:
            return self._stub.IndexStats(gateway_pb2.IndexStatsRequest(), timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    def verify(self, expected_ids: Iterable[str] = (), timeout: float | None = None,
               source: str = "") -> gateway_pb2.VerifyIndexResponse:
        try:
            return self._stub.VerifyIndex(gateway_pb2.VerifyIndexRequest(expected_ids=list(expected_ids), source=source),
                                          timeout=timeout or max(self._timeout, 300.0))
        except grpc.RpcError as exc:
            _raise(exc)

    def pipelines(self, timeout: float | None = None) -> gateway_pb2.ListPipelinesResponse:
        try:
            return self._stub.ListPipelines(gateway_pb2.ListPipelinesRequest(), timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)


# ---- asyncio ----------------------------------------------------------------------------
class AsyncGatewayClient:
    """The same API on ``grpc.aio``; use ``async with AsyncGatewayClient(...) as client``.

    ``ingest_progress`` is the exception: it streams on a blocking channel in a worker thread and
    hands each acknowledgement to the event loop. grpc.aio reports ``INTERNAL: Internal error
    from Core`` instead of the server's status when a write races the end of the call (a write
    rejected as UNAUTHENTICATED, a deadline that expires mid-stream: grpc/grpc#36066, open in
    grpcio 1.85); the blocking API reports the real status, which the typed error must carry."""

    def __init__(self, target: str | None = None, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                 tls_ca: str | Path | None = None, tls_cert: str | Path | None = None,
                 tls_key: str | Path | None = None) -> None:
        opts = _Options(target, token, timeout, tls_ca, tls_cert, tls_key)
        self.address, self._auth, self._timeout = opts.target, opts.auth, opts.timeout
        self._opts = opts
        self._channel = (grpc.aio.secure_channel(opts.target, opts.credentials, opts.channel_options)
                         if opts.credentials else grpc.aio.insecure_channel(opts.target, opts.channel_options))
        self._stub = gateway_pb2_grpc.GatewayServiceStub(self._channel)
        self._blocking: grpc.Channel | None = None   # opened by the first ingest

    async def __aenter__(self) -> "AsyncGatewayClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close()
        if self._blocking is not None:
            self._blocking.close()

    def _blocking_stub(self) -> gateway_pb2_grpc.GatewayServiceStub:
        if self._blocking is None:
            o = self._opts
            self._blocking = (grpc.secure_channel(o.target, o.credentials, o.channel_options) if o.credentials
                              else grpc.insecure_channel(o.target, o.channel_options))
        return gateway_pb2_grpc.GatewayServiceStub(self._blocking)

    async def search(self, query: str, k: int = 10, pipeline: str = "", hints: Hints = None, strict: bool = False,
                     no_cache: bool = False, timeout: float | None = None) -> gateway_pb2.SearchResponse:
        try:
            return await self._stub.Search(search_request(query, k, pipeline, hints, strict, no_cache),
                                           timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    async def ingest_progress(self, docs: Iterable[Doc], batch_size: int = 64, timeout: float | None = None
                              ) -> AsyncIterator[gateway_pb2.IngestWithProgressResponse]:
        """Stream ``docs``; yields each acknowledgement, the last one carrying ``summary`` (the
        stream runs in a worker thread, see the class docstring)."""
        loop = asyncio.get_running_loop()
        acks: asyncio.Queue[object] = asyncio.Queue()
        call = self._blocking_stub().IngestWithProgress(ingest_batches(docs, batch_size), metadata=self._auth,
                                                        timeout=timeout or INGEST_TIMEOUT_S)

        def pump() -> None:
            last: object = _END
            try:
                for ack in call:
                    loop.call_soon_threadsafe(acks.put_nowait, ack)
            except grpc.RpcError as exc:
                last = exc
            try:
                loop.call_soon_threadsafe(acks.put_nowait, last)
            except RuntimeError:   # the loop is gone: nobody is waiting any more
                pass

        worker = loop.run_in_executor(None, pump)
        try:
            while (item := await acks.get()) is not _END:
                if isinstance(item, grpc.RpcError):
                    _raise(item)
                yield item  # type: ignore[misc]
        finally:
            call.cancel()   # a consumer that stops early ends the stream (no-op once it is over)
            await worker

    async def delete(self, doc_ids: Iterable[str], timeout: float | None = None) -> gateway_pb2.DeleteResponse:
        try:
            return await self._stub.Delete(gateway_pb2.DeleteRequest(doc_ids=list(doc_ids)), metadata=self._auth,
                                           timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    async def stats(self, timeout: float | None = None) -> gateway_pb2.IndexStatsResponse:
        try:
            return await self._stub.IndexStats(gateway_pb2.IndexStatsRequest(), timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)

    async def verify(self, expected_ids: Iterable[str] = (),
                     timeout: float | None = None) -> gateway_pb2.VerifyIndexResponse:
        try:
            return await self._stub.VerifyIndex(gateway_pb2.VerifyIndexRequest(expected_ids=list(expected_ids)),
                                                timeout=timeout or max(self._timeout, 300.0))
        except grpc.RpcError as exc:
            _raise(exc)

    async def pipelines(self, timeout: float | None = None) -> gateway_pb2.ListPipelinesResponse:
        try:
            return await self._stub.ListPipelines(gateway_pb2.ListPipelinesRequest(), timeout=timeout or self._timeout)
        except grpc.RpcError as exc:
            _raise(exc)
