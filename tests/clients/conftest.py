"""The mesh the client suite calls: the six servers, once on the embedded default and once on the
engines (Elasticsearch + Weaviate + Redis), each with a write token and a small message limit, the
demo corpus ingested.

Every test that takes ``client_mesh`` runs against both. The engines mesh skips with the reason
when the engines are not running, or FAILS when ``CHSR_REQUIRE_ENGINES=1`` (CI starts them).
It writes into its own Elasticsearch index, Weaviate collection and Redis database, dropped
before and after, so it never touches a developer's data.
"""

from __future__ import annotations

import re
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

from tests.clients import report
from tests.conftest import DEMO_CORPUS, Mesh, start_mesh

TOKEN = "clients-suite-token"
#: gRPC's usual 4 MiB instead of the 16 MiB default, so "a message over the limit" stays cheap.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
ENGINE_ENV = {"CHSR_ES_INDEX": "chsr-clients", "CHSR_WEAVIATE_COLLECTION": "ChsrClients",
              "CHSR_REDIS_URL": "redis://127.0.0.1:16379/5"}
MESH_ENV = {"CHSR_INGEST_TOKEN": TOKEN, "CHSR_MAX_MESSAGE_BYTES": str(MAX_MESSAGE_BYTES),
            "OMP_WAIT_POLICY": "PASSIVE"}
#: Each server and the service it registers (health checks name it; reflection lists it).
SERVERS = {"gateway": "chsr.v1.GatewayService", "gate": "chsr.v1.GateService",
           "sparse": "chsr.v1.RetrieverService", "dense": "chsr.v1.RetrieverService",
           "fusion": "chsr.v1.FusionService", "rerank": "chsr.v1.RerankService"}
QUERY = "acceleration of a car, grade 10 physics"


@dataclass
class ClientMesh:
    """A running mesh as the clients see it."""

    backend: str
    mesh: Mesh
    token: str = TOKEN
    max_message_bytes: int = MAX_MESSAGE_BYTES
    documents: int = 0
    servers: dict[str, str] = field(default_factory=dict)

    @property
    def gateway(self) -> str:
        return self.mesh.gateway

    def addr(self, server: str) -> str:
        return self.servers[server]

    def record(self, client: str, rpc: str, case: str, outcome: str, passed: bool = True) -> None:
        report.record(self.backend, client, rpc, case, outcome, passed)

    def metric_samples(self, server: str, name: str) -> list[tuple[dict[str, str], float]]:
        body = urllib.request.urlopen(self.mesh.metrics_url(server), timeout=5).read().decode()
        return [(dict(re.findall(r'(\w+)="([^"]*)"', m.group(1))), float(m.group(2)))
                for m in re.finditer(rf'^{name}\{{(.*?)\}} (\S+)$', body, re.M)]

    def server_errors(self) -> dict[str, float]:
        """Calls every server answered UNKNOWN or INTERNAL so far, by server and method."""
        out: dict[str, float] = {}
        for server in SERVERS:
            for labels, value in self.metric_samples(server, "chsr_grpc_server_handled_total"):
                if labels.get("code") in ("UNKNOWN", "INTERNAL") and value:
                    out[f"{server} {labels.get('method')} {labels.get('code')}"] = value
        return out

    def settle(self, timeout_s: float = 10.0) -> None:
        """Wait until no server is handling a call (a cancelled stream may still be winding down)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if all(v == 0 for server in SERVERS
                   for _, v in self.metric_samples(server, "chsr_inflight_requests")):
                return
            time.sleep(0.1)

    def handled(self, method: str) -> dict[str, float]:
        """The gateway's own count of answered ``method`` calls by status code (its /metrics), to
        tell what the server answered from what a client library reported."""
        body = urllib.request.urlopen(self.mesh.metrics_url("gateway"), timeout=5).read().decode()
        counts: dict[str, float] = {}
        for m in re.finditer(r'^chsr_grpc_server_handled_total\{(.*?)\} (\S+)$', body, re.M):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            if labels.get("method") == method:
                counts[labels.get("code", "")] = counts.get(labels.get("code", ""), 0) + float(m.group(2))
        return counts


def _start(tmp: Path, backend: str) -> ClientMesh:
    from chsr.client import GatewayClient
    from tools.corpus import read_corpus

    env = MESH_ENV | (ENGINE_ENV if backend == "engines" else {})
    mesh = start_mesh(tmp, backend=backend, extra_env=env)
    try:
        with GatewayClient(mesh.gateway, token=TOKEN, timeout=120) as client:
            summary = client.ingest(read_corpus(DEMO_CORPUS))
    except BaseException:
        mesh.supervisor.stop_all()  # type: ignore[attr-defined]
        raise
    servers = {name: mesh.layout.addr(name) for name in SERVERS}  # type: ignore[attr-defined]
    return ClientMesh(backend=backend, mesh=mesh, documents=summary.received, servers=servers)


@pytest.fixture(scope="session", params=["embedded", "engines"])
def client_mesh(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClientMesh]:
    backend = request.param
    if backend == "engines":
        from tests.faults.harness import drop_engine_data, require_engines

        require_engines()
        drop_engine_data(ENGINE_ENV["CHSR_ES_INDEX"], ENGINE_ENV["CHSR_WEAVIATE_COLLECTION"])
    cm = _start(tmp_path_factory.mktemp(f"clients-{backend}"), backend)
    try:
        yield cm
    finally:
        cm.mesh.supervisor.stop_all()  # type: ignore[attr-defined]
        if backend == "engines":
            drop_engine_data(ENGINE_ENV["CHSR_ES_INDEX"], ENGINE_ENV["CHSR_WEAVIATE_COLLECTION"])


@pytest.fixture(autouse=True)
def no_server_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Whatever a client sends, no server may answer UNKNOWN or INTERNAL, not even to a client that
    has already given up (its 1 ms deadline passed): checked on every server's own metrics, after
    each test, once every call has finished."""
    if "client_mesh" not in request.fixturenames:
        yield
        return
    cm: ClientMesh = request.getfixturevalue("client_mesh")
    before = cm.server_errors()
    yield
    cm.settle()
    after = cm.server_errors()
    new = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
    assert not new, f"servers answered UNKNOWN/INTERNAL during this test (see the server logs): {new}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    rows = report.outcomes()
    path = report.write_report(rows)
    if path is None:
        return
    terminalreporter.section("clients: RPC x client outcomes (number of backend x case combinations)")
    for line in report.matrix(rows).splitlines():
        terminalreporter.write_line(line)
    summary = report.markdown(rows).strip().splitlines()[-1]
    terminalreporter.write_line(f"{summary} Every combination: {path}")
