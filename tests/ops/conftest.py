"""Fixtures for the operations tests (issue 6): tool binaries, rendered overlays, a report line.

A missing tool (kustomize, promtool, prometheus, a Python validator package) makes a test
skip with the reason, or FAIL when ``CHSR_REQUIRE_ENGINES=1`` (CI: scripts/setup_and_test.sh
sets it after provisioning the engines), so CI can never pass by skipping them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
DEPLOY = REPO_ROOT / "deploy"
K8S = DEPLOY / "k8s"
OVERLAYS = ("dev", "prod", "prod-clustered")
LOCAL_DIR = Path(os.environ.get("CHSR_LOCAL_DIR", Path.home() / ".cache" / "chsr-local"))

# Filled by the live Prometheus test; printed in the terminal summary (issue 6 asks for the count).
OPS_REPORT: dict[str, int] = {}


def require(ok: bool, reason: str) -> None:
    """Skip with ``reason`` unless CHSR_REQUIRE_ENGINES=1, then fail instead."""
    if ok:
        return
    if os.environ.get("CHSR_REQUIRE_ENGINES") == "1":
        pytest.fail(f"{reason} (CHSR_REQUIRE_ENGINES=1: required)", pytrace=False)
    pytest.skip(reason)


def _versions_env(name: str, default: str) -> str:
    text = (DEPLOY / "local" / "versions.env").read_text() if (DEPLOY / "local" / "versions.env").exists() else ""
    m = re.search(rf'^{name}="\$\{{{name}:-([^}}]+)\}}"', text, re.M)
    return os.environ.get(name, m.group(1) if m else default)


def prometheus_binary(name: str) -> Path | None:
    """``prometheus`` or ``promtool``: ``CHSR_<NAME>_BIN``, else ``deploy/local/tools.sh``'s build, else the one
    ``deploy/local/engines.sh install prometheus`` put on the PATH (Debian's)."""
    env = os.environ.get(f"CHSR_{name.upper()}_BIN")
    if env:
        return Path(env) if Path(env).is_file() else None
    version = _versions_env("CHSR_PROM_MODULE_VERSION", "v0.316.0")
    # tools.sh's promtool (Go module build, with Kubernetes service discovery, which Debian's lacks) first
    for cand in (LOCAL_DIR / "bin" / name / version / name, LOCAL_DIR / "bin" / "prometheus" / version / name,
                 LOCAL_DIR / "bin" / name):
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand
    found = shutil.which(name)
    return Path(found) if found else None


@pytest.fixture(scope="session")
def promtool() -> Path:
    """The Go module's promtool (with Kubernetes service discovery, which Debian's lacks and prometheus-k8s.yml
    needs): ``CHSR_PROMTOOL_BIN``, else ``deploy/local/tools.sh``'s build, waiting for one under way (the README
    command builds the Go tools in the background while the tests start); Debian's only where Go is missing."""
    if not os.environ.get("CHSR_PROMTOOL_BIN") and shutil.which("go"):
        return go_tool("promtool")
    path = prometheus_binary("promtool")
    require(path is not None, "promtool not found: run `deploy/local/engines.sh install prometheus` "
                              "(or set CHSR_PROMTOOL_BIN)")
    return path  # type: ignore[return-value]


@pytest.fixture(scope="session")
def prometheus_bin() -> Path:
    path = prometheus_binary("prometheus")
    require(path is not None, "prometheus not found: run `deploy/local/engines.sh install prometheus` "
                              "(or set CHSR_PROMETHEUS_BIN)")
    return path  # type: ignore[return-value]


def go_tool(name: str) -> Path:
    """A pinned Go tool (kustomize, kube-score, ...), built once by deploy/local/tools.sh (Go module proxy)
    when Go is present; skips (or fails, with CHSR_REQUIRE_ENGINES=1) when it cannot be had."""
    script = DEPLOY / "local" / "tools.sh"
    found = subprocess.run(["bash", str(script), "path", name], capture_output=True, text=True)
    if found.returncode != 0 and shutil.which("go"):
        found = subprocess.run(["bash", str(script), "install", name], capture_output=True, text=True, timeout=900)
    require(found.returncode == 0, f"{name} not available: run `deploy/local/tools.sh install {name}` "
                                   f"(needs Go); {found.stderr.strip()[-300:]}")
    return Path(found.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def kustomize() -> Path:
    return go_tool("kustomize")


def kustomize_build(kustomize: Path, path: Path) -> list[dict]:
    out = subprocess.run([str(kustomize), "build", str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"kustomize build {path} failed:\n{out.stderr}"
    return [d for d in yaml.safe_load_all(out.stdout) if d]


@pytest.fixture(scope="session")
def rendered(kustomize: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    """Every overlay rendered, plus prod with the optional ServiceMonitor component."""
    out = {name: kustomize_build(kustomize, K8S / "overlays" / name) for name in OVERLAYS}
    extra = tmp_path_factory.mktemp("k8s-prod-servicemonitor")
    (extra / "kustomization.yaml").write_text(yaml.safe_dump({
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "resources": [os.path.relpath(K8S / "overlays" / "prod", extra)],
        "components": [os.path.relpath(K8S / "components" / "servicemonitor", extra)],
    }))
    out["prod+servicemonitor"] = kustomize_build(kustomize, extra)
    return out


def manifest_files() -> list[Path]:
    """Every Kubernetes manifest file under deploy/k8s (kustomization files excluded)."""
    return sorted(p for p in K8S.rglob("*.yaml") if p.name != "kustomization.yaml")


def load_docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    if OPS_REPORT:
        terminalreporter.write_line(
            "ops: " + ", ".join(f"{k}={v}" for k, v in sorted(OPS_REPORT.items())))

