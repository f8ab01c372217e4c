"""Ingest while crashing (issue 7): kill the ingest client and a backend mid-ingest, rerun, verify.

A paced client subprocess (``tests/faults/slow_ingest.py``, batches of 8)
streams the demo corpus. It is SIGKILLed part-way; a second run is cut by
SIGKILLing the dense service (embedded mesh) or stopping Weaviate (engines
mesh). After restarting, a plain rerun of ``chsr ingest`` must leave every
backend holding exactly the corpus: ``VerifyIndex`` with the corpus ids
(per-backend id sets: nothing missing, nothing extra), equal counts, and
``chsr index verify --corpus`` exiting 0.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from chsr.client import GatewayClient
from tools.corpus import read_corpus
from tests.conftest import DEMO_CORPUS, REPO_ROOT, Mesh, start_mesh
from tests.faults.harness import (ENGINE_HEALTH, MESH_ENV, drop_engine_data, engines_cmd,
                                  grpc_serving, require_engines, stop_process, wait_until)

pytestmark = [pytest.mark.faults, pytest.mark.slow]
CORPUS_IDS = [d.id for d in read_corpus(DEMO_CORPUS)]
CRASH_ENV = {"CHSR_ES_INDEX": "chsr-crash", "CHSR_WEAVIATE_COLLECTION": "ChsrCrash",
             "CHSR_REDIS_URL": "redis://127.0.0.1:16379/4"}


def slow_ingest(gateway: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.faults.slow_ingest", gateway, str(DEMO_CORPUS),
                             "--batch-size", "8", "--delay", "0.02"],
                            cwd=str(REPO_ROOT), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_progress(client: subprocess.Popen, docs: int, timeout_s: float = 120) -> int:
    """Read the client's progress lines until it has sent ``docs`` documents; return the count."""
    deadline = time.monotonic() + timeout_s
    assert client.stdout is not None
    for line in client.stdout:
        if line.startswith("sent ") and int(line.split()[1]) >= docs:
            return int(line.split()[1])
        if time.monotonic() > deadline or line.startswith(("done", "error")):
            break
    raise AssertionError(f"ingest client never reached {docs} documents")


def counts(gateway: str) -> dict[str, int]:
    return {b.backend: b.documents for b in GatewayClient(gateway).stats().backends}


def gateway_sees_backends(gateway: str, timeout_s: float = 10.0) -> float:
    """Seconds until the gateway reaches every backend again (IndexStats reports -1 for one it cannot).

    Right after a backend's health check passes, the gateway's channel can still be in its
    reconnect backoff (up to ~1.2 s, chsr/channels.py); Upsert has no retry policy, so an
    ingest started inside that window fails fast with UNAVAILABLE ("rerun ingest").
    """
    start = time.monotonic()
    wait_until(lambda: all(n >= 0 for n in counts(gateway).values()), timeout_s, interval_s=0.1)
    return time.monotonic() - start


def crash_and_recover(mesh: Mesh, kill_backend: Callable[[], None], restart_backend: Callable[[], None]) -> dict:
    gateway = mesh.gateway
    # 1. the client dies mid-stream
    client = slow_ingest(gateway)
    wait_progress(client, 80)
    stop_process(client, signal.SIGKILL)
    time.sleep(1.0)
    after_client_kill = counts(gateway)
    assert all(0 <= n < len(CORPUS_IDS) for n in after_client_kill.values()), after_client_kill
    # 2. a backend dies mid-stream; the gateway aborts the stream
    client = slow_ingest(gateway)
    wait_progress(client, 160)
    kill_backend()
    out, _ = client.communicate(timeout=120)
    assert client.returncode == 3 and "error UNAVAILABLE" in out, out[-500:]
    restart_backend()
    reconnect_s = gateway_sees_backends(gateway)
    # 3. a plain rerun completes and every backend holds exactly the corpus
    rerun = subprocess.run([sys.executable, "-m", "tools.cli.main", "ingest", str(DEMO_CORPUS), "--batch-size", "16",
                            "--gateway", gateway], cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-1000:]
    report = GatewayClient(gateway).verify(CORPUS_IDS)
    for b in report.backends:
        assert (b.count, b.missing_count, b.extra_count) == (len(CORPUS_IDS), 0, 0), b
    assert report.consistent
    assert set(counts(gateway).values()) == {len(CORPUS_IDS)}
    cli = subprocess.run([sys.executable, "-m", "tools.cli.main", "index", "verify", "--corpus", str(DEMO_CORPUS),
                          "--gateway", gateway], cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0 and "consistent" in cli.stdout, cli.stdout + cli.stderr
    return {"after_client_kill": after_client_kill, "gateway_reconnect_s": round(reconnect_s, 2),
            "rerun": rerun.stdout.strip()}


def test_ingest_survives_client_and_dense_crash(tmp_path: Path, fault_report) -> None:  # type: ignore[no-untyped-def]
    mesh = start_mesh(tmp_path, extra_env=MESH_ENV)
    sup, addr = mesh.supervisor, mesh.layout.addr("dense")
    try:
        found = crash_and_recover(
            mesh,
            kill_backend=lambda: stop_process(sup.procs["dense"], signal.SIGKILL),
            restart_backend=lambda: (sup.start_service("dense"), wait_until(grpc_serving(addr), 180)),
        )
    finally:
        sup.stop_all()
    fault_report({"component": "ingest-crash-embedded", **found})


@pytest.mark.weaviate
@pytest.mark.elasticsearch
def test_ingest_survives_client_and_weaviate_crash(tmp_path: Path,
                                                   fault_report) -> None:  # type: ignore[no-untyped-def]
    require_engines()
    # start from an empty index/collection even if an earlier run was interrupted before its clean-up
    drop_engine_data(CRASH_ENV["CHSR_ES_INDEX"], CRASH_ENV["CHSR_WEAVIATE_COLLECTION"])
    mesh = start_mesh(tmp_path, backend="engines", extra_env=CRASH_ENV | MESH_ENV)
    try:
        found = crash_and_recover(
            mesh,
            kill_backend=lambda: engines_cmd("stop", "weaviate"),
            restart_backend=lambda: (engines_cmd("start", "weaviate"),
                                     wait_until(ENGINE_HEALTH["weaviate"], 240)),
        )
    finally:
        mesh.supervisor.stop_all()
        if not ENGINE_HEALTH["weaviate"]():
            engines_cmd("start", "weaviate")
        drop_engine_data(CRASH_ENV["CHSR_ES_INDEX"], CRASH_ENV["CHSR_WEAVIATE_COLLECTION"])
    fault_report({"component": "ingest-crash-engines", **found})
