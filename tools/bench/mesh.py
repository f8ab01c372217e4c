"""The mesh a load run drives: an existing gateway, or one the benchmark starts itself.

With ``--start-mesh`` the benchmark runs the six servers under the same
:class:`~tools.cli.up_cmd.Supervisor` as ``chsr up`` (on a free block of
loopback ports) and ingests a corpus; owning the processes is what lets it
restart the dense service with micro-batching off for the lever comparison.
"""

from __future__ import annotations

import logging
import os
import socket
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from tools.demo import DEMO_CORPUS
from tools.cli.up_cmd import MeshLayout, Supervisor, wait_serving
from chsr.client import GatewayClient
from tools.corpus import read_corpus
from chsr.config import Settings, get_settings

log = logging.getLogger(__name__)


@dataclass
class BenchMesh:
    gateway: str
    data_dir: Path
    backend: str
    supervisor: Supervisor | None = None  # set when this benchmark started the mesh

    def restart_service(self, name: str, env: dict[str, str], timeout_s: float = 240) -> None:
        """Restart one service of our own mesh with extra environment variables (for that start only)."""
        if self.supervisor is None:
            raise RuntimeError("restart_service: only a mesh started by the benchmark (--start-mesh)")
        sup = self.supervisor
        proc = sup.procs[name]
        proc.terminate()
        proc.wait(30)
        sup.start_service(name, env)
        if not wait_serving(sup.layout.addr(name), timeout_s):
            raise RuntimeError(f"{name} did not come back within {timeout_s:.0f}s")


def free_port_block(n: int, first: int = 52000, last: int = 60000) -> int:
    """A base port with ``n`` consecutive free loopback ports."""
    for base in range(first, last, 16):
        try:
            for port in range(base, base + n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no free block of loopback ports")


@contextmanager
def bench_mesh(gateway: str | None, start: bool, backend: str, data_dir: Path | None,
               corpora: list[Path]) -> Iterator[BenchMesh]:
    if not start:
        yield BenchMesh(gateway or get_settings().gateway, data_dir or Settings().data_dir, backend)
        return
    root = data_dir or Path(tempfile.mkdtemp(prefix="chsr-bench-"))
    base = free_port_block(16)
    layout = MeshLayout("127.0.0.1", base, base + 8)
    sup = Supervisor(layout, backend, str(root / "data"), root / "logs", restart=False)
    sup.start_all(timeout_s=300)
    try:
        for corpus in corpora or [DEMO_CORPUS]:
            summary = GatewayClient(layout.addr("gateway")).ingest(read_corpus(corpus), batch_size=64, timeout=3600)
            log.info("bench mesh ingested", extra={"corpus": str(corpus), "documents": summary.received})
        yield BenchMesh(layout.addr("gateway"), root / "data", backend, sup)
    finally:
        sup.stop_all()
