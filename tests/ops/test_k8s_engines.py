"""The clustered engines of the prod-clustered overlay agree with each other and with the mesh's settings.

Schema validity is test_k8s_schema's job and generic references test_k8s_refs'; this checks what
only a replicated engine needs: every node listed in the mesh's addresses, the peers' join lists and
bootstrap counts equal the replica counts, one copy per machine, disruption budgets that keep a
quorum, and the ConfigMap parsing as Settings.
"""

from __future__ import annotations

import copy

import pytest

from chsr.config import Settings
from tests.ops.k8s_refs import Index, selects, pod_labels

pytestmark = pytest.mark.ops

OVERLAY = "prod-clustered"


def env_of(sts: dict) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in sts["spec"]["template"]["spec"]["containers"][0].get("env", [])}


def engine_errors(docs: list[dict]) -> list[str]:
    idx = Index.of(docs)
    data = idx.get("ConfigMap", "chsr-config")["data"]  # type: ignore[index]
    errors: list[str] = []
    wanted = {"chsr-es": 3, "chsr-weaviate": 3, "chsr-redis": 2, "chsr-redis-sentinel": 3}
    sts = {name: idx.get("StatefulSet", name) for name in wanted}
    for name, replicas in wanted.items():
        s = sts[name]
        if s is None:
            errors.append(f"StatefulSet/{name} missing")
            continue
        if s["spec"]["replicas"] != replicas:
            errors.append(f"StatefulSet/{name}: {s['spec']['replicas']} replicas, expected {replicas}")
        if not any(selects(p["spec"]["selector"], pod_labels(s)) for p in idx.kind("PodDisruptionBudget")) \
                and name != "chsr-redis":
            errors.append(f"StatefulSet/{name}: no PodDisruptionBudget")
    if any(s is None for s in sts.values()):
        return errors

    def listed(key: str, sts_name: str, service: str, port: int) -> None:
        n = sts[sts_name]["spec"]["replicas"]  # type: ignore[index]
        expected = [f"{sts_name}-{i}.{service}:{port}" for i in range(n)]
        got = [a.split("://", 1)[-1] for a in data.get(key, "").split(",") if a]
        if got != expected:
            errors.append(f"{key} lists {got}, expected every {sts_name} pod: {expected}")
        if sts[sts_name]["spec"]["serviceName"] != service:  # type: ignore[index]
            errors.append(f"{key}: {service} is not the serviceName of {sts_name}")
    listed("CHSR_ES_URL", "chsr-es", "chsr-es-nodes", 9200)
    listed("CHSR_WEAVIATE_HTTP", "chsr-weaviate", "chsr-weaviate-nodes", 8080)
    listed("CHSR_WEAVIATE_GRPC", "chsr-weaviate", "chsr-weaviate-nodes", 50051)
    listed("CHSR_REDIS_SENTINELS", "chsr-redis-sentinel", "chsr-redis-sentinel", 26379)

    es, wv = env_of(sts["chsr-es"]), env_of(sts["chsr-weaviate"])  # type: ignore[arg-type]
    n_es, n_wv = sts["chsr-es"]["spec"]["replicas"], sts["chsr-weaviate"]["spec"]["replicas"]  # type: ignore[index]
    if es.get("cluster.initial_master_nodes", "").split(",") != [f"chsr-es-{i}" for i in range(n_es)]:
        errors.append(f"chsr-es: cluster.initial_master_nodes {es.get('cluster.initial_master_nodes')} != its pods")
    if wv.get("RAFT_JOIN", "").split(",") != [f"chsr-weaviate-{i}" for i in range(n_wv)]:
        errors.append(f"chsr-weaviate: RAFT_JOIN {wv.get('RAFT_JOIN')} != its pods")
    if wv.get("RAFT_BOOTSTRAP_EXPECT") != str(n_wv):
        errors.append(f"chsr-weaviate: RAFT_BOOTSTRAP_EXPECT {wv.get('RAFT_BOOTSTRAP_EXPECT')} != {n_wv} replicas")
    for name in ("chsr-es", "chsr-weaviate"):
        anti = sts[name]["spec"]["template"]["spec"].get("affinity", {}).get("podAntiAffinity", {})  # type: ignore[index]
        if not anti.get("requiredDuringSchedulingIgnoredDuringExecution"):
            errors.append(f"StatefulSet/{name}: copies may share a machine (no required podAntiAffinity)")
    settings = Settings(**{k[5:].lower(): v for k, v in data.items()})  # what every mesh pod parses
    if settings.es_replicas != "auto" and settings.es_replicas + 1 > n_es:
        errors.append(f"CHSR_ES_REPLICAS={settings.es_replicas} needs {settings.es_replicas + 1} nodes, chsr-es has {n_es}")
    factor = settings.weaviate_replication_factor
    if factor != "auto" and factor > n_wv:
        errors.append(f"CHSR_WEAVIATE_REPLICATION_FACTOR={factor} is above chsr-weaviate's {n_wv} nodes")
    gw_egress = {p["port"] for r in idx.get("NetworkPolicy", "chsr-gateway-egress")["spec"]["egress"]  # type: ignore[index]
                 for p in r.get("ports", [])}
    if 26379 not in gw_egress:
        errors.append("the gateway may not reach the Sentinels (port 26379 missing from chsr-gateway-egress)")
    return errors


def test_clustered_engines_agree_with_the_mesh_settings(rendered: dict[str, list[dict]]) -> None:
    assert engine_errors(rendered[OVERLAY]) == []


def test_engine_checks_fire(rendered: dict[str, list[dict]]) -> None:
    docs = copy.deepcopy(rendered[OVERLAY])
    idx = Index.of(docs)
    idx.get("StatefulSet", "chsr-weaviate")["spec"]["replicas"] = 5  # type: ignore[index]
    data = idx.get("ConfigMap", "chsr-config")["data"]  # type: ignore[index]
    data["CHSR_ES_URL"] = "http://chsr-es-0.chsr-es-nodes:9200"
    data["CHSR_ES_REPLICAS"] = "3"
    errors = "\n".join(engine_errors(docs))
    for needle in ("CHSR_ES_URL lists", "CHSR_WEAVIATE_HTTP lists", "RAFT_BOOTSTRAP_EXPECT 3 != 5",
                   "CHSR_ES_REPLICAS=3 needs 4 nodes"):
        assert needle in errors, f"not reported: {needle}\n{errors}"
