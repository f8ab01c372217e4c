"""Background probes that keep `chsr_backend_up{backend}` current ("backend health").

The gateway probes each stage's gRPC health service; the sparse/dense services probe
their engine (a cheap count). A probe that fails or times out sets the gauge to 0.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from chsr.metrics import BACKEND_UP

log = logging.getLogger(__name__)


def start_probe(name: str, check: Callable[[], bool], interval_s: float = 5.0) -> threading.Event:
    """Run ``check`` every ``interval_s`` seconds in a daemon thread; returns a stop event."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                ok = bool(check())
            except Exception:  # a probe must never kill its thread; the gauge says "down"
                ok = False
            BACKEND_UP.labels(name).set(1 if ok else 0)
            stop.wait(interval_s)

    threading.Thread(target=loop, name=f"probe-{name}", daemon=True).start()
    return stop


def grpc_health_check(channel: grpc.Channel, timeout_s: float = 1.0) -> Callable[[], bool]:
    stub = health_pb2_grpc.HealthStub(channel)

    def check() -> bool:
        resp = stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout_s)
        return resp.status == health_pb2.HealthCheckResponse.SERVING

    return check
