"""promtool accepts the scrape configs and rule files, and the alert unit tests pass (issue 6)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.ops.conftest import DEPLOY

PROM = DEPLOY / "prometheus"
pytestmark = [pytest.mark.ops, pytest.mark.prometheus]


def promtool_run(promtool: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(promtool), *args], capture_output=True, text=True, cwd=PROM, timeout=120)


@pytest.mark.parametrize("config", ["prometheus.yml", "prometheus-k8s.yml"])
def test_check_config(promtool: Path, config: str) -> None:
    out = promtool_run(promtool, "check", "config", config)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 rule files found" in out.stdout + out.stderr


def test_check_rules(promtool: Path) -> None:
    rules = sorted(str(p.relative_to(PROM)) for p in (PROM / "rules").glob("*.yml"))
    assert len(rules) == 2
    out = promtool_run(promtool, "check", "rules", "--lint=all", "--lint-fatal", *rules)
    assert out.returncode == 0, out.stdout + out.stderr


def test_alert_rule_unit_tests(promtool: Path) -> None:
    out = promtool_run(promtool, "test", "rules", "tests/chsr-alerts.test.yml")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SUCCESS" in out.stdout + out.stderr


def test_check_rules_rejects_a_broken_expression(promtool: Path, tmp_path: Path) -> None:
    """Guards against a promtool that accepts anything."""
    bad = tmp_path / "bad.yml"
    bad.write_text("groups:\n  - name: x\n    rules:\n      - record: a:b:c\n        expr: sum(rate(x[5m])\n")
    assert promtool_run(promtool, "check", "rules", str(bad)).returncode != 0
