"""Cluster layouts an engine cannot hold fail at start-up with the reason (issue 13, "Bad input and faults").

Replication above the node count and a shard that cannot be allocated run against the single-node
engines (one node is the smallest cluster); a Sentinel that names no primary against the local
Sentinels of deploy/local/clusters.sh. Each is a clear FailedPrecondition from the backend's
start-up check, and the server process exits with it (status 3, message on stderr) instead of
serving with fewer copies than configured. A cache whose Sentinels cannot be reached is bypassed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

import numpy as np
import pytest

from chsr.errors import FailedPrecondition
from gateway.cache.base import CacheUnavailable
from gateway.cache.redis_cache import RedisCache
from services.dense.backends.weaviate_cluster import Replication
from services.sparse.backends.es_cluster import IndexLayout
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.integration


def _server_exit(module: str, env: dict[str, str], timeout_s: float = 120) -> subprocess.CompletedProcess:
    """Start one server with ``env``; it must exit by itself (a start-up error), never hang."""
    full = {**os.environ, "CHSR_BACKEND": "engines", "CHSR_PORT": "0", "CHSR_METRICS_PORT": "0",
            "PYTHONPATH": str(REPO_ROOT), **env}
    return subprocess.run([sys.executable, "-m", module], env=full, capture_output=True, text=True,
                          timeout=timeout_s, cwd=REPO_ROOT)


@pytest.mark.elasticsearch
def test_es_replicas_above_the_node_count_stop_the_sparse_server(es_url: str, run_id: str) -> None:
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    backend = ElasticsearchSparseBackend(es_url, f"chsr-test-{run_id}-replicas", layout=IndexLayout(replicas=2))
    with pytest.raises(FailedPrecondition, match=r"CHSR_ES_REPLICAS=2 means 3 copies .* cluster has 1 node"):
        backend.check()
    backend.close()
    out = _server_exit("services.sparse.server", {"CHSR_ES_URL": es_url, "CHSR_ES_INDEX": f"chsr-test-{run_id}-x",
                                                  "CHSR_ES_REPLICAS": "2"})
    assert out.returncode == 3, out.stderr[-800:]
    assert "sparse: cannot start: elasticsearch" in out.stderr and "CHSR_ES_REPLICAS=2" in out.stderr


@pytest.mark.elasticsearch
def test_es_shard_allocation_failure_is_a_start_up_error_quoting_the_reason(es_url: str, run_id: str) -> None:
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    index = f"chsr-test-{run_id}-alloc"
    body = json.dumps({"settings": {"number_of_replicas": 0, "index.routing.allocation.include._name": "no-such-node"}})
    urllib.request.urlopen(urllib.request.Request(f"{es_url}/{index}?wait_for_active_shards=0", data=body.encode(),
                                                  method="PUT", headers={"Content-Type": "application/json"}),
                           timeout=30).close()
    backend = ElasticsearchSparseBackend(es_url, index, allocation_timeout="2s")
    try:
        start = time.monotonic()
        with pytest.raises(FailedPrecondition, match=r"shards not allocated within 2s \(health red.*no-such-node|"
                                                     r"shards not allocated within 2s \(health red.*not permitted"):
            backend.check()
        assert time.monotonic() - start < 20
    finally:
        backend.drop()
        backend.close()


@pytest.mark.weaviate
def test_weaviate_replication_factor_above_the_node_count_stops_the_dense_backend(
        weaviate_addrs: tuple[str, str], run_id: str) -> None:
    from services.dense.backends.weaviate import WeaviateDenseBackend

    http, grpc_addr = weaviate_addrs
    backend = WeaviateDenseBackend(http, grpc_addr, f"ChsrTest{run_id}Rf", 4, replication=Replication(factor=2))
    try:
        with pytest.raises(FailedPrecondition, match=r"replication factor 2 .* above the cluster's 1 node"):
            backend.check()
        ok = WeaviateDenseBackend(http, grpc_addr, f"ChsrTest{run_id}Rf", 4)  # auto: 1 copy on one node
        ok.check()
        assert ok.details()["replication_factor"] == "1"
        assert ok.upsert([_doc("a")], np.eye(1, 4, dtype=np.float32)).indexed == 1
        ok.drop()
        ok.close()
    finally:
        backend.close()


def _doc(doc_id: str):  # type: ignore[no-untyped-def]
    from chsr.documents import Doc
    return Doc(id=doc_id, text=f"probe {doc_id}")


def test_unreachable_sentinels_make_the_cache_unavailable_fast(closed_ports: tuple[int, int]) -> None:
    cache = RedisCache("redis://127.0.0.1/3", sentinels=f"127.0.0.1:{closed_ports[0]},127.0.0.1:{closed_ports[1]}")
    cache.check()  # best-effort: start-up goes on
    start = time.monotonic()
    with pytest.raises(CacheUnavailable):
        cache.get("chsr:v1:x")
    assert time.monotonic() - start < 2.0


@pytest.mark.cluster
@pytest.mark.redis
def test_a_sentinel_that_names_no_primary_stops_the_gateway() -> None:
    from tests.faults.cluster import SENTINELS, require_clusters

    require_clusters()
    sentinels = ",".join(SENTINELS)
    with pytest.raises(FailedPrecondition, match=r"monitor no primary named 'no-such-primary'"):
        RedisCache.from_settings(_settings(sentinels, "no-such-primary"))
    RedisCache.from_settings(_settings(sentinels, "chsr")).close()  # the monitored name is fine
    out = _server_exit("gateway.server", {"CHSR_REDIS_SENTINELS": sentinels,
                                          "CHSR_REDIS_SENTINEL_MASTER": "no-such-primary"})
    assert out.returncode == 3 and "gateway: cannot start: redis: the Sentinels at" in out.stderr, out.stderr[-800:]


def _settings(sentinels: str, master: str):  # type: ignore[no-untyped-def]
    from chsr.config import Settings
    return Settings(redis_url="redis://127.0.0.1:26379/3", redis_sentinels=sentinels, redis_sentinel_master=master)
