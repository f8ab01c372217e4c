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

from chsr.config import Settings
from chsr.errors import ChsrError
from chsr.inprocess import InProcessStub
from chsr.stages import KNOWN_LEGS
from chsr.v1 import gateway_pb2
from gateway.cache.memory import MemoryCache
from gateway.request import plan_search
from gateway.search import SearchService
from gateway.stubs import StageStubs
from tools.bench.driver import Sample


class _CapturingServer:
    """Stands in for ``grpc.Server`` during ``register``: keeps the method handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, dict[str, Any]] = {}

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        self.handlers[service] = handlers


def build_servicer(server_module: str, service: str, settings: Settings) -> Any:
    """The servicer object a server module's ``build`` registers for ``service`` (a full name)."""
    build = importlib.import_module(server_module).build
    register, _on_stop = build(settings)
    server = _CapturingServer()
    register(server)
    for handler in server.handlers.get(service, {}).values():
        behaviour = handler.unary_unary or handler.unary_stream or handler.stream_unary or handler.stream_stream
        owner = getattr(behaviour, "__self__", None)
        if owner is not None:
            return owner
    raise RuntimeError(f"{server_module}: registers no servicer for {service}")


def build_search_service(settings: Settings) -> SearchService:
    """A SearchService over in-process servicers; its cache is a fresh in-memory one."""
    def stub(name: str, service: str) -> InProcessStub:
        return InProcessStub(build_servicer(f"services.{name}.server", f"chsr.v1.{service}", settings))

    stubs = StageStubs(gate=stub("gate", "GateService"), fusion=stub("fusion", "FusionService"),
                       rerank=stub("rerank", "RerankService"),
                       servers={name: stub(name, "RetrieverService") for name in settings.retrieval_servers},
                       legs={leg: KNOWN_LEGS[leg] for leg in settings.enabled_legs})
    return SearchService(stubs, MemoryCache(settings.cache_max_entries), settings)


def inprocess_sample(service: SearchService, request: gateway_pb2.SearchRequest, deadline_s: float,
                     settings: Settings, worker: int = 0) -> Sample:
    start = time.monotonic()
    try:
        resp = service.search(plan_search(request, settings), deadline_s)
    except (ChsrError, grpc.RpcError) as exc:
        code = exc.code().name if isinstance(exc, grpc.RpcError) else exc.code.name
        return Sample(worker, start, time.monotonic(), code, details=str(exc))
    return Sample(worker, start, time.monotonic(), "OK", degraded=tuple(resp.degraded),
                  timings={t.stage: t.ms for t in resp.timings}, cache_hit=resp.cache_hit, results=len(resp.results))
