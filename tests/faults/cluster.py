"""Node-fault plumbing: the local clusters (deploy/local/clusters.sh), killing and restarting one
node, and checking every acknowledged document on every node.

The clusters live on their own loopback ports (ES 29200-29202, Weaviate 28080-28082 / 25051-25053,
Redis 26379-26380 with Sentinels 26479-26481), never the single-node engines colleagues use.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Callable, Iterable

import httpx

from chsr.client import GatewayClient
from chsr.documents import Doc
from tests.conftest import REPO_ROOT

CLUSTERS_SH = REPO_ROOT / "deploy" / "local" / "clusters.sh"
NODES = 3
ES_URLS = [f"http://127.0.0.1:{29200 + i}" for i in range(NODES)]
WV_HTTP = [f"127.0.0.1:{28080 + i}" for i in range(NODES)]
WV_GRPC = [f"127.0.0.1:{25051 + i}" for i in range(NODES)]
SENTINELS = [f"127.0.0.1:{26479 + i}" for i in range(3)]
MASTER = "chsr"


def cluster_env(index: str, collection: str, db: int) -> dict[str, str]:
    """The mesh's settings for the clusters (what ``clusters.sh env`` prints), with our own index names."""
    return {"CHSR_ES_URL": ",".join(ES_URLS), "CHSR_WEAVIATE_HTTP": ",".join(WV_HTTP),
            "CHSR_WEAVIATE_GRPC": ",".join(WV_GRPC), "CHSR_REDIS_SENTINELS": ",".join(SENTINELS),
            "CHSR_REDIS_SENTINEL_MASTER": MASTER, "CHSR_REDIS_URL": f"redis://127.0.0.1:26379/{db}",
            "CHSR_ES_INDEX": index, "CHSR_WEAVIATE_COLLECTION": collection}


def clusters(action: str, *args: str, timeout_s: float = 300, nice: int = 0) -> subprocess.CompletedProcess:
    """``nice`` lowers the priority of what the command starts: a restarted node boots on the same two
    cores that serve the queries, where on a real cluster it would have a machine of its own."""
    prefix = ["nice", "-n", str(nice)] if nice else []
    return subprocess.run([*prefix, "bash", str(CLUSTERS_SH), action, *args], capture_output=True, text=True,
                          timeout=timeout_s, check=False)


def require_clusters() -> None:
    """Skip when the clusters are not running, or fail when CHSR_REQUIRE_ENGINES=1 (CI starts them)."""
    import pytest

    status = clusters("status", "all", timeout_s=60)
    if status.returncode == 0:
        return
    reason = f"local clusters not running (deploy/local/clusters.sh start all):\n{status.stdout[-800:]}"
    if os.environ.get("CHSR_REQUIRE_ENGINES") == "1":
        pytest.fail(f"{reason}\n(CHSR_REQUIRE_ENGINES=1: node-fault tests must run)", pytrace=False)
    pytest.skip(reason)


def _get_json(url: str, timeout_s: float = 3.0) -> dict | list:
    with urllib.request.urlopen(url, timeout=timeout_s) as resp:  # noqa: S310 (loopback)
        return json.loads(resp.read())


def _ok(fn: Callable[[], bool]) -> bool:
    try:
        return fn()
    except (OSError, ValueError, KeyError, urllib.error.URLError):
        return False


# ---- health ---------------------------------------------------------------------------------------
def es_node_joined(node: int) -> bool:
    """Node ``node`` (1-based) answers and the cluster counts all three nodes again."""
    def check() -> bool:
        health = _get_json(f"{ES_URLS[node - 1]}/_cluster/health?timeout=1s")
        return int(health["number_of_nodes"]) == NODES  # type: ignore[index]
    return _ok(check)


def es_index_green(index: str) -> bool:
    return _ok(lambda: _get_json(f"{ES_URLS[0]}/_cluster/health/{index}?timeout=1s")["status"] == "green")  # type: ignore[index]


def wv_node_joined(node: int) -> bool:
    def check() -> bool:
        urllib.request.urlopen(f"http://{WV_HTTP[node - 1]}/v1/.well-known/ready", timeout=3).close()  # noqa: S310
        nodes = _get_json(f"http://{WV_HTTP[node - 1]}/v1/nodes")["nodes"]  # type: ignore[index]
        return sum(1 for n in nodes if n["status"] == "HEALTHY") == NODES
    return _ok(check)


def redis_primary() -> str | None:
    import redis

    for addr in SENTINELS:
        host, port = addr.split(":")
        try:
            found = redis.Redis(host=host, port=int(port), socket_timeout=0.3).execute_command(
                "SENTINEL", "get-master-addr-by-name", MASTER)
        except redis.RedisError:
            continue
        if found:
            return f"{found[0].decode()}:{found[1].decode()}"
    return None


