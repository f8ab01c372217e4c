"""A real Prometheus scrapes a running mesh that has served queries (issue 6).

The checked-in deploy/prometheus/prometheus.yml is loaded, its targets pointed at the test
mesh's /metrics ports, its intervals set to 1 s, and its rule files loaded as they are. Then:
targets are up, every PromQL expression of the dashboard and the rule files evaluates without
error through /api/v1/query, the latency panels return data, and the recording rules record.
"""

from __future__ import annotations

import json
import math
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from tests.conftest import Mesh
from tests.ops.conftest import DEPLOY, OPS_REPORT
from tests.ops.promql import Expr, dashboard_exprs, rule_exprs

pytestmark = [pytest.mark.ops, pytest.mark.prometheus, pytest.mark.slow]
SERVICES = ("gateway", "gate", "sparse", "dense", "fusion", "rerank", "ingest", "graph")
QUERIES = ("speed of a ball dropped from 2.5 m using conservation of energy",
           "why does a skydiver reach terminal velocity",
           "Northfield 2019 physics paper 1 question 3",
           "mark scheme: car of 1200 kg accelerating to 15 m/s in 6 s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(base: str, path: str, **params: str) -> Any:
    url = f"{base}{path}?{urllib.parse.urlencode(params)}" if params else f"{base}{path}"
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as exc:  # 400/422: a bad expression; the body says why
        return json.load(exc)


def wait_for(what: str, check, timeout_s: float = 60) -> Any:  # type: ignore[no-untyped-def]
    deadline, last = time.monotonic() + timeout_s, None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}; last={last!r}")


def scrape_config(mesh: Mesh, workdir: Path) -> Path:
    """The checked-in config with the mesh's ports, 1 s intervals and absolute rule paths."""
    cfg = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    cfg["global"].update(scrape_interval="1s", evaluation_interval="1s")
    cfg["rule_files"] = [str(p) for p in sorted((DEPLOY / "prometheus" / "rules").glob("*.yml"))]
    (job,) = cfg["scrape_configs"]
    for group in job["static_configs"]:
        service = group["labels"]["service"]
        group["targets"] = [f"127.0.0.1:{mesh.layout.metrics_port(service)}"]  # type: ignore[attr-defined]
    assert sorted(g["labels"]["service"] for g in job["static_configs"]) == sorted(SERVICES)
    path = workdir / "prometheus.yml"
    path.write_text(yaml.safe_dump(cfg))
    return path


@pytest.fixture(scope="module")
def prometheus(prometheus_bin: Path, mesh: Mesh, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("prometheus")
    port = free_port()
    log = (workdir / "prometheus.log").open("wb")
    proc = subprocess.Popen([str(prometheus_bin), f"--config.file={scrape_config(mesh, workdir)}",
                             f"--storage.tsdb.path={workdir / 'data'}", f"--web.listen-address=127.0.0.1:{port}",
                             "--storage.tsdb.retention.time=1h", "--log.level=warn"],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for("Prometheus ready", lambda: proc.poll() is None and _ready(base), 60)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if proc.returncode not in (0, -15, None):
            print((workdir / "prometheus.log").read_text()[-3000:])


def _ready(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/-/ready", timeout=2) as resp:
            return resp.status == 200
    except OSError:
        return False


def targets_up(base: str) -> dict[str, str]:
    active = api(base, "/api/v1/targets", state="active")["data"]["activeTargets"]
    return {t["labels"]["service"]: t["health"] for t in active if t["labels"].get("job") == "chsr"}


@pytest.fixture(scope="module")
def served(prometheus: str, mesh: Mesh) -> str:
    """Queries served after Prometheus's first scrape, so rates see the increase."""
    from chsr.client import GatewayClient

    wait_for("all seven targets up", lambda: (lambda t: len(t) == len(SERVICES) and set(t.values()) == {"up"})(
        targets_up(prometheus)), 60)
    client = GatewayClient(mesh.gateway)
    for _ in range(2):  # the second round is answered from the result cache
        for query in QUERIES:
            client.search(query, k=5, pipeline="D")
    client.search(QUERIES[0], k=5, pipeline="C", no_cache=True)
    time.sleep(3)  # a few 1 s scrapes after the traffic
    return prometheus


def values(result: dict) -> list[float]:
    data = result["data"]
    if data["resultType"] in ("scalar", "string"):
        return [float(data["result"][1])]
    return [float(s["value"][1]) for s in data["result"]]


def test_targets_up(served: str) -> None:
    assert targets_up(served) == {s: "up" for s in SERVICES}


def test_every_expression_evaluates(served: str) -> None:
    exprs: list[Expr] = dashboard_exprs() + rule_exprs()
    failures = []
    for e in exprs:
        result = api(served, "/api/v1/query", query=e.promql)
        if result.get("status") != "success":
            failures.append(f"{e.source}: {result.get('error')} :: {e.promql}")
    OPS_REPORT["promql_expressions_checked"] = len(exprs)
    assert len(exprs) >= 50
    assert failures == [], "\n".join(failures)


def test_latency_panels_return_data(served: str) -> None:
    latency = [e for e in dashboard_exprs() if e.stage_latency_panel]
    assert len(latency) >= 6

    def all_have_data() -> list[str]:
        empty = [e.source for e in latency
                 if not any(math.isfinite(v) for v in values(api(served, "/api/v1/query", query=e.promql)))]
        return [] if empty else empty

    deadline = time.monotonic() + 20
    while (empty := all_have_data()) and time.monotonic() < deadline:
        time.sleep(1)
    assert empty == [], f"latency panels without finite data: {empty}"
    p95 = next(e.promql for e in latency if "Per-stage latency p95" in e.source)
    per_stage = api(served, "/api/v1/query", query=p95)
    stages = {s["metric"]["stage"] for s in per_stage["data"]["result"]}
    assert {"gate", "sparse", "dense", "fusion", "rerank", "cache"} <= stages
    OPS_REPORT["latency_panel_expressions_with_data"] = len(latency)


def test_recording_rules_record(served: str) -> None:
    groups = api(served, "/api/v1/rules")["data"]["groups"]
    rules = [r for g in groups for r in g["rules"]]
    assert len(rules) == len(rule_exprs())
    assert [r["name"] for r in rules if r["health"] != "ok"] == []
    wait_for("recorded per-stage p95", lambda: values(
        api(served, "/api/v1/query", query='chsr:stage_latency_seconds:p95_5m{stage="total", pipeline="D"}')), 30)
