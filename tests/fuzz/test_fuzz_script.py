"""The fuzz-run script works end to end against the running mesh and finds nothing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.fuzz, pytest.mark.slow]


def test_fuzz_script_writes_a_clean_histogram(mesh, tmp_path, fuzz_log):  # type: ignore[no-untyped-def]
    out = tmp_path / "fuzz.json"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "fuzz_gateway.py"), "--gateway", mesh.gateway,
                           "-n", "30", "--seed", "11", "--out", str(out)], capture_output=True, text=True, timeout=300)
    report = json.loads(out.read_text())
    for code, count in report["codes"].items():
        for _ in range(count):
            fuzz_log("fuzz_script", code)
    assert proc.returncode == 0, report["violations"][:5]
    assert report["cases"] == 30 * 6 and set(report["per_method"]) == {
        "Search", "Ingest", "Delete", "IndexStats", "VerifyIndex", "ListPipelines"}
    assert report["ingest_indexed"] == 0
