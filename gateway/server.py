"""gRPC wiring for the gateway: the servicer, its result cache, the stage health probes and its readiness."""

from __future__ import annotations

import logging
from typing import Callable

import grpc

from chsr import dictionary, glossary
from chsr.channels import get_channel
from chsr.config import Backend, Settings
from chsr.health_probe import grpc_health_check, start_probe
from chsr.server import run_service
from chsr.versions import VersionIndex
from chsr.v1 import gateway_pb2, gateway_pb2_grpc
from gateway.cache.base import ResultCache
from gateway.catalogue_sync import CatalogueSync
from gateway.readiness import StageReadiness
from gateway.servicer import GatewayServicer
from gateway.stubs import StageStubs

log = logging.getLogger(__name__)
OPTIONAL_FOR_READINESS = ("graph", "ingest")


def build_cache(settings: Settings) -> ResultCache:
    if settings.backend is Backend.ENGINES:
        from gateway.cache.redis_cache import RedisCache
        return RedisCache.from_settings(settings)
    from gateway.cache.memory import MemoryCache
    return MemoryCache(settings.cache_max_entries)


def stage_checks(settings: Settings) -> dict[str, Callable[[], bool]]:
    """A gRPC health check per stage the gateway calls."""
    return {stage: grpc_health_check(get_channel(settings.stage_addr(stage), settings))
            for stage in ("gate", *settings.retrieval_servers, "fusion", "rerank", "ingest")}


def start_stage_probes(checks: dict[str, Callable[[], bool]]) -> None:
    for stage, check in checks.items():
        start_probe(stage, check)


def build(settings: Settings):  # type: ignore[no-untyped-def]
    stubs = StageStubs.grpc(settings)
    checks = stage_checks(settings)
    # ready = the stages every search needs; the graph and ingest servers are optional: a search with the graph
    # leg down is answered and flagged graph_unavailable, and a write that needs a missing server fails UNAVAILABLE
    readiness = StageReadiness({k: v for k, v in checks.items() if k not in OPTIONAL_FOR_READINESS})
    catalogue = None
    if settings.catalogue_poll_s > 0 and settings.retrieval_servers:
        # an item's versions in other languages are read from the same documents, through the dictionaries
        dictionary.configure(settings.dictionary_dir, settings.cache_dir)
        versions = VersionIndex() if settings.link_versions else None
        catalogue = CatalogueSync(stubs, settings.retrieval_servers[0], settings.catalogue_poll_s, versions).start()
    servicer = GatewayServicer(stubs, build_cache(settings), settings, catalogue, readiness)
    glossary.load()  # the evidence probe's Chinese words for English descriptions of Chinese items
    start_stage_probes(checks)

    def register(server: grpc.Server) -> list[str]:
        gateway_pb2_grpc.add_GatewayServiceServicer_to_server(servicer, server)
        return [gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name]

    # health NOT_SERVING until every stage answers (chsr up, chsr ingest and k8s readiness see the same)
    register.ready = readiness.ready  # type: ignore[attr-defined]
    return register, (catalogue.stop if catalogue is not None else None)


def main() -> None:
    run_service("gateway", build)


if __name__ == "__main__":
    main()