def redis_primary_serving(not_addr: str = "") -> bool:
    """A Sentinel names a primary (other than ``not_addr``) and it answers PING as a primary."""
    import redis

    addr = redis_primary()
    if not addr or addr == not_addr:
        return False
    host, port = addr.split(":")
    try:
        client = redis.Redis(host=host, port=int(port), socket_timeout=0.3)
        return client.ping() and client.info("replication")["role"] == "master"
    except redis.RedisError:
        return False


def redis_replica_linked() -> bool:
    import redis

    addr = redis_primary()
    if not addr:
        return False
    host, port = addr.split(":")
    try:
        return int(redis.Redis(host=host, port=int(port), socket_timeout=0.3).info("replication")
                   ["connected_slaves"]) >= 1
    except redis.RedisError:
        return False


# ---- documents on every node ----------------------------------------------------------------------
def es_missing_per_node(index: str, ids: Iterable[str]) -> dict[str, int]:
    """Per ES node name: how many of ``ids`` its own shard copy lacks (-1 when it holds no started copy)."""
    wanted = sorted(set(ids))
    nodes = _get_json(f"{ES_URLS[0]}/_nodes/_all/none")["nodes"]  # type: ignore[index]
    out: dict[str, int] = {}
    with httpx.Client(timeout=10) as http:
        for node_id, node in nodes.items():
            found: set[str] = set()
            try:
                for start in range(0, len(wanted), 1000):
                    chunk = wanted[start:start + 1000]
                    resp = http.post(f"{ES_URLS[0]}/{index}/_search", params={"preference": f"_only_nodes:{node_id}"},
                                     json={"query": {"ids": {"values": chunk}}, "size": len(chunk), "_source": False,
                                           "track_total_hits": False})
                    resp.raise_for_status()
                    body = resp.json()
                    if body["_shards"]["successful"] < body["_shards"]["total"]:
                        raise RuntimeError("copy not started")
                    found.update(h["_id"] for h in body["hits"]["hits"])
                out[node["name"]] = len(set(wanted) - found)
            except (httpx.HTTPError, RuntimeError, KeyError):
                out[node["name"]] = -1
    return out


def wv_missing_per_node(collection: str, ids: Iterable[str]) -> dict[str, int]:
    """Per Weaviate node: how many of ``ids`` that node itself lacks (``node_name`` reads one replica)."""
    from weaviate.util import generate_uuid5

    wanted = sorted(set(ids))
    nodes = [n["name"] for n in _get_json(f"http://{WV_HTTP[0]}/v1/nodes")["nodes"]]  # type: ignore[index]
    out: dict[str, int] = {}
    with httpx.Client(timeout=5) as http:
        for name in nodes:
            missing = 0
            try:
                for doc_id in wanted:
                    r = http.head(f"http://{WV_HTTP[0]}/v1/objects/{collection}/{generate_uuid5(doc_id)}",
                                  params={"node_name": name})
                    missing += r.status_code != 204
                out[name] = missing
            except httpx.HTTPError:
                out[name] = -1
    return out


def wait_all_present(check: Callable[[], dict[str, int]], timeout_s: float) -> tuple[float | None, dict[str, int]]:
    """Poll until every node lacks nothing; (seconds it took or None, the last per-node count)."""
    start = time.monotonic()
    last: dict[str, int] = {}
    while time.monotonic() - start < timeout_s:
        last = check()
        if last and all(v == 0 for v in last.values()):
            return time.monotonic() - start, last
        time.sleep(2)
    return None, last


# ---- an ingest running during the fault -----------------------------------------------------------
@dataclass
class BackgroundIngest:
    """Batches sent one call each; a batch counts as acknowledged only when its call returned OK.
    A failed batch is retried (as a client reruns an idempotent ingest) until ``max_s``."""

    gateway: str
    docs: list[Doc]
    batch: int = 40
    max_s: float = 150.0
    acknowledged: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    started_at: float = 0.0
    finished_at: float = 0.0

    def __post_init__(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ingest", daemon=True)
        self._stop = threading.Event()

    def start(self) -> None:
        self.started_at = time.monotonic()
        self._thread.start()

    def _run(self) -> None:
        client = GatewayClient(self.gateway, timeout=30)
        pending = [self.docs[i:i + self.batch] for i in range(0, len(self.docs), self.batch)]
        while pending and not self._stop.is_set() and time.monotonic() - self.started_at < self.max_s:
            batch = pending[0]
            try:
                client.ingest(batch, batch_size=len(batch), timeout=30)
            except Exception as exc:  # UNAVAILABLE while a node is gone: retry this batch
                self.failures.append(f"{type(exc).__name__}: {str(exc)[:200]}")
                self._stop.wait(0.5)
                continue
            self.acknowledged += [d.id for d in batch]
            pending.pop(0)
        self.finished_at = time.monotonic()
        client.close()

    def join(self, timeout_s: float) -> None:
        self._thread.join(timeout_s)
        self._stop.set()
        self._thread.join(5)

    @property
    def done(self) -> bool:
        return len(self.acknowledged) == len(self.docs)
