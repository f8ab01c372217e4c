"""The Grafana dashboard is generated from code and is provisioning-ready (issue 6)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import yaml

from tests.ops.conftest import REPO_ROOT, require
from tests.ops.promql import DASHBOARD, dashboard_exprs

pytestmark = pytest.mark.ops

GRAFANA = REPO_ROOT / "deploy" / "grafana"


@pytest.fixture(scope="module")
def board() -> dict:
    return json.loads(DASHBOARD.read_text())


def test_checked_in_json_equals_a_fresh_generation() -> None:
    try:
        import grafana_foundation_sdk  # noqa: F401
    except ImportError:
        require(False, "PyPI package grafana-foundation-sdk is not installed in this environment")
    out = subprocess.run([sys.executable, str(GRAFANA / "build_dashboard.py"), "--check"],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr


def test_datasource_variable_drives_every_query(board: dict) -> None:
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    for panel in board["panels"]:
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == "${datasource}"


def test_panels_cover_what_issue_6_asks_for(board: dict) -> None:
    titles = {p["title"] for p in board["panels"]}
    for wanted in ("End-to-end latency p50 / p95 / p99", "Per-stage latency p50", "Per-stage latency p95",
                   "Per-stage latency p99", "Searches/s by pipeline", "Error ratio by code", "Cache hit ratio",
                   "Relaxation steps attempted/s", "Results by ladder step", "Degraded answers/s by reason",
                   "Backend health"):
        assert wanted in titles
    ids = [p["id"] for p in board["panels"]]
    assert len(ids) == len(set(ids))
    assert board["uid"] == "chsr-mesh" and "id" not in board  # importable into any Grafana


def test_every_panel_is_described_in_deploy_md(board: dict) -> None:
    text = (REPO_ROOT / "docs" / "DEPLOY.md").read_text()
    missing = [p["title"] for p in board["panels"] if p["type"] != "row" and f"**{p['title']}**" not in text]
    assert missing == []


def test_metric_names_exist_in_chsr_metrics(board: dict) -> None:
    """Every chsr_* name the dashboard reads is defined in chsr/metrics.py."""
    import prometheus_client

    import chsr.metrics  # noqa: F401  (registers the collectors)

    known = set()
    for metric in prometheus_client.REGISTRY.collect():
        known |= {s.name for s in metric.samples} | {metric.name}
        if metric.type == "histogram":
            known |= {f"{metric.name}_{s}" for s in ("bucket", "count", "sum")}
        if metric.type == "counter":
            known.add(f"{metric.name}_total")
    used = {m for e in dashboard_exprs() for m in re.findall(r"\bchsr_\w+", e.promql)}
    assert used and used <= known, f"unknown metrics: {used - known}"


def test_provisioning_files_point_at_the_dashboard() -> None:
    provider = yaml.safe_load((GRAFANA / "provisioning" / "dashboards" / "chsr.yaml").read_text())
    (prov,) = provider["providers"]
    assert prov["type"] == "file" and prov["options"]["path"]
    source = yaml.safe_load((GRAFANA / "provisioning" / "datasources" / "prometheus.yaml").read_text())
    assert source["datasources"][0]["type"] == "prometheus"


def test_every_retrieval_leg_has_its_panel(board: dict) -> None:
    from chsr.stages import KNOWN_LEGS

    titles = {p["title"] for p in board["panels"]}
    assert {f"Leg {leg}: latency and failures" for leg in KNOWN_LEGS} <= titles
