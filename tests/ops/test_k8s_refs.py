"""Cross-references in the rendered overlays (issue 6) and the mesh's own conventions.

Generic checks live in tests/ops/k8s_refs.py; this file applies them to each overlay and adds
what only this mesh knows: ports from docs/ARCHITECTURE.md, entry modules from
tools/cli/up_cmd.py, ConfigMap keys that chsr/config.py reads, and the hardening issue 6 asks for.
"""

from __future__ import annotations

import copy
import re

import pytest

from tools.cli.up_cmd import MODULES
from chsr.config import DEFAULT_METRICS_PORTS, DEFAULT_PORTS, Settings
from tests.ops.conftest import REPO_ROOT, load_docs, manifest_files
from tests.ops.k8s_refs import Index, all_errors, pod_labels, selects

pytestmark = pytest.mark.ops

OVERLAYS = ["dev", "prod", "prod+servicemonitor", "prod-clustered"]
# Secrets created outside the repo (documented in docs/DEPLOY.md "Secrets").
EXTERNAL_SECRETS = {"chsr-ingest"}
MESH = tuple(DEFAULT_PORTS)


def mesh_deployment(idx: Index, service: str) -> dict:
    d = idx.get("Deployment", f"chsr-{service}")
    assert d is not None, f"Deployment chsr-{service} missing"
    return d


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_cross_references(rendered: dict[str, list[dict]], overlay: str) -> None:
    external = EXTERNAL_SECRETS if overlay.startswith("prod") else set()
    assert all_errors(rendered[overlay], external) == []


def test_base_files_cross_reference_without_kustomize() -> None:
    """The raw base files already agree with each other (the ingest Secret is external there)."""
    docs = [d for p in manifest_files() if p.parent.name == "base" for d in load_docs(p)]
    assert all_errors(docs, EXTERNAL_SECRETS) == []


def test_external_secrets_are_documented() -> None:
    text = (REPO_ROOT / "docs" / "DEPLOY.md").read_text()
    for name in EXTERNAL_SECRETS:
        assert f"kubectl -n chsr create secret generic {name}" in text


