"""`chsr up`: a small supervisor that runs the servers as separate processes.

The servers are the gate, fusion, rerank, the ingest server and the gateway plus the retrieval
servers of the enabled legs (``CHSR_LEGS`` / ``--legs``: sparse, dense and graph by default); a mesh
without the graph leg simply does not start the graph server.

Each service is its own process (as in Kubernetes), started with the ports and
backend chosen here, health-checked until SERVING, restarted if it dies, and
stopped with SIGTERM (graceful drain) on Ctrl-C / SIGTERM. The children never
outlive the supervisor: whatever ends ``chsr up`` (an error after start-up, a
signal, even ``kill -9``: Linux's parent-death signal) ends them too.
"""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from chsr.config import Backend, Settings, get_settings
from chsr.stages import ALL_RETRIEVAL_SERVERS, retrieval_servers
from chsr.stop_signals import StopSignals
from tools.demo import DEMO_CORPUS

log = logging.getLogger("chsr.up")
#: Every server `chsr up` can start, in start order (the gateway last).
SERVICES = ("gate", *ALL_RETRIEVAL_SERVERS, "fusion", "rerank", "ingest", "gateway")
MODULES = {name: f"services.{name}.server" for name in SERVICES[:-1]} | {"gateway": "gateway.server"}
OFFSETS = {"gateway": 0, "gate": 1, "sparse": 2, "dense": 3, "fusion": 4, "rerank": 5, "ingest": 6, "graph": 7}


def enabled_services(legs: str | None = None) -> tuple[str, ...]:
    """The servers a mesh with legs ``legs`` (``CHSR_LEGS`` syntax; None = the settings') runs."""
    enabled = (Settings(legs=legs) if legs else get_settings()).enabled_legs
    servers = retrieval_servers(enabled)
    return tuple(s for s in SERVICES if s not in ALL_RETRIEVAL_SERVERS or s in servers)


_PR_SET_PDEATHSIG = 1
#: Each server gets SIGTERM when the supervisor dies, however it dies (Linux). `setpriv --pdeathsig`
#: (util-linux) sets that and execs the server, so the child runs no Python between fork and exec: a
#: ``preexec_fn`` forks a process that has gRPC, torch and OpenMP threads and then runs code in the
#: child (dlopen, atfork handlers), which can abort it; without one, subprocess uses vfork.
_SETPRIV = shutil.which("setpriv") if sys.platform.startswith("linux") else None
try:  # the fallback, resolved here in the parent so the child only makes the call
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None
except (OSError, AttributeError):
    _PRCTL = None


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

    def env(self, service: str, backend: str, data_dir: str | None,
            extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ) | (extra or {})
        env.update({
            "CHSR_BACKEND": backend, "CHSR_HOST": self.host,
            "CHSR_PORT": str(self.grpc_port(service)), "CHSR_METRICS_PORT": str(self.metrics_port(service)),
            "CHSR_GATE_ADDR": self.addr("gate"), "CHSR_SPARSE_ADDR": self.addr("sparse"),
            "CHSR_DENSE_ADDR": self.addr("dense"), "CHSR_FUSION_ADDR": self.addr("fusion"),
            "CHSR_RERANK_ADDR": self.addr("rerank"), "CHSR_INGEST_ADDR": self.addr("ingest"),
            "CHSR_GRAPH_ADDR": self.addr("graph"), "PYTHONUNBUFFERED": "1",
        })
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        if data_dir:
            env["CHSR_DATA_DIR"] = data_dir
        return env


def _die_with_parent() -> None:
    """In the child, before exec (when setpriv is missing): SIGTERM when the supervisor dies."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM)  # elsewhere stop_all() in the supervisor's finally applies


def server_command(module: str) -> tuple[list[str], Callable[[], None] | None]:
    """The argv that runs server ``module`` and the preexec function it still needs (None with setpriv)."""
    argv = [sys.executable, "-m", module]
    if _SETPRIV:
        return [_SETPRIV, "--pdeathsig", "TERM", "--", *argv], None
    return argv, _die_with_parent


def wait_serving(addr: str, timeout_s: float, proc: subprocess.Popen | None = None) -> bool:
    """True once ``addr`` answers SERVING; False after ``timeout_s`` or as soon as ``proc`` exits."""
    deadline = time.monotonic() + timeout_s
    with grpc.insecure_channel(addr) as chan:
        stub = health_pb2_grpc.HealthStub(chan)
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                return False
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                time.sleep(0.2)
    return False


#: How long ``chsr up`` waits for ports a previous mesh still holds (its servers stop within 10 s of SIGTERM).
PORT_WAIT_S = 15.0


def port_free(host: str, port: int) -> bool:
    """Whether nothing listens on ``host:port``. gRPC servers bind with SO_REUSEPORT, so a new server starts on a port
    an old one still holds, and the health check then reaches the old one: the port is checked before starting."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def wait_ports_free(host: str, ports: dict[str, int], timeout_s: float = PORT_WAIT_S) -> None:
    """Return once every port in ``ports`` (what -> port) is free; RuntimeError naming the busy ones after
    ``timeout_s`` (another mesh, or another server, still listens there)."""
    deadline = time.monotonic() + timeout_s
    busy = {what: port for what, port in ports.items() if port and not port_free(host, port)}
    if busy:
        log.info("waiting for ports still in use", extra={"ports": busy})
    while busy and time.monotonic() < deadline:
        time.sleep(0.25)
        busy = {what: port for what, port in busy.items() if not port_free(host, port)}
    if busy:
        listed = ", ".join(f"{what} {port}" for what, port in busy.items())
        raise RuntimeError(f"port(s) in use on {host}: {listed} (another mesh or server still listens there; stop it "
                           "or choose other ports with --port / --metrics-base)")


