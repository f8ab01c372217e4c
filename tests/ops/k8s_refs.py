"""Cross-reference checks over a set of Kubernetes objects (issue 6).

Schema validation proves each object is well-formed; these checks prove the objects agree
with each other: selectors select something, named ports and probe ports exist, referenced
ConfigMaps, keys, Secrets and ServiceAccounts exist, HPA/PDB/ServiceMonitor targets exist.
Each check returns human-readable errors so one failing test lists every broken reference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

PROBES = ("startupProbe", "readinessProbe", "livenessProbe")
WORKLOADS = ("Deployment", "StatefulSet")  # what Services, PDBs and NetworkPolicies may select


@dataclass
class Index:
    objs: dict[tuple[str, str], dict] = field(default_factory=dict)

    @classmethod
    def of(cls, docs: Iterable[dict]) -> "Index":
        idx = cls()
        for d in docs:
            idx.objs[(d["kind"], d["metadata"]["name"])] = d
        return idx

    def kind(self, kind: str) -> list[dict]:
        return [o for (k, _), o in self.objs.items() if k == kind]

    def get(self, kind: str, name: str) -> dict | None:
        return self.objs.get((kind, name))


def pod_labels(deploy: dict) -> dict[str, str]:
    return deploy["spec"]["template"]["metadata"].get("labels", {})


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """matchLabels/matchExpressions (In, NotIn, Exists, DoesNotExist) or a plain label map."""
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        selector = {"matchLabels": selector}
    if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        return False
    for expr in selector.get("matchExpressions", []):
        key, op, values = expr["key"], expr["operator"], expr.get("values", [])
        ok = {"In": labels.get(key) in values, "NotIn": labels.get(key) not in values,
              "Exists": key in labels, "DoesNotExist": key not in labels}[op]
        if not ok:
            return False
    return True


def container_ports(deploy: dict) -> tuple[set[str], set[int]]:
    names, numbers = set(), set()
    for c in deploy["spec"]["template"]["spec"]["containers"]:
        for p in c.get("ports", []):
            numbers.add(p["containerPort"])
            if "name" in p:
                names.add(p["name"])
    return names, numbers


def port_exists(port: int | str, deploy: dict) -> bool:
    names, numbers = container_ports(deploy)
    return port in names if isinstance(port, str) else port in numbers


def workloads(idx: Index) -> list[dict]:
    return [w for kind in WORKLOADS for w in idx.kind(kind)]


def selected_deployments(idx: Index, selector: dict) -> list[dict]:
    """Deployments and StatefulSets whose pods ``selector`` selects."""
    return [d for d in workloads(idx) if selects(selector, pod_labels(d))] if selector else []


def deployment_errors(idx: Index, external_secrets: set[str]) -> list[str]:
    errors: list[str] = []
    for d in workloads(idx):
        name, spec = d["metadata"]["name"], d["spec"]["template"]["spec"]
        where = f"{d['kind']}/{name}"
        if not selects(d["spec"]["selector"], pod_labels(d)):
            errors.append(f"{where}: spec.selector does not match the pod template labels")
        sa = spec.get("serviceAccountName")
        if sa and sa != "default" and not idx.get("ServiceAccount", sa):
            errors.append(f"{where}: serviceAccountName {sa!r} is not declared")
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        volumes |= {t["metadata"]["name"]: {"persistentVolumeClaim": t} for t in d["spec"].get("volumeClaimTemplates", [])}
        if d["kind"] == "StatefulSet":
            errors += _statefulset_errors(idx, d)
        for v in volumes.values():
            if "configMap" in v and not idx.get("ConfigMap", v["configMap"]["name"]):
                errors.append(f"{where}: volume {v['name']} uses missing ConfigMap {v['configMap']['name']}")
        for c in spec["containers"]:
            errors += _container_errors(idx, d, c, volumes, external_secrets)
        port_ann = d["spec"]["template"]["metadata"].get("annotations", {}).get("prometheus.io/port")
        if port_ann is not None and not port_exists(int(port_ann), d):
            errors.append(f"{where}: prometheus.io/port {port_ann} is not a containerPort")
    return errors


def _statefulset_errors(idx: Index, sts: dict) -> list[str]:
    """A StatefulSet's ``serviceName`` is a headless Service that selects its pods (the per-pod DNS names)."""
    where = f"StatefulSet/{sts['metadata']['name']}"
    svc = idx.get("Service", sts["spec"].get("serviceName", ""))
    if svc is None:
        return [f"{where}: serviceName {sts['spec'].get('serviceName')!r} is not a declared Service"]
    errors = []
    if svc["spec"].get("clusterIP") != "None":
        errors.append(f"{where}: serviceName Service {svc['metadata']['name']} is not headless (clusterIP: None)")
    if not selects(svc["spec"].get("selector", {}), pod_labels(sts)):
        errors.append(f"{where}: serviceName Service {svc['metadata']['name']} does not select its pods")
    return errors


