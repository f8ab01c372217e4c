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
