"""``chsr.v1.RetrieverService``: the gRPC surface every retrieval leg shares.

A leg (:class:`services.retrieval.backend.RetrievalLeg`) says how a query is scored and
how a document is indexed; this class does the rest the same way for every leg:
validation, the circuit breaker, the index generation, id listing, document fetches.
Errors are raised (:mod:`chsr.errors`), never mapped here; write credentials are checked
by the server's interceptor.
"""

from __future__ import annotations

import logging
import time
from typing import Iterator, Sequence

import grpc
import numpy as np

from chsr.documents import validate_batch
from chsr.errors import InvalidArgument
from chsr.health_probe import start_probe
from chsr.limits import MAX_RETRIEVE_K, check_k
from chsr.metrics import INGESTED
from chsr.scope import Scope
from chsr.v1 import common_pb2, retriever_pb2, retriever_pb2_grpc
from services.retrieval.backend import BackendUnavailable, Hit, RetrievalLeg, StoredEntry
from services.retrieval.breaker import CircuitBreaker

log = logging.getLogger(__name__)
# Search responses carry the index generation; asking the engine for it on every query cost a
# second engine round trip per search. It is re-read at most this often, and at once after a
# write through this server.
GENERATION_TTL_S = 1.0


def hits_to_response(hits: Sequence[Hit], backend: str, generation: int, took_ms: float,
                     include_documents: bool, include_metadata: bool = False) -> retriever_pb2.RetrieveResponse:
    out = retriever_pb2.RetrieveResponse(backend=backend, generation=generation, took_ms=took_ms)
    for rank, hit in enumerate(hits, start=1):
        cand = out.candidates.add(doc_id=hit.doc_id, score=hit.score, rank=rank)
        if hit.doc is None:
            continue
        if include_documents or include_metadata:
            hit.doc.write_proto(cand.document, metadata_only=not include_documents)
    return out


