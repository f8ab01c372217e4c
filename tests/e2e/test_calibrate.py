"""`chsr calibrate` writes CDFs next to the index and the fusion service picks them up."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from chsr.client import GatewayClient
from tests.conftest import DEMO_CORPUS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_calibrate_then_calibrated_fusion_uses_cdfs(mesh):
    client = GatewayClient(mesh.gateway)
    before = client.search("energy stored in a spring", k=5, pipeline="hybrid_calibrated", no_cache=True)
    assert before.fusion_telemetry["cdf_missing"] == 1.0
    out = mesh.data_dir / "calibration"
    proc = subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "calibrate", "--pseudo-from", str(DEMO_CORPUS), "--max-queries", "12",
         "--depth", "300", "--sparse", mesh.layout.addr("sparse"), "--dense", mesh.layout.addr("dense"),
         "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (out / "cdf_sparse.npz").exists() and (out / "cdf_dense.npz").exists()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        after = client.search("energy stored in a spring", k=5, pipeline="hybrid_calibrated", no_cache=True)
        if after.fusion_telemetry.get("cdf_missing", 1.0) == 0.0:
            break
        time.sleep(1)
    assert after.fusion_telemetry["cdf_missing"] == 0.0
    assert 0.0 <= after.fusion_telemetry["alpha"] <= 1.0


def test_calibrate_refuses_test_split(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tools.cli.main", "calibrate", "--beir", str(tmp_path),
                           "--split", "test"], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "test" in proc.stderr
