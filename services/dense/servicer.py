"""DenseService: encode with MiniLM, search the configured vector backend."""

from __future__ import annotations

import grpc
import numpy as np

from chsr.docs import Doc
from chsr.retriever_servicer import RetrieverServicer
from chsr.retrieval import Hit, UpsertResult
from chsr.scope import Scope
from chsr.v1 import dense_pb2, dense_pb2_grpc
from services.dense.batcher import MicroBatcher
from services.dense.encoder import Encoder
from services.dense.passages import PassageMode
from services.dense.query_cache import QueryVectorCache

MAX_ENCODE_TEXTS = 256


class DenseServicer(RetrieverServicer, dense_pb2_grpc.DenseServiceServicer):
    def __init__(self, backend, encoder: Encoder, microbatch: bool = True,  # type: ignore[no-untyped-def]
                 query_cache_size: int = 0, encode_queries=None) -> None:  # type: ignore[no-untyped-def]
        super().__init__(backend)
        self.encoder = encoder
        self._encode_queries = encode_queries or encoder.encode_queries
        self.batcher = MicroBatcher(self._encode_queries) if microbatch else None
        self.query_cache = QueryVectorCache(query_cache_size)

    def _encode_query(self, query: str) -> np.ndarray:
        cached = self.query_cache.get(query)
        if cached is not None:
            return cached
        if self.batcher is not None:
            vector = self.batcher.encode(query, timeout=30)
        else:
            vector = self._encode_queries([query])[0]
        self.query_cache.put(query, vector)
        return vector

    def _search(self, query: str, flt: Scope, k: int, exact: bool, with_docs: bool = True) -> list[Hit]:
        return self.backend.search(self._encode_query(query), flt, k, exact=exact, with_docs=with_docs)

    def _upsert(self, docs: list[Doc]) -> UpsertResult:
        """The backend's stored passage mode decides how documents are vectorised (issue 4)."""
        if getattr(self.backend, "passage_mode", PassageMode.OFF) is PassageMode.MAXP:
            blocks, _computed = self.encoder.encode_passages(docs)
            return self.backend.upsert(docs, blocks)
        vectors, _computed = self.encoder.encode_documents([d.full_text for d in docs])
        return self.backend.upsert(docs, vectors)

    def Encode(self, request: dense_pb2.EncodeRequest, context: grpc.ServicerContext) -> dense_pb2.EncodeResponse:
        if not request.texts:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "texts: must not be empty")
        if len(request.texts) > MAX_ENCODE_TEXTS:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"texts: at most {MAX_ENCODE_TEXTS} per call")
        if request.is_query:
            vecs = self.encoder.encode_queries(list(request.texts))
        else:
            vecs, _ = self.encoder.encode_documents(list(request.texts))
        resp = dense_pb2.EncodeResponse(model=self.encoder.model_id)
        for v in vecs:
            resp.vectors.add(values=v.tolist())
        return resp
