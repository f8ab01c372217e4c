"""The PromQL expressions the dashboard and the rule files use, ready to send to Prometheus.

Grafana variables are replaced by values a plain Prometheus accepts: ``$pipeline`` -> ``.*``
(the "All" value), ``$job`` -> ``chsr``, ``$__rate_interval`` -> a window several scrape
intervals wide, ``$__range`` -> the dashboard's default range. ``label_values(metric, label)``
(a Grafana function, not PromQL) is checked as the series selector it reads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = REPO_ROOT / "deploy" / "grafana" / "chsr-mesh.json"
RULES_DIR = REPO_ROOT / "deploy" / "prometheus" / "rules"


@dataclass(frozen=True)
class Expr:
    source: str   # "dashboard: <panel title>" or "rules: <file> <record|alert name>"
    promql: str
    stage_latency_panel: bool = False  # a per-stage / end-to-end latency panel that must return data


def substitute(expr: str, rate_interval: str = "30s", range_: str = "5m") -> str:
    expr = expr.replace("$__rate_interval", rate_interval).replace("$__range", range_)
    expr = expr.replace('"$pipeline"', '".*"').replace('"$job"', '"chsr"')
    assert "$" not in expr.replace("$1", ""), f"unsubstituted variable in {expr}"
    return expr


def dashboard_exprs(path: Path = DASHBOARD) -> list[Expr]:
    board = json.loads(path.read_text())
    out = []
    for panel in board["panels"]:
        latency = "chsr_stage_latency_seconds" in json.dumps(panel.get("targets", []))
        for target in panel.get("targets", []):
            out.append(Expr(f"dashboard: {panel['title']}", substitute(target["expr"]), latency))
    for var in board.get("templating", {}).get("list", []):
        m = re.fullmatch(r"label_values\((\w+), *\w+\)", str(var.get("query", "")))
        if var.get("type") == "query" and m:
            out.append(Expr(f"dashboard variable: {var['name']}", m.group(1)))
    return out


def rule_exprs(rules_dir: Path = RULES_DIR) -> list[Expr]:
    out = []
    for path in sorted(rules_dir.glob("*.yml")):
        for group in yaml.safe_load(path.read_text())["groups"]:
            for rule in group["rules"]:
                name = rule.get("record") or rule.get("alert")
                out.append(Expr(f"rules: {path.name} {name}", rule["expr"].strip()))
    return out