def _container_errors(idx: Index, deploy: dict, c: dict, volumes: dict, external_secrets: set[str]) -> list[str]:
    where = f"{deploy['kind']}/{deploy['metadata']['name']} container {c['name']}"
    errors = []
    for probe in PROBES:
        for handler in ("grpc", "httpGet", "tcpSocket"):
            port = c.get(probe, {}).get(handler, {}).get("port")
            if port is not None and not port_exists(port, deploy):
                errors.append(f"{where}: {probe}.{handler}.port {port!r} is not a containerPort")
    for src in c.get("envFrom", []):
        ref = src.get("configMapRef") or src.get("secretRef")
        kind = "ConfigMap" if "configMapRef" in src else "Secret"
        if not ref.get("optional") and not idx.get(kind, ref["name"]) and ref["name"] not in external_secrets:
            errors.append(f"{where}: envFrom {kind} {ref['name']!r} is not declared")
    for env in c.get("env", []):
        ref = env.get("valueFrom", {})
        if "configMapKeyRef" in ref:
            errors += _key_ref_errors(idx, where, "ConfigMap", ref["configMapKeyRef"], set())
        if "secretKeyRef" in ref:
            errors += _key_ref_errors(idx, where, "Secret", ref["secretKeyRef"], external_secrets)
    for m in c.get("volumeMounts", []):
        if m["name"] not in volumes:
            errors.append(f"{where}: volumeMount {m['name']!r} has no volume")
    return errors


def _key_ref_errors(idx: Index, where: str, kind: str, ref: dict, external: set[str]) -> list[str]:
    obj = idx.get(kind, ref["name"])
    if obj is None:
        if ref["name"] in external or ref.get("optional"):
            return []
        return [f"{where}: {kind} {ref['name']!r} (key {ref['key']!r}) is not declared"]
    keys = set(obj.get("data", {}) or {}) | set(obj.get("stringData", {}) or {})
    return [] if ref["key"] in keys else [f"{where}: {kind} {ref['name']!r} has no key {ref['key']!r}"]


def service_errors(idx: Index) -> list[str]:
    errors = []
    for s in idx.kind("Service"):
        where = f"Service/{s['metadata']['name']}"
        targets = selected_deployments(idx, s["spec"].get("selector", {}))
        if not targets:
            errors.append(f"{where}: selector {s['spec'].get('selector')} matches no Deployment")
            continue
        for p in s["spec"]["ports"]:
            target = p.get("targetPort", p["port"])
            if not all(port_exists(target, d) for d in targets):
                errors.append(f"{where}: targetPort {target!r} is not a containerPort of the selected pods")
    return errors


def policy_errors(idx: Index) -> list[str]:
    """HPA and PDB targets, NetworkPolicy selectors and ports, ServiceMonitor selectors."""
    errors = []
    for h in idx.kind("HorizontalPodAutoscaler"):
        ref = h["spec"]["scaleTargetRef"]
        if not idx.get(ref["kind"], ref["name"]):
            errors.append(f"HorizontalPodAutoscaler/{h['metadata']['name']}: "
                          f"target {ref['kind']}/{ref['name']} missing")
    for p in idx.kind("PodDisruptionBudget"):
        if not selected_deployments(idx, p["spec"]["selector"]):
            errors.append(f"PodDisruptionBudget/{p['metadata']['name']}: selector matches no Deployment")
    for n in idx.kind("NetworkPolicy"):
        errors += _netpol_errors(idx, n)
    for m in idx.kind("ServiceMonitor"):
        services = [s for s in idx.kind("Service") if selects(m["spec"]["selector"], s["metadata"].get("labels", {}))]
        if not services:
            errors.append(f"ServiceMonitor/{m['metadata']['name']}: selector matches no Service")
        for ep in m["spec"]["endpoints"]:
            missing = [s["metadata"]["name"] for s in services
                       if ep["port"] not in {p.get("name") for p in s["spec"]["ports"]}]
            if missing:
                errors.append(f"ServiceMonitor/{m['metadata']['name']}: port {ep['port']!r} missing on {missing}")
    return errors


def _netpol_errors(idx: Index, n: dict) -> list[str]:
    where = f"NetworkPolicy/{n['metadata']['name']}"
    selector = n["spec"]["podSelector"]
    pods = workloads(idx) if not selector else selected_deployments(idx, selector)
    if not pods:
        return [f"{where}: podSelector matches no Deployment"]
    errors = []
    for rule in n["spec"].get("ingress", []):
        for peer in rule.get("from", []):
            if "podSelector" in peer and "namespaceSelector" not in peer and peer["podSelector"] \
                    and not selected_deployments(idx, peer["podSelector"]):
                errors.append(f"{where}: ingress from podSelector {peer['podSelector']} matches no Deployment")
        for port in rule.get("ports", []):
            lo, hi = port["port"], port.get("endPort", port["port"])
            numbers = set().union(*(container_ports(d)[1] for d in pods))
            if isinstance(lo, int) and not any(lo <= x <= hi for x in numbers):
                errors.append(f"{where}: ingress port {lo}-{hi} matches no containerPort of the selected pods")
    return errors


def all_errors(docs: Iterable[dict], external_secrets: set[str]) -> list[str]:
    idx = Index.of(docs)
    return deployment_errors(idx, external_secrets) + service_errors(idx) + policy_errors(idx)
