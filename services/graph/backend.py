"""The graph server's backend: a :class:`GraphStore` and the in-memory :class:`GraphIndex` built from it.

The same backend serves the embedded and the engines mesh (no graph engine is part of the
engines stack): in Kubernetes its data dir is a volume. Like the embedded BM25 index, the graph
is rebuilt from the store on the first search after the generation moved.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Sequence

from chsr.documents import Doc
from chsr.errors import FailedPrecondition
from chsr.scope import Scope
from services.graph.extract import query_entities
from services.graph.graph_index import GraphIndex
from services.graph.store import GraphStore
from services.retrieval.backend import Hit, UpsertResult
from services.retrieval.columns import MetadataColumns
from services.retrieval.docstore import DocStoreBacked
from services.retrieval.topk import masked_top_k

log = logging.getLogger(__name__)


class GraphBackend(DocStoreBacked):
    name = "embedded-graph"

    def __init__(self, data_dir: Path) -> None:
        self.graph_store = GraphStore(data_dir / "graph")
        self._store = self.graph_store.docs
        self._lock = threading.RLock()
        self._built_generation = -1
        self._docs: list[Doc] = []
        self._columns = MetadataColumns([])
        self._graph: GraphIndex | None = None
        self.load_seconds = 0.0

    def _rebuild(self, docs: list[Doc]) -> None:
        started = time.perf_counter()
        extractions = self.graph_store.extractions(docs)
        graph = GraphIndex.build(extractions) if docs else None
        self._docs, self._graph = docs, graph
        self._columns = MetadataColumns([d.metadata for d in docs])
        self.load_seconds = time.perf_counter() - started
        if graph is not None:
            log.info("graph built", extra={"documents": len(docs), "entities": len(graph.entities),
                                           "edges": graph.n_edges, "seconds": round(self.load_seconds, 2)})

    def upsert(self, docs: Sequence[Doc]) -> UpsertResult:
        known = self._store.hashes([d.id for d in docs])
        changed = [d for d in docs if known.get(d.id) != d.content_hash()]
        self.graph_store.put(changed)
        return UpsertResult(indexed=len(changed), unchanged=len(docs) - len(changed))

    def delete(self, ids: Sequence[str]) -> int:
        return self.graph_store.delete(ids)

    def graph(self) -> tuple[GraphIndex, list[Doc], MetadataColumns]:
        """The current graph, or FAILED_PRECONDITION when this index was built without one."""
        self._ensure_index()
        with self._lock:
            graph, docs, columns = self._graph, self._docs, self._columns
        if graph is None:
            raise FailedPrecondition(
                "model 'kg': the graph index holds no documents -- the corpus was ingested without the graph "
                "leg; re-run `chsr ingest` with CHSR_LEGS including graph (unchanged documents cost nothing "
                "in the other servers)")
        return graph, docs, columns

    def search(self, query: str, flt: Scope, k: int) -> list[Hit]:
        graph, docs, columns = self.graph()
        return masked_top_k(graph.scores(query_entities(query, graph.entities)), docs, columns, flt, k)

    def details(self) -> dict[str, str]:
        graph = self._graph
        out = {"store": "sqlite", "extractor": "heuristic (services/graph/extract.py)"}
        if graph is not None:
            out |= {"entities": str(len(graph.entities)), "edges": str(graph.n_edges),
                    "relations": str(graph.relations), "load_s": f"{self.load_seconds:.2f}",
                    "louvain_s": f"{graph.louvain_seconds:.2f}"}
        return out

    def close(self) -> None:
        self.graph_store.close()
