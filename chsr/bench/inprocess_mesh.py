"""The same pipeline without the network: five servicers in this process behind InProcessStubs.

docs/decisions.md section 4: the gateway's :class:`~gateway.search.SearchService`
runs unchanged over :class:`~chsr.inprocess.InProcessStub` wrappers of the very
servicers the mesh runs, so the load benchmark can report mesh / in-process.
Each servicer is built by its own service's ``build(settings)`` (the wiring the
servers use) and picked out of the handlers it registers, so nothing here can
drift from the services' start-up code.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

import grpc

from chsr.bench.driver import Sample
from chsr.config import Settings
from chsr.inprocess import InProcessStub
from chsr.v1 import gateway_pb2
from gateway.budget import DeadlineExceeded
from gateway.cache.memory import MemoryCache
from gateway.rung import StageUnavailable
from gateway.search import GateFailedClosed, SearchService
from gateway.stages import StageStubs

SERVICES = ("gate", "sparse", "dense", "fusion", "rerank")


class _CapturingServer:
    """Stands in for ``grpc.Server`` during ``register``: keeps the method handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        self.handlers.update(handlers)


def build_servicer(service: str, settings: Settings) -> Any:
    build = importlib.import_module(f"services.{service}.server").build
    register, _on_stop = build(settings)
    server = _CapturingServer()
    register(server)
    for handler in server.handlers.values():
        behaviour = handler.unary_unary or handler.unary_stream or handler.stream_unary or handler.stream_stream
        owner = getattr(behaviour, "__self__", None)
        if owner is not None:
            return owner
    raise RuntimeError(f"{service}: no servicer found among its registered handlers")


def build_search_service(settings: Settings) -> SearchService:
    """A SearchService over in-process servicers; its cache is a fresh in-memory one."""
    stubs = StageStubs(**{name: InProcessStub(build_servicer(name, settings)) for name in SERVICES})
    return SearchService(stubs, MemoryCache(settings.cache_max_entries), settings)


def inprocess_sample(service: SearchService, request: gateway_pb2.SearchRequest, deadline_s: float,
                     worker: int = 0) -> Sample:
    start = time.monotonic()
    try:
        resp = service.search(request, deadline_s)
    except (DeadlineExceeded, StageUnavailable, GateFailedClosed, ValueError, grpc.RpcError) as exc:
        code = exc.code().name if isinstance(exc, grpc.RpcError) else type(exc).__name__
        return Sample(worker, start, time.monotonic(), code, details=str(exc))
    return Sample(worker, start, time.monotonic(), "OK", degraded=tuple(resp.degraded),
                  timings={t.stage: t.ms for t in resp.timings}, cache_hit=resp.cache_hit, results=len(resp.results))
