"""How the Elasticsearch index is laid out on a cluster, and when a write counts as durable.

Why it looks like this (docs/SCALING.md, "Elasticsearch"):

* **Copies fit the node count.** ``CHSR_ES_REPLICAS=auto`` (the default) is ES's own
  ``index.auto_expand_replicas: 0-2``: one copy per data node, at most three. A single dev node
  gets one copy (health green, nothing unassignable); a 3-node cluster keeps a copy on every node,
  and a node that leaves and rejoins gets its copy back without an operator. A fixed number
  (``CHSR_ES_REPLICAS=1``) is ``number_of_replicas``.
* **Acknowledged = durable.** With ``index.translog.durability: request`` (the default) a bulk
  item is acknowledged only after its translog entry is fsynced on the primary and on every
  in-sync replica that took it. ``wait_for_active_shards`` makes the write wait until that many
  copies are active before it starts, and the response's ``_shards.successful`` says how many
  copies really took it. ``CHSR_ES_WAIT_FOR_ACTIVE_SHARDS=auto`` requires a majority of the
  expected copies (1 of 1, 2 of 2, 2 of 3): a 3-node cluster keeps accepting writes with a node
  down, and no acknowledgement ever rests on a single copy when more than one was asked for.
  A write that reached fewer copies is reported as a failed batch (UNAVAILABLE: retry), never as
  an acknowledged one.
* **Bad layouts fail at start-up, not at the first query.** More required copies than data
  nodes, or shards that cannot be allocated (the allocation-explain reason is quoted), raise
  :class:`~chsr.errors.FailedPrecondition` from the server's start-up check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from chsr.config import Settings, TranslogDurability

#: Copies ``auto`` expands to at most (a primary and two replicas).
AUTO_MAX_COPIES = 3
AUTO_EXPAND = f"0-{AUTO_MAX_COPIES - 1}"


def majority(copies: int) -> int:
    """The smallest majority of ``copies``: 1 of 1, 2 of 2, 2 of 3, 3 of 4."""
    return copies // 2 + 1


@dataclass(frozen=True)
class IndexLayout:
    """Shards, replicas, refresh interval, translog durability and the write quorum of one index."""

    shards: int = 1
    replicas: int | Literal["auto"] = "auto"
    refresh_interval: str = "1s"
    wait_for_active_shards: int | Literal["auto", "all"] = "auto"
    durability: TranslogDurability = TranslogDurability.REQUEST

    @classmethod
    def from_settings(cls, settings: Settings) -> "IndexLayout":
        return cls(settings.es_shards, settings.es_replicas, settings.es_refresh_interval,
                   settings.es_wait_for_active_shards, settings.es_translog_durability)

    def index_settings(self) -> dict[str, Any]:
        """``settings`` of a new index (and of the template that declares it)."""
        out: dict[str, Any] = {"number_of_shards": self.shards, **self.dynamic_settings()}
        return out

    def dynamic_settings(self) -> dict[str, Any]:
        """The settings an existing index can change in place (a start-up converges them)."""
        out: dict[str, Any] = {"refresh_interval": self.refresh_interval,
                               "translog": {"durability": self.durability.value}}
        if self.replicas == "auto":
            out["auto_expand_replicas"] = AUTO_EXPAND
        else:
            out["auto_expand_replicas"] = "false"
            out["number_of_replicas"] = self.replicas
        return out

    def expected_copies(self, data_nodes: int) -> int:
        """Copies of each shard the index should have with ``data_nodes`` data nodes up."""
        if self.replicas == "auto":
            return max(1, min(AUTO_MAX_COPIES, data_nodes))
        return self.replicas + 1

    def required_copies(self, data_nodes: int) -> int:
        """Copies a write must reach before it is acknowledged."""
        copies = self.expected_copies(data_nodes)
        if self.wait_for_active_shards == "auto":
            return majority(copies)
        if self.wait_for_active_shards == "all":
            return copies
        return self.wait_for_active_shards

    def problems(self, data_nodes: int, known_nodes: int) -> list[str]:
        """Why this layout cannot work on the cluster (empty when it can). ``known_nodes`` counts the
        nodes the cluster was formed with (its voting configuration), so a node that is down now
        still counts: its copy waits for it, while a copy no node could ever hold is an error."""
        out = []
        copies = self.expected_copies(data_nodes)
        need = self.required_copies(data_nodes)
        if need > copies:
            out.append(f"CHSR_ES_WAIT_FOR_ACTIVE_SHARDS={self.wait_for_active_shards} asks for {need} copies "
                       f"but the index has {copies} (CHSR_ES_REPLICAS={self.replicas})")
        if copies > max(known_nodes, data_nodes):
            out.append(f"CHSR_ES_REPLICAS={self.replicas} means {copies} copies of each shard but the cluster has "
                       f"{max(known_nodes, data_nodes)} nodes (two copies never share a node)")
        if need > data_nodes:
            out.append(f"a write needs {need} active copies (CHSR_ES_REPLICAS={self.replicas}, "
                       f"CHSR_ES_WAIT_FOR_ACTIVE_SHARDS={self.wait_for_active_shards}) but only {data_nodes} "
                       f"data node{'s are' if data_nodes != 1 else ' is'} up")
        return out

    def shortfall(self, data_nodes: int) -> str:
        """A warning when fewer copies than configured can be allocated now (a node is down)."""
        copies = self.expected_copies(data_nodes)
        if copies > data_nodes:
            return (f"{copies} copies configured, {data_nodes} data nodes up: {copies - data_nodes} copy per shard "
                    f"unassigned until a node rejoins; writes still need {self.required_copies(data_nodes)} copies")
        return ""

    def describe(self, data_nodes: int) -> dict[str, str]:
        return {"shards": str(self.shards), "replicas": str(self.replicas),
                "copies": str(self.expected_copies(data_nodes)),
                "write_copies": str(self.required_copies(data_nodes)),
                "refresh_interval": self.refresh_interval, "translog": self.durability.value}


def copies_acknowledged(item: dict[str, Any]) -> int:
    """How many shard copies acknowledged one bulk item (its ``_shards.successful``)."""
    return int(item.get("_shards", {}).get("successful", 0))


def allocation_reason(explain: dict[str, Any]) -> str:
    """The first human-readable reason from ``_cluster/allocation/explain``."""
    parts = [explain.get("allocate_explanation") or explain.get("unassigned_info", {}).get("reason", "")]
    for node in explain.get("node_allocation_decisions", [])[:3]:
        for decider in node.get("deciders", [])[:1]:
            parts.append(f"{node.get('node_name')}: {decider.get('explanation')}")
    return "; ".join(p for p in parts if p)[:600]