class Supervisor:
    def __init__(self, layout: MeshLayout, backend: str, data_dir: str | None, log_dir: Path | None,
                 restart: bool = True, extra_env: dict[str, str] | None = None) -> None:
        self.layout, self.backend, self.data_dir, self.log_dir = layout, backend, data_dir, log_dir
        self.restart = restart
        self.extra_env = dict(extra_env or {})
        self.procs: dict[str, subprocess.Popen] = {}
        self.services = enabled_services(self.extra_env.get("CHSR_LEGS") or os.environ.get("CHSR_LEGS"))
        self._stopping = threading.Event()

    def start_service(self, name: str, extra_env: dict[str, str] | None = None) -> None:
        """Start (or restart) one server; ``extra_env`` applies to this start only."""
        out = None
        if self.log_dir:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            out = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - lives as long as the child
        argv, preexec = server_command(MODULES[name])
        self.procs[name] = subprocess.Popen(
            argv, env=self.layout.env(name, self.backend, self.data_dir, self.extra_env | (extra_env or {})),
            stdout=out, stderr=out, preexec_fn=preexec)

    def start_all(self, timeout_s: float = 180) -> None:
        """Start every server and wait until each is SERVING; on any failure stop them all. Ports another process
        still holds are waited for (``PORT_WAIT_S``), then refused: a new server would share them with the old one."""
        ports = {f"{name} gRPC": self.layout.grpc_port(name) for name in self.services}
        ports |= {f"{name} metrics": self.layout.metrics_port(name) for name in self.services}
        wait_ports_free(self.layout.host, ports)
        try:
            for name in self.services:
                self.start_service(name)
            for name in self.services:
                proc = self.procs[name]
                if not wait_serving(self.layout.addr(name), timeout_s, proc):
                    why = f"exited with {proc.returncode}" if proc.poll() is not None else \
                        f"did not become SERVING within {timeout_s:.0f}s"
                    raise RuntimeError(f"{name} {why}" + (f"; see {self.log_dir / (name + '.log')}" if self.log_dir else ""))
        except BaseException:
            self.stop_all()
            raise

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
    p = sub.add_parser("up", help="start the servers (gateway, gate, the enabled legs' servers, fusion, rerank, ingest)")
    settings = get_settings()
    p.add_argument("--backend", choices=[b.value for b in Backend], default=settings.backend.value)
    p.add_argument("--data-dir", default=str(settings.data_dir))
    p.add_argument("--port", type=int, default=50051, help="gateway port; services use the next seven")
    p.add_argument("--metrics-base", type=int, default=9101, help="gateway /metrics port; services use the next seven")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--log-dir", default=None, help="service logs (default: <data-dir>/logs or ~/.cache/chsr/logs)")
    p.add_argument("--legs", default=None, help="enabled legs, comma-separated (CHSR_LEGS; default: "
                   f"{settings.legs})")
    p.add_argument("--demo", action="store_true", help="ingest the bundled demo corpus and answer a sample query")
    p.set_defaults(func=run_up)


def run_up(args: argparse.Namespace) -> int:
    logging.getLogger().setLevel(logging.INFO)
    layout = MeshLayout(args.host, args.port, args.metrics_base)
    base = Path(args.data_dir) if args.data_dir else Path.home() / ".cache" / "chsr"
    log_dir = Path(args.log_dir) if args.log_dir else base / "logs"
    extra_env = {}
    if args.legs:
        extra_env["CHSR_LEGS"] = args.legs
    if args.demo and not get_settings().vocabulary_path:
        extra_env["CHSR_VOCABULARY_PATH"] = str(DEMO_CORPUS)  # the gate indexes the demo papers
    sup = Supervisor(layout, args.backend, args.data_dir, log_dir, extra_env=extra_env)
    stop = StopSignals()  # recorded from here on; waited for by polling (chsr.stop_signals)
    started = time.monotonic()
    try:
        sup.start_all()
    except RuntimeError as exc:
        sys.stderr.write(f"chsr up: {exc}\n")
        return 1
    try:
        sys.stdout.write(f"chsr mesh up ({args.backend}) in {time.monotonic() - started:.1f}s: gateway "
                         f"{layout.addr('gateway')}  metrics :{layout.metrics_port('gateway')}-"
                         f"{max(layout.metrics_port(s) for s in sup.services)}  logs {log_dir}\n")
        sys.stdout.flush()
        if args.demo:
            from tools.cli.demo import run_demo
            run_demo(layout.addr("gateway"))
        watcher = threading.Thread(target=sup.watch, daemon=True)
        watcher.start()
        stop.wait()
        sys.stdout.write("stopping...\n")
    finally:
        sup.stop_all()
    return 0
