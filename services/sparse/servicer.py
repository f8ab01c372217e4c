"""SparseService: BM25 search over the configured backend."""

from __future__ import annotations

import grpc

from chsr.docs import Doc
from chsr.retriever_servicer import RetrieverServicer
from chsr.retrieval import Hit, SparseBackend, UpsertResult
from chsr.scope import Scope
from chsr.v1 import common_pb2, sparse_pb2_grpc


class SparseServicer(RetrieverServicer, sparse_pb2_grpc.SparseServiceServicer):
    backend: SparseBackend

    def _search(self, query: str, flt: Scope, k: int, exact: bool, with_docs: bool = True) -> list[Hit]:
        return self.backend.search(query, flt, k, with_docs=with_docs)

    def _upsert(self, docs: list[Doc]) -> UpsertResult:
        return self.backend.upsert(docs)
