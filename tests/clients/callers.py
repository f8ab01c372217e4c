"""The four Python clients of the suite behind one small interface, so every bad-input case runs
against each of them the same way.

* ``python-stub``       the generated ``GatewayServiceStub`` on a plain ``grpc.insecure_channel``,
                        used as another team would: no timeout unless the case sets one;
* ``python-aio-stub``   the same stub on ``grpc.aio``; IngestWithProgress writes a batch and reads
                        its acknowledgement before writing the next;
* ``chsr.client``       :class:`chsr.client.GatewayClient` (typed errors; always sends a deadline:
                        "no deadline" is its default one, 10 s);
* ``chsr.client-async`` :class:`chsr.client.AsyncGatewayClient`.

A call returns a :class:`Result` instead of raising: the status code name, the response (a list
of acknowledgements for IngestWithProgress), the message and the field the server named.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import grpc
import grpc.aio

from chsr.client import AsyncGatewayClient, ClientError, GatewayClient
from chsr.documents import Doc
from chsr.errors import FIELD_METADATA_KEY
from chsr.scope import Scope
from chsr.v1 import gateway_pb2, gateway_pb2_grpc

def auth_metadata(token: str, auth: str) -> tuple[tuple[str, str], ...]:
    """What a plain stub sends for a write in each case: the right token, none, or wrong metadata."""
    return {"token": (("authorization", f"Bearer {token}"),),
            "missing": (),
            "wrong token": (("authorization", "Bearer not-the-token"),),
            "token without 'Bearer '": (("authorization", token),),
            "token under another key": (("x-api-key", token),)}[auth]


@dataclass
class Result:
    code: str                 # grpc.StatusCode name, "OK" on success
    response: Any = None
    details: str = ""
    field: str = ""
    debug: str = ""           # the client library's debug string of a failure

    @property
    def aio_write_race(self) -> bool:
        """grpc.aio's own INTERNAL for a write that raced the end of the call (grpc/grpc#36066): the
        client library overwrote the status the server sent; the mesh is not involved."""
        return self.code == "INTERNAL" and "SendMessageOperation" in self.debug

    def describe(self) -> str:
        if self.code == "INVALID_ARGUMENT":
            return f"INVALID_ARGUMENT (field {self.field or '?'})"
        return self.code


def _failed(exc: grpc.RpcError) -> Result:
    if isinstance(exc, ClientError):   # chsr.client has read the field from the trailers already
        field = exc.field
    else:
        trailing = exc.trailing_metadata() or ()  # type: ignore[attr-defined]
        field = next((v for k, v in trailing if k == FIELD_METADATA_KEY), "")
    debug = exc.debug_error_string() if hasattr(exc, "debug_error_string") else ""
    return Result(code=exc.code().name, details=exc.details() or "", field=field, debug=debug or "")


class Caller:
    """One client. ``timeout`` None: the client's own behaviour without a deadline."""

    name = "?"
    #: The wrong-metadata cases this client can express (chsr.client always writes "Bearer <token>").
    auth_cases: tuple[str, ...] = ("missing", "wrong token", "token without 'Bearer '", "token under another key")

    def __init__(self, target: str, token: str) -> None:
        self.target, self.token = target, token

    def unary(self, rpc: str, request: Any, timeout: float | None, auth: str = "token") -> Result:
        raise NotImplementedError

    def ingest(self, batches: list[gateway_pb2.IngestWithProgressRequest], timeout: float | None,
               auth: str = "token") -> Result:
        raise NotImplementedError

    def close(self) -> None:
        pass


# ---- the plain generated stubs -----------------------------------------------------------------
_metadata = auth_metadata


class PlainStub(Caller):
    name = "python-stub"

    def __init__(self, target: str, token: str) -> None:
        super().__init__(target, token)
        self._channel = grpc.insecure_channel(target)   # no options: as another team would start
        self._stub = gateway_pb2_grpc.GatewayServiceStub(self._channel)

    def unary(self, rpc: str, request: Any, timeout: float | None, auth: str = "token") -> Result:
        try:
            return Result("OK", getattr(self._stub, rpc)(request, timeout=timeout,
                                                         metadata=_metadata(self.token, auth)))
        except grpc.RpcError as exc:
            return _failed(exc)

    def ingest(self, batches: list[gateway_pb2.IngestWithProgressRequest], timeout: float | None,
               auth: str = "token") -> Result:
        acks: list[Any] = []
        try:
            for ack in self._stub.IngestWithProgress(iter(batches), timeout=timeout,
                                                     metadata=_metadata(self.token, auth)):
                acks.append(ack)
        except grpc.RpcError as exc:
            failed = _failed(exc)
            failed.response = acks
            return failed
        return Result("OK", acks)

    def close(self) -> None:
        self._channel.close()


def _run(make: Callable[[], Awaitable[Result]]) -> Result:
    """One event loop per call: a grpc.aio channel belongs to the loop that created it."""
    return asyncio.run(make())  # type: ignore[arg-type]


