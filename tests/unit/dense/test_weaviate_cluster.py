"""Weaviate replication: factor from the node count, consistency levels, endpoint lists."""

from __future__ import annotations

import pytest

from chsr.config import Consistency, Settings
from services.dense.backends.weaviate_cluster import Replication, endpoints, needed, resolve_factor

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("nodes,factor", [(1, 1), (2, 2), (3, 3), (7, 3)])
def test_auto_factor_is_min_three_nodes(nodes: int, factor: int) -> None:
    assert resolve_factor("auto", nodes) == factor
    assert resolve_factor(2, nodes) == 2


@pytest.mark.parametrize("level,factor,n", [(Consistency.ONE, 3, 1), (Consistency.QUORUM, 3, 2),
                                            (Consistency.QUORUM, 1, 1), (Consistency.ALL, 3, 3)])
def test_replicas_needed(level: Consistency, factor: int, n: int) -> None:
    assert needed(level, factor) == n


def test_defaults_write_quorum_read_one_and_bad_layouts() -> None:
    rep = Replication.from_settings(Settings())
    assert rep.factor == "auto" and rep.write is Consistency.QUORUM and rep.read is Consistency.ONE
    assert rep.problems(3, 3) == [] and "above the cluster's 1 node" in Replication(factor=3).problems(3, 1)[0]
    assert rep.shortfall(3, 3) == ""
    assert "writes at QUORUM continue" in rep.shortfall(3, 2)                  # one of three down: degraded, writable
    assert "writes at QUORUM need 2 of 3" in rep.shortfall(3, 1)     # two down: writes cannot be acknowledged


def test_endpoint_lists_pair_up() -> None:
    assert endpoints("a:1,b:1", "a:2, b:2") == [("a:1", "a:2"), ("b:1", "b:2")]
    assert endpoints("a:1", "a:2") == [("a:1", "a:2")]
    with pytest.raises(ValueError, match="one gRPC address per REST address"):
        endpoints("a:1,b:1", "a:2")


def test_failover_tries_each_node_once_while_many_calls_fail_together() -> None:
    """A burst of calls failing on one dead node at once (a node killed under load) each walk on to the next
    node and answer: the shared pointer moves off the dead node once, not once per call. Before, every failing
    call advanced it, so a burst of three (the node count) cycled it back onto the dead node and a call could spend
    its attempts there (tests/faults/test_node_faults.py saw 4 of 151 requests fail fast, 1 run in 6)."""
    import threading

    from services.retrieval.backend import BackendUnavailable
    from services.dense.backends.weaviate import WeaviateDenseBackend

    backend = WeaviateDenseBackend("127.0.0.1:1,127.0.0.1:2,127.0.0.1:3", "127.0.0.1:4,127.0.0.1:5,127.0.0.1:6",
                                   "Unused", 4)
    calls = 9
    together = threading.Barrier(calls, timeout=10)
    tried: dict[int, list[int]] = {}
    results: dict[int, int] = {}

    def query(me: int) -> int:
        node = backend._clients.index(backend._client)  # the node this attempt talks to
        tried.setdefault(me, []).append(node)
        if node == 0:
            if len(tried[me]) == 1:
                together.wait()  # every call has failed on the dead node before any moves on
            raise BackendUnavailable("node 1 down")
        return node

    def call(me: int) -> None:
        results[me] = backend._failover(lambda: query(me))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert sorted(results) == list(range(calls)), f"calls that failed: {sorted(set(range(calls)) - set(results))}"
    assert all(nodes.count(0) == 1 for nodes in tried.values()), tried
    assert backend._current == 1 and all(answer == 1 for answer in results.values())
    backend.close()
