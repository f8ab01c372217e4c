"""Shared fixtures: data locations, a demo corpus, and a running mesh."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from chsr.config import get_settings

REPO_ROOT = Path(__file__).resolve().parents[1]
from tools.demo import DEMO_CORPUS  # noqa: E402  (re-exported for the tests)
SCIFACT_DIR = get_settings().dataset_dir("scifact")        # CHSR_SCIFACT_DIR, else CHSR_SHARED_DATA/scifact
CURRICULUM_DIR = get_settings().dataset_dir("curriculum")  # CHSR_CURRICULUM_DIR, else .../curriculum


#: Every test module says what kind of test it is; ``pytest -m unit`` is the fast command.
KINDS = frozenset({"unit", "contract", "e2e", "integration", "faults", "fuzz", "ops", "security", "install", "clients"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmarked = sorted({item.module.__name__ for item in items  # type: ignore[attr-defined]
                       if not KINDS & {m.name for m in item.iter_markers()}})
    if unmarked:
        raise pytest.UsageError(f"test modules without a kind marker ({', '.join(sorted(KINDS))}): {unmarked}")


def require_dir(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.skip(f"{what} not found at {path} (set CHSR_SHARED_DATA or the specific CHSR_*_DIR variable)")
    return path


#: Where ``free_port_block`` starts looking. scripts/test_lanes.sh gives each concurrent pytest process its own
#: range (CHSR_TEST_PORT_BASE), so two lanes never probe the same block and both start a mesh on it.
PORT_BASE = int(os.environ.get("CHSR_TEST_PORT_BASE", "56000"))
PORT_RANGE = 2000 if "CHSR_TEST_PORT_BASE" in os.environ else 8000


def free_port_block(n: int) -> int:
    """A base port with ``n`` consecutive free ports on loopback."""
    for base in range(PORT_BASE, PORT_BASE + PORT_RANGE, 16):
        ok = True
        for p in range(base, base + n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError("no free port block")


@dataclass
class Mesh:
    gateway: str
    layout: object
    supervisor: object
    data_dir: Path

    def metrics_url(self, service: str) -> str:
        return f"http://127.0.0.1:{self.layout.metrics_port(service)}/metrics"  # type: ignore[attr-defined]


def start_mesh(tmp: Path, backend: str = "embedded", extra_env: dict[str, str] | None = None) -> Mesh:
    """The seven servers as ``chsr up`` runs them; the gate indexes the demo corpus's papers.
    ``extra_env`` applies to these processes (and their restarts) only, never to the test process."""
    from tools.cli.up_cmd import MeshLayout, Supervisor

    base = free_port_block(16)   # gRPC base..base+7, /metrics base+8..base+15
    layout = MeshLayout("127.0.0.1", base, base + 8)
    env = {"CHSR_VOCABULARY_PATH": str(DEMO_CORPUS)} | (extra_env or {})
    sup = Supervisor(layout, backend, str(tmp / "data"), tmp / "logs", restart=False, extra_env=env)
    sup.start_all(timeout_s=240)
    return Mesh(gateway=layout.addr("gateway"), layout=layout, supervisor=sup, data_dir=tmp / "data")


@pytest.fixture(scope="session")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mesh]:
    """The seven servers on the embedded default, with the demo corpus ingested."""
    from chsr.client import GatewayClient
    from tools.corpus import read_corpus

    m = start_mesh(tmp_path_factory.mktemp("mesh"))
    try:
        GatewayClient(m.gateway).ingest(read_corpus(DEMO_CORPUS))
        yield m
    finally:
        m.supervisor.stop_all()  # type: ignore[attr-defined]