class PlainAioStub(Caller):
    name = "python-aio-stub"

    def unary(self, rpc: str, request: Any, timeout: float | None, auth: str = "token") -> Result:
        async def call() -> Result:
            async with grpc.aio.insecure_channel(self.target) as channel:
                stub = gateway_pb2_grpc.GatewayServiceStub(channel)
                try:
                    return Result("OK", await getattr(stub, rpc)(request, timeout=timeout,
                                                                 metadata=_metadata(self.token, auth)))
                except grpc.RpcError as exc:
                    return _failed(exc)
        return _run(call)

    def ingest(self, batches: list[gateway_pb2.IngestWithProgressRequest], timeout: float | None,
               auth: str = "token") -> Result:
        async def call() -> Result:
            acks: list[Any] = []
            async with grpc.aio.insecure_channel(self.target) as channel:
                stream = gateway_pb2_grpc.GatewayServiceStub(channel).IngestWithProgress(
                    timeout=timeout, metadata=_metadata(self.token, auth))
                try:
                    for batch in batches:       # one batch, then its acknowledgement
                        await stream.write(batch)
                        ack = await stream.read()
                        if ack is grpc.aio.EOF:
                            break
                        acks.append(ack)
                    await stream.done_writing()
                    while (ack := await stream.read()) is not grpc.aio.EOF:
                        acks.append(ack)
                except grpc.RpcError as exc:
                    failed = _failed(exc)
                    failed.response = acks
                    return failed
                except asyncio.InvalidStateError:   # write after the server ended the call
                    pass
                code = await stream.code()
                if code != grpc.StatusCode.OK:
                    trailing = await stream.trailing_metadata() or ()
                    return Result(code.name, acks, await stream.details() or "",
                                  next((v for k, v in trailing if k == FIELD_METADATA_KEY), ""))
                return Result("OK", acks)
        return _run(call)


# ---- chsr.client -------------------------------------------------------------------------------
def _token_for(token: str, auth: str) -> str:
    """chsr.client sends ``authorization: Bearer <token>``; "" sends nothing."""
    return {"token": token, "missing": "", "wrong token": "not-the-token"}[auth]


def _search_args(req: gateway_pb2.SearchRequest) -> dict[str, Any]:
    return {"query": req.query, "k": req.k, "pipeline": req.pipeline, "hints": Scope.from_proto(req.hints),
            "strict": req.strict_scope, "no_cache": req.no_cache}


class ChsrClient(Caller):
    name = "chsr.client"
    auth_cases = ("missing", "wrong token")

    def _client(self, auth: str) -> GatewayClient:
        return GatewayClient(self.target, token=_token_for(self.token, auth))

    def unary(self, rpc: str, request: Any, timeout: float | None, auth: str = "token") -> Result:
        with self._client(auth) as client:
            calls: dict[str, Callable[[], Any]] = {
                "Search": lambda: client.search(**_search_args(request), timeout=timeout),
                "Delete": lambda: client.delete(request.doc_ids, timeout=timeout),
                "IndexStats": lambda: client.stats(timeout=timeout),
                "VerifyIndex": lambda: client.verify(request.expected_ids, timeout=timeout),
                "ListPipelines": lambda: client.pipelines(timeout=timeout),
            }
            try:
                return Result("OK", calls[rpc]())
            except grpc.RpcError as exc:
                return _failed(exc)

    def ingest(self, batches: list[gateway_pb2.IngestWithProgressRequest], timeout: float | None,
               auth: str = "token") -> Result:
        docs = [Doc.from_proto(d) for b in batches for d in b.documents]
        acks: list[Any] = []
        with self._client(auth) as client:
            try:
                for ack in client.ingest_progress(docs, batch_size=len(batches[0].documents), timeout=timeout):
                    acks.append(ack)
            except grpc.RpcError as exc:
                failed = _failed(exc)
                failed.response = acks
                return failed
        return Result("OK", acks)


class ChsrAsyncClient(Caller):
    name = "chsr.client-async"
    auth_cases = ("missing", "wrong token")

    def unary(self, rpc: str, request: Any, timeout: float | None, auth: str = "token") -> Result:
        async def call() -> Result:
            async with AsyncGatewayClient(self.target, token=_token_for(self.token, auth)) as client:
                calls: dict[str, Callable[[], Awaitable[Any]]] = {
                    "Search": lambda: client.search(**_search_args(request), timeout=timeout),
                    "Delete": lambda: client.delete(request.doc_ids, timeout=timeout),
                    "IndexStats": lambda: client.stats(timeout=timeout),
                    "VerifyIndex": lambda: client.verify(request.expected_ids, timeout=timeout),
                    "ListPipelines": lambda: client.pipelines(timeout=timeout),
                }
                try:
                    return Result("OK", await calls[rpc]())
                except grpc.RpcError as exc:
                    return _failed(exc)
        return _run(call)

    def ingest(self, batches: list[gateway_pb2.IngestWithProgressRequest], timeout: float | None,
               auth: str = "token") -> Result:
        docs = [Doc.from_proto(d) for b in batches for d in b.documents]

        async def call() -> Result:
            acks: list[Any] = []
            async with AsyncGatewayClient(self.target, token=_token_for(self.token, auth)) as client:
                try:
                    async for ack in client.ingest_progress(docs, batch_size=len(batches[0].documents),
                                                            timeout=timeout):
                        acks.append(ack)
                except grpc.RpcError as exc:
                    failed = _failed(exc)
                    failed.response = acks
                    return failed
            return Result("OK", acks)
        return _run(call)


CALLERS: dict[str, type[Caller]] = {c.name: c for c in (PlainStub, PlainAioStub, ChsrClient, ChsrAsyncClient)}
