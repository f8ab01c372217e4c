"""One way to run a gRPC service: health, reflection, metrics, TLS, graceful stop.

Each service's ``server.py`` only builds its servicer and calls :func:`serve`.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from concurrent import futures
from dataclasses import dataclass
from typing import Callable

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from prometheus_client import start_http_server

from chsr.config import Settings
from chsr.metrics import GRPC_HANDLED, GRPC_HANDLING, INFLIGHT
from chsr.tls import server_credentials

log = logging.getLogger(__name__)


class MetricsInterceptor(grpc.ServerInterceptor):
    """Times every handler and counts it by status code."""

    def __init__(self, service: str) -> None:
        self._service = service

    def intercept_service(self, continuation, handler_call_details):  # type: ignore[no-untyped-def]
        handler = continuation(handler_call_details)
        if handler is None:
            return None
        method = handler_call_details.method.rsplit("/", 1)[-1]
        if handler_call_details.method.startswith(("/grpc.health", "/grpc.reflection")):
            return handler
        service = self._service

        def wrap(behavior, streaming_response: bool):  # type: ignore[no-untyped-def]
            def timed(request_or_iterator, context):  # type: ignore[no-untyped-def]
                start = time.perf_counter()
                INFLIGHT.labels(service).inc()
                code = "OK"
                try:
                    result = behavior(request_or_iterator, context)
                    if streaming_response:
                        yield from result
                        return
                    return result
                except Exception:
                    code = context.code().name if context.code() is not None else "INTERNAL"
                    raise
                finally:
                    if code == "OK" and context.code() is not None:
                        code = context.code().name
                    INFLIGHT.labels(service).dec()
                    GRPC_HANDLING.labels(service, method).observe(time.perf_counter() - start)
                    GRPC_HANDLED.labels(service, method, code).inc()

            if streaming_response:
                return timed

            def unary(request_or_iterator, context):  # type: ignore[no-untyped-def]
                gen = timed(request_or_iterator, context)
                try:
                    next(gen)
                except StopIteration as stop:
                    return stop.value
                raise RuntimeError("unreachable")

            return unary

        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                wrap(handler.unary_unary, False), handler.request_deserializer, handler.response_serializer)
        if handler.stream_unary:
            return grpc.stream_unary_rpc_method_handler(
                wrap(handler.stream_unary, False), handler.request_deserializer, handler.response_serializer)
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                wrap(handler.unary_stream, True), handler.request_deserializer, handler.response_serializer)
        if handler.stream_stream:
            return grpc.stream_stream_rpc_method_handler(
                wrap(handler.stream_stream, True), handler.request_deserializer, handler.response_serializer)
        return handler


@dataclass
class RunningServer:
    server: grpc.Server
    health: health.HealthServicer
    port: int
    service_names: list[str]

    def stop(self, grace: float = 5.0) -> None:
        for name in self.service_names + [""]:
            self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.stop(grace).wait()


def start_server(
    service: str,
    register: Callable[[grpc.Server], list[str]],
    settings: Settings,
    port: int | None = None,
    metrics_port: int | None = None,
    max_workers: int = 16,
) -> RunningServer:
    """Build and start a server; ``register`` adds servicers and returns full service names."""
    options = [
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", settings.max_message_bytes),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.keepalive_permit_without_calls", 1),
    ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix=service),
        interceptors=[MetricsInterceptor(service)], options=options,
    )
    names = register(server)
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(names + [health.SERVICE_NAME, reflection.SERVICE_NAME], server)
    bind_port = settings.port_for(service) if port is None else port
    address = f"{settings.host}:{bind_port}"
    creds = server_credentials(settings)
    bound = server.add_secure_port(address, creds) if creds else server.add_insecure_port(address)
    server.start()
    for name in names + [""]:
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    m_port = settings.metrics_port_for(service) if metrics_port is None else metrics_port
    if m_port:
        start_http_server(m_port, addr=settings.host)
    log.info("server started", extra={"grpc_port": bound, "metrics_port": m_port, "tls": bool(creds)})
    return RunningServer(server=server, health=health_servicer, port=bound, service_names=names)


def serve_forever(running: RunningServer, on_stop: Callable[[], None] | None = None) -> None:
    """Block until SIGTERM/SIGINT, then drain (health NOT_SERVING, 5 s grace)."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    log.info("shutting down")
    running.stop()
    if on_stop:
        on_stop()
