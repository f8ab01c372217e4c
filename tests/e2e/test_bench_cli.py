"""`chsr bench load` runs end to end against the mesh and writes its report (tiny, bounded run)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_bench_load_writes_report_plots_and_readme(mesh, tmp_path):  # type: ignore[no-untyped-def]
    out = tmp_path / "load"
    proc = subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "bench", "load", "--pipelines", "C", "--concurrency", "1,2",
         "--duration", "1", "--warmup", "0.2", "--queries", "demo", "--hit-queries", "3",
         "--gateway", mesh.gateway, "--data-dir", str(mesh.data_dir), "--inprocess", "--out", str(out)],
        cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for name in ("report.json", "README.md", "latency_vs_concurrency.png", "qps_vs_concurrency.png"):
        assert (out / name).stat().st_size > 0, name
    report = json.loads((out / "report.json").read_text())
    kinds = {(r["mode"], r["cache"], r["concurrency"]) for r in report["runs"]}
    assert kinds == {("mesh", "miss", 1), ("mesh", "hit", 1), ("mesh", "miss", 2), ("mesh", "hit", 2),
                     ("inprocess", "miss", 1)}
    for run in report["runs"]:
        assert run["ok"] > 0 and run["latency_ms"]["p50"] > 0, run
    miss = next(r for r in report["runs"] if r["mode"] == "mesh" and r["cache"] == "miss")
    assert {"gate", "sparse", "dense", "fusion", "total"} <= set(miss["stages_ms"])
    assert set(report["pids"]) >= {"gateway", "gate", "sparse", "dense", "fusion", "rerank"}
    assert miss["cpu_cores"]["dense"] > 0
    hit = next(r for r in report["runs"] if r["cache"] == "hit")
    assert hit["cache_hits"] == hit["ok"]
    assert report["mesh_inprocess_p50_ratio"][0]["ratio"] > 0
    readme = (out / "README.md").read_text()
    assert "## Targets" in readme and report["machine"]["cpu"] in readme
