"""Cluster vs single-node comparison of two load reports (issue 22, item 4)."""

from __future__ import annotations

import json

import pytest

from tools.bench.cluster_ratio import compare, engine_cores, main

pytestmark = pytest.mark.unit


def _run(pipeline: str, clients: int, p95: float, qps: float, cores: dict[str, float], cache: str = "miss") -> dict:
    return {"mode": "mesh", "pipeline": pipeline, "concurrency": clients, "cache": cache, "qps": qps,
            "latency_ms": {"p50": p95 / 2, "p95": p95}, "cpu_cores": cores}


def _report(runs: list[dict]) -> dict:
    machine = {"cpu": "test cpu", "cores": 2, "ram_gib": 1.0, "date_utc": "2026-01-01T00:00:00Z",
               "load_before": [0.1, 0.1, 0.1], "load_after": [1.0, 1.0, 1.0]}
    return {"machine": machine, "runs": runs}


def test_engine_nodes_are_summed_per_kind() -> None:
    assert engine_cores({"elasticsearch-1": 0.25, "elasticsearch-2": 0.5, "gateway": 0.1, "weaviate": 0.2}) == {
        "elasticsearch": 0.75, "gateway": 0.1, "weaviate": 0.2}


def test_ratios_are_cluster_over_single_for_runs_in_both() -> None:
    single = _report([_run("C", 1, 40.0, 30.0, {"elasticsearch": 0.2}), _run("E", 1, 50.0, 20.0, {}),
                      _run("C", 1, 2.0, 900.0, {}, cache="hit")])
    cluster = _report([_run("C", 1, 100.0, 12.0, {"elasticsearch-1": 0.3, "elasticsearch-2": 0.3})])
    rows = compare(single, cluster)
    assert [(r["pipeline"], r["concurrency"]) for r in rows] == [("C", 1)]   # E only in one; hits never compared
    assert rows[0]["p95_ratio"] == 2.5 and rows[0]["qps_ratio"] == 0.4
    assert rows[0]["cluster"]["cores"] == {"elasticsearch": 0.6}


def test_main_writes_the_ratio_and_a_readme_that_says_whether_the_target_is_met(tmp_path) -> None:
    (tmp_path / "s.json").write_text(json.dumps(_report([_run("C", 1, 40.0, 30.0, {}), _run("C", 8, 100.0, 60.0, {})])))
    (tmp_path / "c.json").write_text(json.dumps(_report([_run("C", 1, 60.0, 25.0, {}), _run("C", 8, 300.0, 20.0, {})])))
    assert main([str(tmp_path / "s.json"), str(tmp_path / "c.json"), "--out", str(tmp_path / "out")]) == 0
    rows = json.loads((tmp_path / "out" / "ratio.json").read_text())["rows"]
    assert [r["p95_ratio"] for r in rows] == [1.5, 3.0]
    text = (tmp_path / "out" / "README.md").read_text()
    assert "| C | 1 |" in text and "| 1.5 |" in text and "**no**" in text
