"""gRPC wiring for the gateway.

Requests are parsed inside the handler (not by gRPC's deserializer) so a
malformed message, e.g. invalid UTF-8 in a string field, is answered with
INVALID_ARGUMENT instead of gRPC's generic INTERNAL (issue 7: 0 INTERNAL).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterator

import grpc
from google.protobuf.message import DecodeError

from chsr.channels import get_channel
from chsr.config import Settings
from chsr.health_probe import grpc_health_check, start_probe
from chsr.service_main import run_service
from chsr.v1 import common_pb2, gateway_pb2
from gateway.cache.base import ResultCache
from gateway.servicer import GatewayServicer
from gateway.stages import StageStubs

log = logging.getLogger(__name__)
SERVICE_NAME = gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name

_UNARY: dict[str, tuple[Any, Any]] = {
    "Search": (gateway_pb2.SearchRequest, gateway_pb2.SearchResponse),
    "Delete": (common_pb2.DeleteRequest, common_pb2.DeleteResponse),
    "IndexStats": (gateway_pb2.IndexStatsRequest, gateway_pb2.IndexStatsResponse),
    "VerifyIndex": (gateway_pb2.VerifyIndexRequest, gateway_pb2.VerifyIndexResponse),
    "ListPipelines": (gateway_pb2.ListPipelinesRequest, gateway_pb2.ListPipelinesResponse),
}


def _parse(msg_cls: Any, data: bytes, context: grpc.ServicerContext) -> Any:
    try:
        return msg_cls.FromString(data)
    except DecodeError as exc:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                      f"request: not a valid {msg_cls.DESCRIPTOR.name} (e.g. invalid UTF-8 in a string field): {exc}")


def _unary(behavior: Callable, msg_cls: Any) -> Callable:
    def handler(data: bytes, context: grpc.ServicerContext) -> Any:
        return behavior(_parse(msg_cls, data, context), context)
    return handler


def _stream(behavior: Callable, msg_cls: Any) -> Callable:
    def handler(data_iter: Iterator[bytes], context: grpc.ServicerContext) -> Any:
        return behavior((_parse(msg_cls, d, context) for d in data_iter), context)
    return handler


def generic_handler(servicer: GatewayServicer) -> grpc.GenericRpcHandler:
    handlers = {
        name: grpc.unary_unary_rpc_method_handler(_unary(getattr(servicer, name), req),
                                                  response_serializer=resp.SerializeToString)
        for name, (req, resp) in _UNARY.items()
    }
    handlers["Ingest"] = grpc.stream_unary_rpc_method_handler(
        _stream(servicer.Ingest, gateway_pb2.IngestBatch),
        response_serializer=gateway_pb2.IngestSummary.SerializeToString)
    handlers["IngestWithProgress"] = grpc.stream_stream_rpc_method_handler(
        _stream(servicer.IngestWithProgress, gateway_pb2.IngestBatch),
        response_serializer=gateway_pb2.IngestProgress.SerializeToString)
    return grpc.method_handlers_generic_handler(SERVICE_NAME, handlers)


def build_cache(settings: Settings) -> ResultCache:
    if settings.backend == "engines":
        from gateway.cache.redis_cache import RedisCache
        return RedisCache.from_settings(settings)
    from gateway.cache.memory import MemoryCache
    return MemoryCache(settings.cache_max_entries)


def start_stage_probes(settings: Settings) -> None:
    for name in ("gate", "sparse", "dense", "fusion", "rerank"):
        addr = getattr(settings, f"{name}_addr")
        start_probe(name, grpc_health_check(get_channel(addr, settings)))


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = GatewayServicer(StageStubs.grpc(settings), build_cache(settings), settings)
    start_stage_probes(settings)

    def register(server: grpc.Server) -> list[str]:
        server.add_generic_rpc_handlers((generic_handler(servicer),))
        return [SERVICE_NAME]

    return register, None


def main() -> None:
    run_service("gateway", build)


if __name__ == "__main__":
    main()
