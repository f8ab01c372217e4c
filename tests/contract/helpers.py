"""Start one service's wiring on a real gRPC server (loopback, ephemeral port) for contract tests."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from chsr.config import Settings
from chsr.server import Registrar, start_server


@contextmanager
def serving(name: str, build: Callable[[Settings], tuple[Registrar, Callable[[], None] | None]],
            settings: Settings | None = None) -> Iterator[grpc.Channel]:
    """Start ``build(settings)`` (a service's own wiring) on an ephemeral loopback port."""
    settings = settings or Settings()
    register, on_stop = build(settings)
    running = start_server(name, register, settings, port=0, metrics_port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    try:
        yield channel
    finally:
        channel.close()
        running.stop(grace=0.5)
        if on_stop:
            on_stop()


def health_status(channel: grpc.Channel, service: str = "") -> int:
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def reflected_services(channel: grpc.Channel) -> set[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
    return {s.name for r in responses for s in r.list_services_response.service}
