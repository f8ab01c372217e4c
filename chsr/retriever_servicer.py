"""The gRPC surface shared by the sparse and dense services.

Both expose Search/Upsert/Delete/Stats/ListIds with the same messages
(common.proto); only how a query is scored and how a document is indexed
differ, so subclasses implement :meth:`_search` and :meth:`_upsert`.
"""

from __future__ import annotations

import logging
import time
from typing import Iterator, Sequence

import grpc

from chsr.health_probe import start_probe
from chsr.docs import Doc, DocumentError, validate_doc
from chsr.metrics import BACKEND_ERRORS, INGESTED
from chsr.retrieval import BackendUnavailable, Hit, RetrievalBackend, UpsertResult
from chsr.scope import Scope
from chsr.v1 import common_pb2

log = logging.getLogger(__name__)
# After an engine error, searches fail fast for this long instead of each waiting out the engine's
# timeout (a down Weaviate otherwise costs every request its whole retrieval budget; issue 7).
BREAKER_OPEN_S = 0.5
MAX_K = 10_000  # deep lists are used offline (CDF calibration); the gateway caps user k
# Search responses carry the index generation; asking the engine for it on every query cost a
# second engine round trip per search. It is re-read at most this often, and at once after a
# write through this server.
GENERATION_TTL_S = 1.0


def hits_to_response(hits: Sequence[Hit], backend: str, generation: int, took_ms: float,
                     include_documents: bool) -> common_pb2.RetrieveResponse:
    out = common_pb2.RetrieveResponse(backend=backend, generation=generation, took_ms=took_ms)
    for rank, hit in enumerate(hits, start=1):
        cand = out.candidates.add(doc_id=hit.doc_id, score=hit.score, rank=rank)
        if include_documents and hit.doc is not None:
            cand.document.CopyFrom(hit.doc.to_proto())
    return out


