"""Ready only when ready (issue 23): the gateway is NOT_SERVING until its stages answer, and an ingest sent
the moment the gateway's port opens (before the stages are up) waits for them and loses nothing."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from chsr.client import GatewayClient
from tests.conftest import free_port_block
from tools.corpus import read_corpus
from tools.demo import DEMO_CORPUS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex((host, port)) == 0


def test_an_ingest_sent_as_soon_as_the_gateway_port_opens_waits_for_the_stages_and_loses_nothing(tmp_path: Path):
    from tools.cli.up_cmd import MeshLayout, Supervisor

    base = free_port_block(16)
    layout = MeshLayout("127.0.0.1", base, base + 8)
    sup = Supervisor(layout, "embedded", str(tmp_path / "data"), tmp_path / "logs", restart=False,
                     extra_env={"CHSR_VOCABULARY_PATH": str(DEMO_CORPUS)})
    docs = read_corpus(DEMO_CORPUS)
    try:
        sup.start_service("gateway")               # the gateway first: its stages are not even started yet
        deadline = time.monotonic() + 120
        while not _port_open(layout.host, layout.grpc_port("gateway")):
            assert time.monotonic() < deadline, "gateway port never opened"
            time.sleep(0.05)
        with GatewayClient(layout.addr("gateway"), timeout=180) as client:
            health = health_pb2_grpc.HealthStub(client._channel)
            # wait_for_ready: a connection refused in the instant after the port opens is retried, not the answer
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=5, wait_for_ready=True).status
            assert status == health_pb2.HealthCheckResponse.NOT_SERVING   # no stage answers yet
            for name in sup.services:
                if name != "gateway":
                    sup.start_service(name)
            summary = client.ingest(docs)             # sent now: waits on the gateway for the stages
            assert summary.received == len(docs) and summary.indexed == len(docs)
            assert client.wait_ready(timeout=10)
            report = client.verify([d.id for d in docs])
            assert report.consistent and report.backends
            assert all(b.count == len(docs) and b.missing_count == 0 for b in report.backends), report
    finally:
        sup.stop_all()


def test_a_mesh_whose_graph_server_is_down_is_ready_and_flags_the_graph_leg(tmp_path: Path):
    """The graph server is one replica and optional for readiness: with it down, the gateway serves; a search
    on the graph leg is answered (the other legs) and flagged ``graph_unavailable``."""
    from tools.cli.up_cmd import MeshLayout, Supervisor

    base = free_port_block(16)
    layout = MeshLayout("127.0.0.1", base, base + 8)
    sup = Supervisor(layout, "embedded", str(tmp_path / "data"), tmp_path / "logs", restart=False,
                     extra_env={"CHSR_VOCABULARY_PATH": str(DEMO_CORPUS)})
    try:
        for name in sup.services:
            if name not in ("graph", "ingest"):
                sup.start_service(name)
        with GatewayClient(layout.addr("gateway"), timeout=60) as client:
            assert client.wait_ready(timeout=180), "gateway never became SERVING with the graph server down"
            resp = client.search("acceleration of a falling ball", k=5, pipeline="kg_rrf", no_cache=True)
            assert "graph_unavailable" in resp.degraded
    finally:
        sup.stop_all()
