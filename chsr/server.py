"""One way to run a gRPC server: health, reflection, metrics, errors, auth, TLS, graceful stop.

Each service's ``server.py`` only builds its servicers and calls :func:`run_service`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from concurrent import futures
from dataclasses import dataclass
from typing import Callable

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from prometheus_client import start_http_server
from pydantic import ValidationError

from chsr.config import Settings, load_settings
from chsr.errors import FailedPrecondition
from chsr.extras import install_hint
from chsr.interceptors import MeshInterceptor, WriteCredentials
from chsr.logging_setup import configure_logging
from chsr.stop_signals import StopSignals
from chsr.tls import server_credentials

log = logging.getLogger(__name__)

#: Adds servicers to a server and returns the full names of the services it added.
Registrar = Callable[[grpc.Server], list[str]]
DRAIN_GRACE_S = 5.0
READY_POLL_S = 0.5


@dataclass
class RunningServer:
    server: grpc.Server
    health: health.HealthServicer
    port: int
    service_names: list[str]

    def stop(self, grace: float = DRAIN_GRACE_S) -> None:
        for name in self.service_names + [""]:
            self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.stop(grace).wait()


def write_credentials(settings: Settings) -> WriteCredentials:
    return WriteCredentials(settings.ingest_token, settings.writer_identity_list)


def start_server(
    service: str,
    register: Registrar,
    settings: Settings,
    port: int | None = None,
    metrics_port: int | None = None,
    max_workers: int = 16,
    ready: Callable[[], bool] | None = None,
) -> RunningServer:
    """Build and start a server with the mesh interceptor, health and reflection. With ``ready`` the
    health stays NOT_SERVING until ``ready()`` is true (polled; e.g. the gateway waits for its stages)."""
    options = [
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", settings.max_message_bytes),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.keepalive_permit_without_calls", 1),
    ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix=service),
        interceptors=[MeshInterceptor(service, write_credentials(settings))], options=options,
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
    if ready is None:
        _set_health(health_servicer, names, health_pb2.HealthCheckResponse.SERVING)
    else:
        _set_health(health_servicer, names, health_pb2.HealthCheckResponse.NOT_SERVING)
        threading.Thread(target=_serve_when_ready, args=(health_servicer, names, ready), name=f"{service}-ready",
                         daemon=True).start()
    m_port = settings.metrics_port_for(service) if metrics_port is None else metrics_port
    if m_port:
        start_http_server(m_port, addr=settings.host)
    log.info("server started", extra={"grpc_port": bound, "metrics_port": m_port, "tls": bool(creds)})
    return RunningServer(server=server, health=health_servicer, port=bound, service_names=names)


def _set_health(servicer: health.HealthServicer, names: list[str], status: int) -> None:
    for name in names + [""]:
        servicer.set(name, status)


def _serve_when_ready(servicer: health.HealthServicer, names: list[str], ready: Callable[[], bool]) -> None:
    while True:
        try:
            if ready():
                break
        except Exception:  # not ready yet
            log.debug("readiness check failed", exc_info=True)
        time.sleep(READY_POLL_S)
    _set_health(servicer, names, health_pb2.HealthCheckResponse.SERVING)
    log.info("ready: serving")


def serve_forever(running: RunningServer, on_stop: Callable[[], None] | None = None) -> None:
    """Block until SIGTERM/SIGINT, then drain (health NOT_SERVING, 5 s grace)."""
    StopSignals().wait()  # polls: a signal delivered to a gRPC thread must still stop the server (chsr.stop_signals)
    log.info("shutting down")
    running.stop()
    if on_stop:
        on_stop()


def describe_settings_error(exc: ValidationError) -> str:
    """``CHSR_BACKEND: Input should be 'embedded' or 'engines' (got 'engnes')``, one per bad variable.
    A field that takes a number or a word (``CHSR_ES_REPLICAS``: ``auto`` or >= 0) reports each branch's
    message, joined by "or", under the variable's own name."""
    by_field: dict[str, tuple[list[str], object]] = {}
    for e in exc.errors():
        messages, _ = by_field.setdefault(str(e["loc"][0]), ([], e.get("input")))
        messages.append(e["msg"])
    return "; ".join(f"CHSR_{name.upper()}: {' or '.join(messages)} (got {value!r})"
                     for name, (messages, value) in by_field.items())


def run_service(name: str, build: Callable[[Settings], tuple[Registrar, Callable[[], None] | None]]) -> None:
    """A service process's ``main``: settings (a bad value exits 2 naming it), logging, serve, drain.
    ``build`` returns (register servicers on a server, on_stop); a ``register`` with a ``ready`` attribute
    (a callable) keeps the server's health NOT_SERVING until ``ready()`` is true (the gateway's stages)."""
    try:
        settings = load_settings()
    except ValidationError as exc:
        sys.stderr.write(f"{name}: invalid configuration: {describe_settings_error(exc)}\n")
        raise SystemExit(2) from None
    configure_logging(settings.log_level, settings.log_format, service=name)
    try:
        register, on_stop = build(settings)
    except FailedPrecondition as exc:  # e.g. a replication factor above the cluster's node count
        sys.stderr.write(f"{name}: cannot start: {exc}\n")
        raise SystemExit(3) from None
    except ModuleNotFoundError as exc:  # a server started without its extra installed
        sys.stderr.write(f"{name}: cannot start: {install_hint(exc, f'the {name} server', name)}\n")
        raise SystemExit(3) from None
    running = start_server(name, register, settings, ready=getattr(register, "ready", None))
    logging.getLogger(name).info("serving", extra={"port": running.port, "backend": settings.backend})
    serve_forever(running, on_stop)
