"""`chsr up`: a small supervisor that runs the six servers as separate processes.

Each service is its own process (as in Kubernetes), started with the ports and
backend chosen here, health-checked until SERVING, restarted if it dies, and
stopped with SIGTERM (graceful drain) on Ctrl-C / SIGTERM.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

log = logging.getLogger("chsr.up")
SERVICES = ("gate", "sparse", "dense", "fusion", "rerank", "gateway")
MODULES = {name: f"services.{name}.server" for name in SERVICES[:-1]} | {"gateway": "gateway.server"}
OFFSETS = {"gateway": 0, "gate": 1, "sparse": 2, "dense": 3, "fusion": 4, "rerank": 5}
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class MeshLayout:
    host: str = "127.0.0.1"
    port: int = 50051
    metrics_base: int = 9101

    def grpc_port(self, service: str) -> int:
        return self.port + OFFSETS[service]

    def metrics_port(self, service: str) -> int:
        return self.metrics_base + OFFSETS[service] if self.metrics_base else 0

    def addr(self, service: str) -> str:
        return f"{self.host}:{self.grpc_port(service)}"

    def env(self, service: str, backend: str, data_dir: str | None) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "CHSR_BACKEND": backend, "CHSR_HOST": self.host,
            "CHSR_PORT": str(self.grpc_port(service)), "CHSR_METRICS_PORT": str(self.metrics_port(service)),
            "CHSR_GATE_ADDR": self.addr("gate"), "CHSR_SPARSE_ADDR": self.addr("sparse"),
            "CHSR_DENSE_ADDR": self.addr("dense"), "CHSR_FUSION_ADDR": self.addr("fusion"),
            "CHSR_RERANK_ADDR": self.addr("rerank"), "PYTHONUNBUFFERED": "1",
        })
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        if data_dir:
            env["CHSR_DATA_DIR"] = data_dir
        env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        return env


def wait_serving(addr: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    with grpc.insecure_channel(addr) as chan:
        stub = health_pb2_grpc.HealthStub(chan)
        while time.monotonic() < deadline:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                time.sleep(0.2)
    return False


class Supervisor:
    def __init__(self, layout: MeshLayout, backend: str, data_dir: str | None, log_dir: Path | None,
                 restart: bool = True) -> None:
        self.layout, self.backend, self.data_dir, self.log_dir = layout, backend, data_dir, log_dir
        self.restart = restart
        self.procs: dict[str, subprocess.Popen] = {}
        self._stopping = threading.Event()

    def start_service(self, name: str) -> None:
        out = None
        if self.log_dir:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            out = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - lives as long as the child
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", MODULES[name]], env=self.layout.env(name, self.backend, self.data_dir),
            stdout=out, stderr=out, cwd=str(REPO_ROOT))

    def start_all(self, timeout_s: float = 180) -> None:
        for name in SERVICES:
            self.start_service(name)
        for name in SERVICES:
            if not wait_serving(self.layout.addr(name), timeout_s):
                self.stop_all()
                raise RuntimeError(f"{name} did not become SERVING within {timeout_s:.0f}s"
                                   + (f"; see {self.log_dir / (name + '.log')}" if self.log_dir else ""))

    def watch(self) -> None:
        """Restart children that die (with a short backoff) until stopped."""
        while not self._stopping.wait(0.5):
            for name, proc in list(self.procs.items()):
                if proc.poll() is not None and not self._stopping.is_set():
                    log.error("service exited; restarting", extra={"service": name, "rc": proc.returncode})
                    if self.restart:
                        time.sleep(0.5)
                        self.start_service(name)

    def stop_all(self, grace_s: float = 10) -> None:
        self._stopping.set()
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("up", help="start all six servers (gateway, gate, sparse, dense, fusion, rerank)")
    p.add_argument("--backend", choices=["embedded", "engines"], default=os.environ.get("CHSR_BACKEND", "embedded"))
    p.add_argument("--data-dir", default=os.environ.get("CHSR_DATA_DIR"))
    p.add_argument("--port", type=int, default=50051, help="gateway port; services use the next five")
    p.add_argument("--metrics-base", type=int, default=9101, help="gateway /metrics port; services use the next five")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--log-dir", default=None, help="service logs (default: <data-dir>/logs or ~/.cache/chsr/logs)")
    p.add_argument("--demo", action="store_true", help="ingest the bundled demo corpus and answer a sample query")
    p.set_defaults(func=run_up)


def run_up(args: argparse.Namespace) -> int:
    logging.getLogger().setLevel(logging.INFO)
    layout = MeshLayout(args.host, args.port, args.metrics_base)
    base = Path(args.data_dir) if args.data_dir else Path.home() / ".cache" / "chsr"
    log_dir = Path(args.log_dir) if args.log_dir else base / "logs"
    sup = Supervisor(layout, args.backend, args.data_dir, log_dir)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    started = time.monotonic()
    sup.start_all()
    sys.stdout.write(f"chsr mesh up ({args.backend}) in {time.monotonic() - started:.1f}s: gateway {layout.addr('gateway')}"
                     f"  metrics :{layout.metrics_port('gateway')}-{layout.metrics_port('rerank')}  logs {log_dir}\n")
    sys.stdout.flush()
    if args.demo:
        from chsr.cli.demo import run_demo
        run_demo(layout.addr("gateway"))
    watcher = threading.Thread(target=sup.watch, daemon=True)
    watcher.start()
    stop.wait()
    sys.stdout.write("stopping...\n")
    sup.stop_all()
    return 0