@pytest.mark.parametrize("overlay", OVERLAYS)
@pytest.mark.parametrize("service", MESH)
def test_mesh_deployment_conventions(rendered: dict[str, list[dict]], overlay: str, service: str) -> None:
    idx = Index.of(rendered[overlay])
    spec = mesh_deployment(idx, service)["spec"]["template"]["spec"]
    (c,) = spec["containers"]
    assert c["command"] == ["python", "-m", MODULES[service]]
    assert re.fullmatch(rf"(.+/)?chsr/{service}:0\.2\.0", c["image"]), c["image"]  # one image per server
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"grpc": DEFAULT_PORTS[service], "metrics": DEFAULT_METRICS_PORTS[service]}
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    assert env["CHSR_PORT"] == str(ports["grpc"]) and env["CHSR_METRICS_PORT"] == str(ports["metrics"])
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert c[probe]["grpc"]["port"] == ports["grpc"], f"{probe} must use the gRPC health service"
    assert c["resources"]["requests"].keys() >= {"cpu", "memory"}
    assert c["resources"]["limits"].keys() >= {"cpu", "memory"}
    assert spec["securityContext"]["runAsNonRoot"] is True and spec["securityContext"]["runAsUser"] != 0
    sc = c["securityContext"]
    assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]
    mounts = {m["mountPath"] for m in c["volumeMounts"]}
    assert "/tmp" in mounts
    volumes = {v["name"]: v for v in spec["volumes"]}
    assert all("emptyDir" in volumes[m["name"]] for m in c["volumeMounts"])
    ann = mesh_deployment(idx, service)["spec"]["template"]["metadata"]["annotations"]
    assert ann["prometheus.io/scrape"] == "true" and ann["prometheus.io/port"] == str(ports["metrics"])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_config_keys_are_settings_and_addresses_resolve(rendered: dict[str, list[dict]], overlay: str) -> None:
    idx = Index.of(rendered[overlay])
    data = idx.get("ConfigMap", "chsr-config")["data"]  # type: ignore[index]
    fields = {f"CHSR_{name.upper()}" for name in Settings.model_fields}
    assert set(data) <= fields, f"keys chsr/config.py does not read: {set(data) - fields}"
    assert data["CHSR_HOST"] == "0.0.0.0" and data["CHSR_BACKEND"] == "engines"
    for key in ("CHSR_GATE_ADDR", "CHSR_SPARSE_ADDR", "CHSR_DENSE_ADDR", "CHSR_FUSION_ADDR", "CHSR_RERANK_ADDR",
                "CHSR_GRAPH_ADDR"):
        host, port = data[key].rsplit(":", 1)
        svc = idx.get("Service", host)
        assert svc is not None, f"{key}={data[key]}: no Service {host}"
        assert int(port) in {p["port"] for p in svc["spec"]["ports"]}, f"{key}: Service {host} has no port {port}"
    # the mounted data/cache directories are the configured ones
    dense = mesh_deployment(idx, "dense")["spec"]["template"]["spec"]["containers"][0]
    assert {data["CHSR_DATA_DIR"], data["CHSR_CACHE_DIR"]} <= {m["mountPath"] for m in dense["volumeMounts"]}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_gateway_scaling_and_ingest_secret(rendered: dict[str, list[dict]], overlay: str) -> None:
    idx = Index.of(rendered[overlay])
    hpa = idx.get("HorizontalPodAutoscaler", "chsr-gateway")
    pdb = idx.get("PodDisruptionBudget", "chsr-gateway")
    assert hpa and hpa["spec"]["scaleTargetRef"]["name"] == "chsr-gateway"
    assert pdb and selects(pdb["spec"]["selector"], pod_labels(mesh_deployment(idx, "gateway")))
    env = mesh_deployment(idx, "gateway")["spec"]["template"]["spec"]["containers"][0]["env"]
    token = next(e for e in env if e["name"] == "CHSR_INGEST_TOKEN")
    assert "value" not in token and token["valueFrom"]["secretKeyRef"]["key"] == "token"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_network_policies_expose_only_the_gateway(rendered: dict[str, list[dict]], overlay: str) -> None:
    idx = Index.of(rendered[overlay])
    deny = idx.get("NetworkPolicy", "chsr-default-deny")
    assert deny and deny["spec"]["podSelector"] == {} and set(deny["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    for service in MESH:
        labels = pod_labels(mesh_deployment(idx, service))
        open_ingress = [n["metadata"]["name"] for n in idx.kind("NetworkPolicy")
                        if selects(n["spec"]["podSelector"], labels)
                        for rule in n["spec"].get("ingress", []) if "from" not in rule]
        grpc_from_gateway = [n for n in idx.kind("NetworkPolicy") if selects(n["spec"]["podSelector"], labels)
                             for rule in n["spec"].get("ingress", []) for peer in rule.get("from", [])
                             if peer.get("podSelector", {}).get("matchLabels", {}).get(
                                 "app.kubernetes.io/name") == "chsr-gateway"]
        if service == "gateway":
            assert open_ingress == ["chsr-gateway-from-clients"]
        else:
            assert open_ingress == [] and grpc_from_gateway, f"{service} must accept only the gateway"


def test_dev_overlay_ships_engines_and_points_at_them(rendered: dict[str, list[dict]]) -> None:
    idx = Index.of(rendered["dev"])
    data = idx.get("ConfigMap", "chsr-config")["data"]  # type: ignore[index]
    for svc, key, port in (("elasticsearch", "CHSR_ES_URL", 9200), ("weaviate", "CHSR_WEAVIATE_HTTP", 8080),
                           ("weaviate", "CHSR_WEAVIATE_GRPC", 50051), ("redis", "CHSR_REDIS_URL", 6379)):
        assert f"{svc}:{port}" in data[key]
        assert port in {p["port"] for p in idx.get("Service", svc)["spec"]["ports"]}  # type: ignore[index]
    assert not any(d["kind"] == "Deployment" and d["metadata"]["name"] in ("elasticsearch", "redis", "weaviate")
                   for d in rendered["prod"])


def test_checker_reports_broken_references(rendered: dict[str, list[dict]]) -> None:
    """Each kind of broken reference is caught (guards against checks that never fire)."""
    docs = copy.deepcopy(rendered["dev"])
    idx = Index.of(docs)
    dense = idx.get("Service", "chsr-dense")
    dense["spec"]["selector"] = {"app.kubernetes.io/name": "chsr-densee"}  # type: ignore[index]
    idx.get("Service", "chsr-gate")["spec"]["ports"][0]["targetPort"] = "grcp"  # type: ignore[index]
    gw = mesh_deployment(idx, "gateway")["spec"]["template"]["spec"]["containers"][0]
    gw["readinessProbe"]["grpc"]["port"] = 50052
    gw["envFrom"][0]["configMapRef"]["name"] = "chsr-konfig"
    next(e for e in gw["env"] if e["name"] == "CHSR_INGEST_TOKEN")["valueFrom"]["secretKeyRef"]["key"] = "tokn"
    idx.get("HorizontalPodAutoscaler", "chsr-gateway")["spec"]["scaleTargetRef"]["name"] = "gw"  # type: ignore[index]
    errors = "\n".join(all_errors(docs, set()))
    for needle in ("Service/chsr-dense: selector", "targetPort 'grcp'", "readinessProbe.grpc.port 50052",
                   "ConfigMap 'chsr-konfig'", "has no key 'tokn'", "target Deployment/gw missing"):
        assert needle in errors, f"not reported: {needle}\n{errors}"
