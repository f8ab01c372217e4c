"""kube-score finds nothing to fix in any rendered overlay (issue 23).

The pinned kube-score (deploy/local/tools.sh, Go module github.com/zegl/kube-score) scores every
overlay as ``kustomize build`` renders it. No CRITICAL is allowed, and no WARNING either: a check
that does not fit an object is switched off on that object only, with the annotation
``kube-score/ignore: <check-id>[,<check-id>...]`` right below a YAML comment giving the reason.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.ops.conftest import K8S, go_tool

pytestmark = pytest.mark.ops

# The Kubernetes version the manifests target (test_k8s_schema validates against the same one).
KUBERNETES_VERSION = "v1.34"
OVERLAYS = ["dev", "prod", "prod+servicemonitor", "prod-clustered"]
LINE = re.compile(r"^\[(OK|SKIPPED|WARNING|CRITICAL)\] (.*)$")


@pytest.fixture(scope="session")
def kube_score() -> Path:
    return go_tool("kube-score")


def score(kube_score: Path, docs: list[dict], tmp_path: Path) -> tuple[dict[str, list[str]], str]:
    """Grade -> lines of ``kube-score score -o ci`` for ``docs``, and the whole output."""
    manifest = tmp_path / "rendered.yaml"
    manifest.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    out = subprocess.run([str(kube_score), "score", "--output-format", "ci", "--color", "never",
                          "--kubernetes-version", KUBERNETES_VERSION, str(manifest)],
                         capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr
    graded: dict[str, list[str]] = {"OK": [], "SKIPPED": [], "WARNING": [], "CRITICAL": []}
    for line in out.stdout.splitlines():
        m = LINE.match(line)
        if m:
            graded[m.group(1)].append(m.group(2))
    # Exit 1 means "something CRITICAL" or "could not read the input": only the former has graded lines.
    assert out.returncode in (0, 1) and graded["OK"], f"kube-score failed (exit {out.returncode}):\n{text[-3000:]}"
    return graded, text


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_overlay_has_no_critical(kube_score: Path, rendered: dict[str, list[dict]], overlay: str,
                                 tmp_path: Path) -> None:
    graded, text = score(kube_score, rendered[overlay], tmp_path)
    assert not graded["CRITICAL"], (
        f"{overlay}: {len(graded['CRITICAL'])} CRITICAL:\n" + "\n".join(graded["CRITICAL"])
        + f"\n\nfull kube-score output:\n{text[-6000:]}")


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_overlay_warnings_are_fixed_or_ignored(kube_score: Path, rendered: dict[str, list[dict]], overlay: str,
                                               tmp_path: Path) -> None:
    graded, _ = score(kube_score, rendered[overlay], tmp_path)
    assert not graded["WARNING"], (
        f"{overlay}: fix these or add `kube-score/ignore: <check-id>` (with a reason comment) to the object:\n"
        + "\n".join(graded["WARNING"]))


def test_every_ignore_has_a_reason() -> None:
    """Each ``kube-score/ignore`` line in deploy/k8s is preceded by a comment saying why."""
    missing = []
    for path in sorted(K8S.rglob("*.yaml")):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if "kube-score/ignore:" in line and (i == 0 or not lines[i - 1].lstrip().startswith("#")):
                missing.append(f"{path.relative_to(K8S)}:{i + 1}: {line.strip()}")
    assert not missing, "kube-score/ignore without a reason comment on the line above:\n" + "\n".join(missing)


def test_kube_score_catches_a_bad_deployment(kube_score: Path, tmp_path: Path) -> None:
    """Guards against a scorer that passes anything: no resources, no probes, a latest tag."""
    bad = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "bad"},
           "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "bad"}},
                    "template": {"metadata": {"labels": {"app": "bad"}},
                                 "spec": {"containers": [{"name": "c", "image": "example/bad:latest"}]}}}}
    graded, text = score(kube_score, [bad], tmp_path)
    critical = "\n".join(graded["CRITICAL"])
    for needle in ("CPU limit is not set", "Image with latest tag", "Ephemeral Storage limit is not set"):
        assert needle in critical, f"not reported: {needle}\n{text}"
