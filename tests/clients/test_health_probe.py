"""grpc-health-probe (the Go module) against every server, the way a Kubernetes exec probe runs it:
``grpc_health_probe -addr=HOST:PORT [-service=NAME]`` with its default 1 s connect and RPC
timeouts; exit code 0 means SERVING. The manifests use the kubelet's built-in gRPC probe, which
sends the same grpc.health.v1.Health/Check; this is the probe for clusters or sidecars that exec it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import SERVERS, ClientMesh
from tests.clients.tools import go_tool

pytestmark = [pytest.mark.clients]

CLIENT = "grpc-health-probe"
#: grpc-health-probe's exit codes (its README): 0 SERVING, 2 connection failed, 3 RPC failed, 4 not SERVING.
EXIT_MEANING = {0: "exit 0 (SERVING)", 1: "exit 1 (bad flags)", 2: "exit 2 (connection failed)",
                3: "exit 3 (RPC failed)", 4: "exit 4 (NOT_SERVING)"}


@pytest.fixture(scope="module")
def probe() -> Path:
    return go_tool("grpc-health-probe")


def run_probe(probe: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(probe), *args], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("server", list(SERVERS))
def test_probe_exits_0_for_every_server_and_its_named_service(client_mesh: ClientMesh, probe: Path,
                                                              server: str) -> None:
    addr = client_mesh.addr(server)
    for service in ("", SERVERS[server]):
        args = [f"-addr={addr}"] + ([f"-service={service}"] if service else [])
        out = run_probe(probe, *args)
        client_mesh.record(CLIENT, f"{server}: Health/Check", f"-service={service or '(overall)'}",
                           EXIT_MEANING.get(out.returncode, f"exit {out.returncode}"), out.returncode == 0)
        assert out.returncode == 0, f"{' '.join(args)}: {out.stdout}{out.stderr}"
        assert "SERVING" in out.stdout + out.stderr


def test_probe_fails_for_a_service_the_server_does_not_have(client_mesh: ClientMesh, probe: Path) -> None:
    out = run_probe(probe, f"-addr={client_mesh.gateway}", "-service=chsr.v1.NoSuchService")
    client_mesh.record(CLIENT, "gateway: Health/Check", "-service=chsr.v1.NoSuchService",
                       EXIT_MEANING.get(out.returncode, f"exit {out.returncode}"), out.returncode != 0)
    assert out.returncode != 0, out.stdout + out.stderr


def test_probe_fails_for_a_port_nobody_serves(client_mesh: ClientMesh, probe: Path) -> None:
    out = run_probe(probe, "-addr=127.0.0.1:9")
    client_mesh.record(CLIENT, "nothing listening: Health/Check", "-addr=127.0.0.1:9",
                       EXIT_MEANING.get(out.returncode, f"exit {out.returncode}"), out.returncode == 2)
    assert out.returncode == 2, out.stdout + out.stderr