class RetrieverServicer:
    backend: RetrievalBackend

    def __init__(self, backend: RetrievalBackend, probe_interval_s: float = 5.0) -> None:
        self.backend = backend
        self._open_until = 0.0  # circuit breaker: fail fast for a moment after the engine failed
        self._generation = (0, -1.0)  # (value, monotonic time read); -1 = never read
        if probe_interval_s > 0:
            start_probe(backend.name, lambda: self.backend.count() >= 0, probe_interval_s)

    # ---- to implement ----------------------------------------------------
    def _search(self, query: str, flt: Scope, k: int, exact: bool, with_docs: bool = True) -> list[Hit]:
        raise NotImplementedError

    def _upsert(self, docs: list[Doc]) -> UpsertResult:
        raise NotImplementedError

    def _search_generation(self) -> int:
        """The index generation for a search response, re-read from the engine at most every
        ``GENERATION_TTL_S`` (writes through this server reset it)."""
        value, read_at = self._generation
        now = time.monotonic()
        if read_at < 0 or now - read_at > GENERATION_TTL_S:
            value = self.backend.generation()
            self._generation = (value, now)
        return value

    def _forget_generation(self) -> None:
        self._generation = (0, -1.0)

    def _fail_fast_while_open(self, context: grpc.ServicerContext) -> None:
        """Circuit breaker, read side: UNAVAILABLE at once for a moment after the engine failed."""
        if time.monotonic() < self._open_until:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: engine failing (circuit open)")

    def _open_breaker(self, exc: BackendUnavailable, context: grpc.ServicerContext) -> None:
        """Circuit breaker, write side: count the failure, open for ``BREAKER_OPEN_S``, abort."""
        BACKEND_ERRORS.labels(self.backend.name, "unavailable").inc()
        self._open_until = time.monotonic() + BREAKER_OPEN_S
        context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: {exc}")

    # ---- RPCs --------------------------------------------------------------
    def Search(self, request: common_pb2.RetrieveRequest, context: grpc.ServicerContext) -> common_pb2.RetrieveResponse:
        if not request.query.strip():
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "query: must not be empty")
        if not 0 < request.k <= MAX_K:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"k: must be in 1..{MAX_K}, got {request.k}")
        flt = Scope.from_proto(request.filter)
        start = time.perf_counter()
        self._fail_fast_while_open(context)
        try:
            if request.post_filter:  # the filter needs each hit's metadata, so documents are fetched
                hits = [h for h in self._search(request.query, Scope(), request.k, request.exact)
                        if h.doc is not None and flt.admits(h.doc.metadata)]
            else:
                hits = self._search(request.query, flt, request.k, request.exact,
                                    with_docs=request.include_documents)
            generation = self._search_generation()
        except BackendUnavailable as exc:
            self._open_breaker(exc, context)
        took = (time.perf_counter() - start) * 1000
        return hits_to_response(hits, self.backend.name, generation, took, request.include_documents)

    def Upsert(self, request: common_pb2.UpsertRequest, context: grpc.ServicerContext) -> common_pb2.UpsertResponse:
        docs: list[Doc] = []
        errors: list[common_pb2.ItemError] = []
        seen: set[str] = set()
        for msg in request.documents:
            try:
                doc = validate_doc(Doc.from_proto(msg))
            except DocumentError as exc:
                errors.append(common_pb2.ItemError(doc_id=exc.doc_id, field=exc.field, message=exc.message))
                continue
            if doc.id in seen:
                errors.append(common_pb2.ItemError(doc_id=doc.id, field="_id", message="duplicate id in batch"))
                continue
            seen.add(doc.id)
            docs.append(doc)
        if errors:
            first = errors[0]
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"documents[{first.doc_id}].{first.field}: {first.message} ({len(errors)} invalid)")
        try:
            result = self._upsert(docs)
        except BackendUnavailable as exc:
            BACKEND_ERRORS.labels(self.backend.name, "unavailable").inc()
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: {exc}")
        finally:  # even a failed upsert may have written part of the batch
            self._forget_generation()
        INGESTED.labels(self.backend.name, "indexed").inc(result.indexed)
        INGESTED.labels(self.backend.name, "unchanged").inc(result.unchanged)
        INGESTED.labels(self.backend.name, "error").inc(len(result.errors))
        resp = common_pb2.UpsertResponse(indexed=result.indexed, unchanged=result.unchanged,
                                         generation=self.backend.generation())
        for err in result.errors:
            resp.errors.add(doc_id=err.doc_id, field=err.field, message=err.message)
        return resp

    def Delete(self, request: common_pb2.DeleteRequest, context: grpc.ServicerContext) -> common_pb2.DeleteResponse:
        try:
            deleted = self.backend.delete(list(request.doc_ids))
            self._forget_generation()
            return common_pb2.DeleteResponse(deleted=deleted, generation=self.backend.generation())
        except BackendUnavailable as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: {exc}")

    def Stats(self, request: common_pb2.StatsRequest, context: grpc.ServicerContext) -> common_pb2.StatsResponse:
        try:
            return common_pb2.StatsResponse(backend=self.backend.name, documents=self.backend.count(),
                                            generation=self.backend.generation(), details=self.backend.details())
        except BackendUnavailable as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: {exc}")

    def ListIds(self, request: common_pb2.ListIdsRequest, context: grpc.ServicerContext) -> Iterator[common_pb2.IdPage]:
        size = request.page_size if request.page_size > 0 else 1000
        page: list[str] = []
        try:
            for doc_id in self.backend.ids():
                page.append(doc_id)
                if len(page) >= size:
                    yield common_pb2.IdPage(doc_ids=page)
                    page = []
        except BackendUnavailable as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{self.backend.name}: {exc}")
        if page:
            yield common_pb2.IdPage(doc_ids=page)

    def GetDocuments(self, request: common_pb2.GetDocumentsRequest,
                     context: grpc.ServicerContext) -> common_pb2.GetDocumentsResponse:
        """Stored documents by id, in request order; unknown ids are left out. The gateway
        hydrates the fused top with this after searching for ids and scores only."""
        if len(request.doc_ids) > MAX_K:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"doc_ids: at most {MAX_K} per call, got {len(request.doc_ids)}")
        if not request.doc_ids:
            return common_pb2.GetDocumentsResponse()
        self._fail_fast_while_open(context)
        try:
            docs = self.backend.get(list(request.doc_ids))
        except BackendUnavailable as exc:
            self._open_breaker(exc, context)
        return common_pb2.GetDocumentsResponse(documents=[d.to_proto() for d in docs])