class RetrieverServicer(retriever_pb2_grpc.RetrieverServiceServicer):
    def __init__(self, leg: RetrievalLeg, probe_interval_s: float = 5.0) -> None:
        self.leg = leg
        self.backend = leg.backend
        self._breaker = CircuitBreaker(leg.backend.name)
        self._generation = (0, -1.0)  # (value, monotonic time read); -1 = never read
        if probe_interval_s > 0:
            start_probe(self.backend.name, lambda: self.backend.count() >= 0, probe_interval_s)

    # ---- index generation ------------------------------------------------
    def _search_generation(self) -> int:
        """Re-read from the engine at most every ``GENERATION_TTL_S`` (writes reset it)."""
        value, read_at = self._generation
        now = time.monotonic()
        if read_at < 0 or now - read_at > GENERATION_TTL_S:
            value = self.backend.generation()
            self._generation = (value, now)
        return value

    def _forget_generation(self) -> None:
        self._generation = (0, -1.0)

    def _guarded(self, call):  # type: ignore[no-untyped-def]
        """Run an engine read behind the circuit breaker."""
        self._breaker.check()
        try:
            return call()
        except BackendUnavailable:
            self._breaker.trip()
            raise

    # ---- RPCs --------------------------------------------------------------
    def Retrieve(self, request: retriever_pb2.RetrieveRequest,
                 context: grpc.ServicerContext) -> retriever_pb2.RetrieveResponse:
        if not request.query.strip():
            raise InvalidArgument("query", "must not be empty")
        check_k(request.k, MAX_RETRIEVE_K)
        model = request.model or self.leg.models[0]
        if model not in self.leg.models:
            raise InvalidArgument("model", f"unknown '{request.model}' for {self.backend.name}; "
                                           f"valid: {', '.join(self.leg.models)}")
        flt = Scope.from_proto(request.filter)
        start = time.perf_counter()
        with_docs = request.include_documents or request.include_metadata or request.post_filter
        # the query's embedding: carried from an earlier call of the request, else made once here if asked for
        vector = self.leg.accept_vector(request.query_vector) if request.query_vector else None
        if vector is None and request.return_query_vector:
            vector = self.leg.embed(request.query)

        def search() -> tuple[list[Hit], int]:
            if request.post_filter:  # the filter needs each hit's metadata, so documents are fetched
                hits = [h for h in self.leg.search(request.query, Scope(), request.k, exact=request.exact,
                                                   with_docs=True, model=model, vector=vector)
                        if h.doc is not None and flt.admits(h.doc.metadata)]
            else:
                hits = self.leg.search(request.query, flt, request.k, exact=request.exact,
                                       with_docs=with_docs, model=model, vector=vector,
                                       metadata_only=request.include_metadata and not request.include_documents)
            return hits, self._search_generation()

        hits, generation = self._guarded(search)
        took = (time.perf_counter() - start) * 1000
        out = hits_to_response(hits, self.backend.name, generation, took, request.include_documents,
                               request.include_metadata)
        if request.return_query_vector and vector is not None:
            out.query_vector.extend(np.asarray(vector, dtype=np.float32).tolist())
        return out

    def Upsert(self, request: retriever_pb2.UpsertRequest,
               context: grpc.ServicerContext) -> retriever_pb2.UpsertResponse:
        docs = validate_batch(request.documents)
        try:
            result = self.leg.upsert(docs)
        finally:  # even a failed upsert may have written part of the batch
            self._forget_generation()
        INGESTED.labels(self.backend.name, "indexed").inc(result.indexed)
        INGESTED.labels(self.backend.name, "unchanged").inc(result.unchanged)
        INGESTED.labels(self.backend.name, "error").inc(len(result.errors))
        resp = retriever_pb2.UpsertResponse(indexed=result.indexed, unchanged=result.unchanged,
                                            generation=self.backend.generation())
        for err in result.errors:
            resp.errors.add(doc_id=err.doc_id, field=err.field, message=err.message)
        return resp

    def DeleteDocuments(self, request: retriever_pb2.DeleteDocumentsRequest,
                        context: grpc.ServicerContext) -> retriever_pb2.DeleteDocumentsResponse:
        deleted = self.backend.delete(list(request.doc_ids))
        self._forget_generation()
        return retriever_pb2.DeleteDocumentsResponse(deleted=deleted, generation=self.backend.generation())

    def Stats(self, request: retriever_pb2.StatsRequest, context: grpc.ServicerContext) -> retriever_pb2.StatsResponse:
        leg_details = getattr(self.leg, "details", None)
        details = dict(self.backend.details()) | {"models": ",".join(self.leg.models)} | \
            (dict(leg_details()) if callable(leg_details) else {})
        return retriever_pb2.StatsResponse(backend=self.backend.name, documents=self.backend.count(),
                                           generation=self.backend.generation(), details=details)

    def ListIds(self, request: retriever_pb2.ListIdsRequest,
                context: grpc.ServicerContext) -> Iterator[retriever_pb2.ListIdsResponse]:
        size = request.page_size if request.page_size > 0 else 1000
        page: list[StoredEntry] = []

        def out(entries: list[StoredEntry]) -> retriever_pb2.ListIdsResponse:
            resp = retriever_pb2.ListIdsResponse(doc_ids=[e.doc_id for e in entries])
            if request.include_details:
                resp.content_hashes.extend(e.content_hash for e in entries)
                resp.sources.extend(e.source for e in entries)
            return resp

        listing = (self.backend.entries(request.source) if request.source or request.include_details
                   else (StoredEntry(i, "") for i in self.backend.ids()))
        for entry in listing:
            page.append(entry)
            if len(page) >= size:
                yield out(page)
                page = []
        if page:
            yield out(page)

    def GetDocuments(self, request: retriever_pb2.GetDocumentsRequest,
                     context: grpc.ServicerContext) -> retriever_pb2.GetDocumentsResponse:
        """Stored documents by id, in request order; unknown ids are left out. The gateway
        hydrates the fused top with this after searching for ids and scores only."""
        if len(request.doc_ids) > MAX_RETRIEVE_K:
            raise InvalidArgument("doc_ids", f"at most {MAX_RETRIEVE_K} per call, got {len(request.doc_ids)}")
        if not request.doc_ids:
            return retriever_pb2.GetDocumentsResponse()
        docs = self._guarded(lambda: self.backend.get(list(request.doc_ids)))
        return retriever_pb2.GetDocumentsResponse(documents=[d.to_proto() for d in docs])


def register_retriever(server: grpc.Server, servicer: RetrieverServicer) -> str:
    retriever_pb2_grpc.add_RetrieverServiceServicer_to_server(servicer, server)
    return retriever_pb2.DESCRIPTOR.services_by_name["RetrieverService"].full_name
