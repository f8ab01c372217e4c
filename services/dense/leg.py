"""The dense leg: MiniLM query vectors against the configured vector backend.

Queries are encoded through an optional micro-batcher (concurrent searches share one
forward pass) and an optional LRU of query vectors. The backend's stored passage mode
decides how documents are vectorised: one vector each, or one per passage (MaxP).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from chsr.config import PassageMode
from chsr.documents import Doc
from chsr.errors import InvalidArgument
from chsr.metrics import QUERY_VECTORS
from chsr.scope import Scope
from services.dense.batcher import MicroBatcher
from services.dense.encoder import Encoder
from services.dense.query_cache import QueryVectorCache
from services.retrieval.backend import DenseBackend, Hit, UpsertResult

#: Longest a search waits for its query vector from the micro-batcher.
ENCODE_WAIT_S = 30.0
EncodeQueries = Callable[[Sequence[str]], np.ndarray]


class DenseLeg:
    models: tuple[str, ...] = ("minilm",)

    def __init__(self, backend: DenseBackend, encoder: Encoder, *, microbatch: bool = True,
                 query_cache_size: int = 0, encode_queries: EncodeQueries | None = None,
                 query_encoder_name: str = "torch") -> None:
        self.backend = backend
        self.query_encoder_name = query_encoder_name
        self.encoder = encoder
        self.encode_queries: EncodeQueries = encode_queries or encoder.encode_queries
        self.batcher = MicroBatcher(self.encode_queries) if microbatch else None
        self.query_cache = QueryVectorCache(query_cache_size)

    def details(self) -> dict[str, str]:
        """What ``Stats`` reports about the leg itself (the backend reports its storage)."""
        return {"query_encoder": self.query_encoder_name, "query_vector_cache": str(self.query_cache.max_entries)}

    def encode_query(self, query: str) -> np.ndarray:
        cached = self.query_cache.get(query)
        if cached is not None:
            QUERY_VECTORS.labels("cached").inc()
            return cached
        QUERY_VECTORS.labels("encoded").inc()
        if self.batcher is not None:
            vector = self.batcher.encode(query, timeout=ENCODE_WAIT_S)
        else:
            vector = self.encode_queries([query])[0]
        self.query_cache.put(query, vector)
        return vector

    def search(self, query: str, flt: Scope, k: int, *, exact: bool, with_docs: bool, model: str,
               vector: Sequence[float] | None = None, metadata_only: bool = False) -> list[Hit]:
        return self.backend.search(self.encode_query(query) if vector is None else vector, flt, k,
                                   exact=exact, with_docs=with_docs, metadata_only=metadata_only)

    def embed(self, query: str) -> np.ndarray:
        return self.encode_query(query)

    def accept_vector(self, vector: Sequence[float]) -> np.ndarray:
        """A vector the request carries (an earlier call's ``embed``): checked against this encoder."""
        if len(vector) != self.encoder.dim:
            raise InvalidArgument("query_vector", f"has {len(vector)} dimensions; this leg's encoder makes {self.encoder.dim}")
        QUERY_VECTORS.labels("carried").inc()
        return np.asarray(vector, dtype=np.float32)

    def upsert(self, docs: list[Doc]) -> UpsertResult:
        if self.backend.passage_mode is PassageMode.MAXP:
            blocks, _computed = self.encoder.encode_passages(docs)
            return self.backend.upsert(docs, blocks)
        vectors, _computed = self.encoder.encode_documents([d.full_text for d in docs])
        return self.backend.upsert(docs, vectors)
