"""Every Kubernetes manifest and every rendered overlay validates against a pinned schema.

Validator: PyPI ``kubernetes-validate`` (bundled JSON schemas, offline), strict mode so an
unknown or misspelled field is an error. Kubernetes version pinned below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ops.conftest import K8S, load_docs, manifest_files, require

pytestmark = pytest.mark.ops

K8S_VERSION = "1.34.0"
# Custom resources have no schema in the bundle; they are checked by test_k8s_refs instead.
NO_BUNDLED_SCHEMA = {("monitoring.coreos.com/v1", "ServiceMonitor")}
KUSTOMIZE_KINDS = {"Kustomization", "Component"}


def validator():  # type: ignore[no-untyped-def]
    try:
        import kubernetes_validate
    except ImportError:
        require(False, "PyPI package kubernetes-validate is not installed in this environment")
    return kubernetes_validate


def schema_errors(docs: list[dict], where: str) -> list[str]:
    kv = validator()
    errors = []
    for doc in docs:
        if doc.get("kind") in KUSTOMIZE_KINDS or (doc.get("apiVersion"), doc.get("kind")) in NO_BUNDLED_SCHEMA:
            continue
        name = f"{where}: {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        try:
            kv.validate(doc, K8S_VERSION, strict=True)
        except kv.ValidationError as exc:
            errors.append(f"{name}: {'.'.join(map(str, exc.path))}: {exc.message}")
        except kv.SchemaNotFoundError as exc:
            errors.append(f"{name}: {exc.message}")
    return errors


@pytest.mark.parametrize("path", manifest_files(), ids=lambda p: str(p.relative_to(K8S)))
def test_manifest_file_validates(path: Path) -> None:
    docs = load_docs(path)
    assert docs, f"{path} holds no object"
    assert schema_errors(docs, str(path.relative_to(K8S))) == []


@pytest.mark.parametrize("overlay", ["dev", "prod", "prod+servicemonitor", "prod-clustered"])
def test_rendered_overlay_validates(rendered: dict[str, list[dict]], overlay: str) -> None:
    docs = rendered[overlay]
    assert len(docs) > 20
    assert schema_errors(docs, overlay) == []


def test_schema_validation_catches_a_typo() -> None:
    """The validator is strict: a misspelled field must fail (guards against a no-op validator)."""
    doc = load_docs(K8S / "base" / "gate.yaml")[0]
    doc["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["grpcc"] = {"port": 50052}
    assert schema_errors([doc], "typo")
