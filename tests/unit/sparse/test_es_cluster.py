"""Elasticsearch index layout: copies that fit the node count, the write quorum, bad layouts named."""

from __future__ import annotations

import pytest

from chsr.config import Settings, TranslogDurability
from services.sparse.backends.es_cluster import IndexLayout, allocation_reason, copies_acknowledged, majority

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("copies,need", [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_majority(copies: int, need: int) -> None:
    assert majority(copies) == need


@pytest.mark.parametrize("nodes,copies,need", [(1, 1, 1), (2, 2, 2), (3, 3, 2), (5, 3, 2)])
def test_auto_is_one_copy_per_node_up_to_three_and_a_majority_must_ack(nodes: int, copies: int, need: int) -> None:
    layout = IndexLayout()
    assert layout.expected_copies(nodes) == copies and layout.required_copies(nodes) == need
    assert layout.problems(nodes, nodes) == []
    assert layout.index_settings()["auto_expand_replicas"] == "0-2"


def test_a_node_down_keeps_writes_on_a_majority_never_a_single_copy() -> None:
    layout = IndexLayout()  # 3-node cluster, one node down: auto-expand shrinks to 2 copies, both must ack
    assert layout.required_copies(2) == 2 and layout.problems(2, 3) == []
    fixed = IndexLayout(replicas=2)
    assert fixed.required_copies(2) == 2 and fixed.problems(2, 3) == [] and "unassigned" in fixed.shortfall(2)


def test_replicas_above_the_node_count_and_impossible_quorums_are_named() -> None:
    (msg,) = IndexLayout(replicas=3).problems(3, 3)
    assert "CHSR_ES_REPLICAS=3" in msg and "3 nodes" in msg
    (msg,) = IndexLayout(replicas=0, wait_for_active_shards=2).problems(3, 3)
    assert "CHSR_ES_WAIT_FOR_ACTIVE_SHARDS=2" in msg
    assert any("only 1 data node is up" in m for m in IndexLayout(replicas=2, wait_for_active_shards="all").problems(1, 3))


def test_fixed_replicas_and_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHSR_ES_REPLICAS", "1")
    monkeypatch.setenv("CHSR_ES_SHARDS", "4")
    monkeypatch.setenv("CHSR_ES_TRANSLOG_DURABILITY", "async")
    monkeypatch.setenv("CHSR_ES_REFRESH_INTERVAL", "30s")
    layout = IndexLayout.from_settings(Settings())
    assert layout.index_settings() == {"number_of_shards": 4, "refresh_interval": "30s",
                                       "translog": {"durability": "async"}, "auto_expand_replicas": "false",
                                       "number_of_replicas": 1}
    assert layout.durability is TranslogDurability.ASYNC and layout.required_copies(3) == 2


def test_acknowledged_copies_and_allocation_reasons() -> None:
    assert copies_acknowledged({"_shards": {"total": 3, "successful": 2, "failed": 0}}) == 2
    assert copies_acknowledged({}) == 0
    explain = {"allocate_explanation": "cannot allocate because allocation is not permitted to any of the nodes",
               "node_allocation_decisions": [{"node_name": "es-1", "deciders": [
                   {"decider": "filter", "explanation": "node does not match index setting [include._name]"}]}]}
    assert "not permitted" in allocation_reason(explain) and "es-1: node does not match" in allocation_reason(explain)
