"""Weaviate on a cluster: replication factor, consistency levels and the node endpoints.

Why it looks like this (docs/SCALING.md, "Weaviate"):

* **Replication factor.** ``CHSR_WEAVIATE_REPLICATION_FACTOR=auto`` (the default) is
  ``min(3, nodes)`` when the collection is created: one copy on a single dev node, three on a
  3-node cluster. The factor is fixed at creation (Weaviate changes it only by an explicit
  collection update), so "nodes" counts every node the cluster knows, down or not: a node that
  is down at start-up never shrinks the factor silently. A factor above the node count stops the
  server at start-up (:class:`~chsr.errors.FailedPrecondition`; Weaviate itself would answer
  "could not find enough weaviate nodes for replication" at creation only). With more than one
  copy, async replication is on, so a node that missed writes while it was down is repaired
  (hash-tree anti-entropy) after it rejoins; deletes resolve by time.
* **Consistency.** Writes ``QUORUM`` (default): an acknowledged object is on a majority of its
  replicas, so with factor 3 a node can die without losing an acknowledged write, and writes go on
  with one node down. Reads ``ONE`` (default): a query is answered by one replica (the cheapest
  read; QUORUM would ask two and merge). ONE + QUORUM does not overlap (1 + 2 = 3 replicas), so a
  read can miss an object on a replica that was down when it was written until async replication
  repairs it; for ranked retrieval that window is acceptable, for read-your-writes set
  ``CHSR_WEAVIATE_READ_CONSISTENCY=QUORUM``. The generation counter is read at the write level
  before it is bumped, so it never goes backwards.
* **Endpoints.** ``CHSR_WEAVIATE_HTTP`` / ``CHSR_WEAVIATE_GRPC`` may list several nodes (same order
  in both); a call that finds its node unreachable is retried once on the next one, so losing the
  node the service talks to costs one failed attempt, not the dense leg.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from chsr.config import Consistency, Settings

AUTO_MAX_FACTOR = 3


def resolve_factor(configured: int | Literal["auto"], nodes: int) -> int:
    """The replication factor a new collection gets on a cluster of ``nodes`` nodes."""
    return max(1, min(AUTO_MAX_FACTOR, nodes)) if configured == "auto" else configured


def needed(level: Consistency, factor: int) -> int:
    """Replicas that must answer at ``level``: 1, a majority, or all of ``factor``."""
    return {Consistency.ONE: 1, Consistency.QUORUM: factor // 2 + 1, Consistency.ALL: factor}[level]


def endpoints(http: str, grpc: str) -> list[tuple[str, str]]:
    """Pair ``host:port`` lists of the REST and gRPC addresses (``a:8080,b:8080`` / ``a:50051,b:50051``)."""
    https = [a.strip() for a in http.split(",") if a.strip()]
    grpcs = [a.strip() for a in grpc.split(",") if a.strip()]
    if len(https) != len(grpcs) or not https:
        raise ValueError(f"CHSR_WEAVIATE_HTTP lists {len(https)} nodes and CHSR_WEAVIATE_GRPC {len(grpcs)}: "
                         "give one gRPC address per REST address, in the same order")
    return list(zip(https, grpcs))


@dataclass(frozen=True)
class Replication:
    """The replication factor and the two consistency levels of one collection."""

    factor: int | Literal["auto"] = "auto"
    write: Consistency = Consistency.QUORUM
    read: Consistency = Consistency.ONE

    @classmethod
    def from_settings(cls, settings: Settings) -> "Replication":
        return cls(settings.weaviate_replication_factor, settings.weaviate_write_consistency,
                   settings.weaviate_read_consistency)

    def problems(self, factor: int, known_nodes: int) -> list[str]:
        """Why a collection with ``factor`` copies cannot work on ``known_nodes`` nodes (empty when it can)."""
        if factor > known_nodes:
            return [f"replication factor {factor} (CHSR_WEAVIATE_REPLICATION_FACTOR={self.factor}) is above the "
                    f"cluster's {known_nodes} node{'s' if known_nodes != 1 else ''}"]
        return []

    def shortfall(self, factor: int, healthy: int) -> str:
        """A warning when fewer replicas are up than a write or a read needs (empty when enough are)."""
        for what, level in (("writes", self.write), ("reads", self.read)):
            if needed(level, factor) > healthy:
                return (f"{what} at {level.value} need {needed(level, factor)} of {factor} replicas; "
                        f"{healthy} node{'s are' if healthy != 1 else ' is'} healthy")
        if healthy < factor:
            return f"{healthy} of {factor} replicas up: writes at {self.write.value} continue, the missing copy is repaired on rejoin"
        return ""
