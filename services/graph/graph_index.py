"""The knowledge graph's query-time math: IDF-weighted entity activation, 1-hop spreading over the
entity graph, Louvain communities as the fallback for weakly connected query entities (seed 003 #14).

Built from each document's :class:`services.graph.extract.Extraction`:

* ``incidence`` (documents x entities): 1 where a document mentions an entity, each row divided by
  the square root of its entity count (ours: a long document must not win by naming everything);
* ``adjacency`` (entities x entities, symmetric): how often two entities are linked (a relation or a
  co-mention in one sentence), row-normalised for spreading.

Query: ``a0[e] = idf(e) = ln(1 + N / df(e))`` for each entity the query names (seed 003: "IDF
weighting of entity activations appears critical: without it, graph traversal would be dominated by
high-frequency terms"); 1-hop: ``a1 = a0 + HOP_DECAY * (A_norm^T a0)``; a query entity with fewer than
``MIN_DEGREE`` neighbours also activates the other members of its Louvain community (Blondel et al.
2008, networkx's implementation, seed 42) with ``COMMUNITY_DECAY * a0[e] / sqrt(|C|)``, at most
``COMMUNITY_MAX`` members by document frequency; document scores ``= incidence @ a1``.
The decays are ours (the seed names the mechanism, not values).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy import sparse

from services.graph.extract import Extraction

log = logging.getLogger(__name__)
HOP_DECAY = 0.5
COMMUNITY_DECAY = 0.25
MIN_DEGREE = 2
COMMUNITY_MAX = 50
LOUVAIN_SEED = 42


def idf(df: np.ndarray, n_docs: int) -> np.ndarray:
    """``ln(1 + N / df)``: positive for every entity, largest for the rarest."""
    return np.log1p(n_docs / np.maximum(df, 1.0))


def row_normalise(m: sparse.csr_matrix) -> sparse.csr_matrix:
    sums = np.asarray(m.sum(axis=1)).ravel()
    sums[sums == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / sums) @ m)


def louvain(adjacency: sparse.csr_matrix, nodes: np.ndarray, seed: int = LOUVAIN_SEED) -> np.ndarray:
    """Community id per entity (-1 for entities outside ``nodes``): Louvain on the subgraph of ``nodes``."""
    import networkx as nx

    community = np.full(adjacency.shape[0], -1, dtype=np.int64)
    if nodes.size == 0:
        return community
    sub = adjacency[nodes][:, nodes].tocoo()
    g = nx.Graph()
    g.add_nodes_from(range(nodes.size))
    g.add_weighted_edges_from((int(a), int(b), float(w)) for a, b, w in zip(sub.row, sub.col, sub.data) if a < b)
    for cid, members in enumerate(nx.community.louvain_communities(g, weight="weight", seed=seed)):
        community[nodes[list(members)]] = cid
    return community


@dataclass
class GraphIndex:
    entities: dict[str, int]
    df: np.ndarray
    incidence: sparse.csr_matrix
    adjacency: sparse.csr_matrix
    relations: int = 0
    build_seconds: float = 0.0
    _community: np.ndarray | None = field(default=None, repr=False)
    _spread: sparse.csr_matrix | None = field(default=None, repr=False)
    louvain_seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def build(cls, extractions: Sequence[Extraction]) -> "GraphIndex":
        started = time.perf_counter()
        entities: dict[str, int] = {}
        rows, cols = [], []
        for i, ex in enumerate(extractions):
            for key in ex.entities:
                rows.append(i)
                cols.append(entities.setdefault(key, len(entities)))
        n, m = len(extractions), len(entities)
        inc = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, m))
        df = np.asarray(inc.sum(axis=0)).ravel()
        per_doc = np.sqrt(np.maximum(np.asarray(inc.sum(axis=1)).ravel(), 1.0))
        inc = sparse.csr_matrix(sparse.diags(1.0 / per_doc) @ inc, dtype=np.float32)
        a, b = [], []
        n_rel = 0
        for ex in extractions:
            for s, pred, o in ex.relations:
                if s in entities and o in entities:
                    a.append(entities[s])
                    b.append(entities[o])
                    n_rel += bool(pred)
        adj = sparse.csr_matrix((np.ones(2 * len(a)), (a + b, b + a)), shape=(m, m))
        adj.setdiag(0)
        adj.eliminate_zeros()
        return cls(entities, df, inc, adj, n_rel, time.perf_counter() - started)

    @property
    def n_docs(self) -> int:
        return int(self.incidence.shape[0])

    @property
    def n_edges(self) -> int:
        return int(self.adjacency.nnz // 2)

    def degree(self) -> np.ndarray:
        return np.diff(self.adjacency.indptr)

    def communities(self) -> np.ndarray:
        """Louvain communities of the entities seen in >= 2 documents (computed once, on first need)."""
        with self._lock:  # concurrent first queries compute it once
            if self._community is None:
                started = time.perf_counter()
                self._community = louvain(self.adjacency, np.flatnonzero(self.df >= 2))
                self.louvain_seconds = time.perf_counter() - started
                log.info("louvain communities", extra={"entities": len(self.entities),
                                                        "communities": int(self._community.max() + 1),
                                                        "seconds": round(self.louvain_seconds, 2)})
        return self._community

    def activation(self, query_keys: Sequence[str]) -> np.ndarray:
        """Entity activation after IDF seeding, one hop and the community fallback."""
        a0 = np.zeros(len(self.entities))
        ids = [self.entities[k] for k in query_keys if k in self.entities]
        if not ids:
            return a0
        a0[ids] = idf(self.df[ids], self.n_docs)
        if self._spread is None:
            self._spread = sparse.csr_matrix(row_normalise(self.adjacency).T)
        a1 = a0 + HOP_DECAY * (self._spread @ a0)
        degree = self.degree()
        weak = [e for e in ids if degree[e] < MIN_DEGREE]
        if weak:
            community = self.communities()
            for e in weak:
                if community[e] < 0:
                    continue
                members = np.flatnonzero(community == community[e])
                members = members[np.argsort(-self.df[members], kind="stable")][:COMMUNITY_MAX]
                a1[members] += COMMUNITY_DECAY * a0[e] / np.sqrt(members.size)
        return a1

    def scores(self, query_keys: Sequence[str]) -> np.ndarray:
        a = self.activation(query_keys)
        if not a.any():
            return np.zeros(self.n_docs, np.float32)
        return np.asarray(self.incidence @ a.astype(np.float32)).ravel()
