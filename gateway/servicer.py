"""GatewayService: the public API; thin over SearchService and the ingest fan-out.

Handlers raise :mod:`chsr.errors`; the server's interceptor maps them and checks the
write credential, so nothing here touches status codes or tokens.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Iterable, Iterator

import grpc

from chsr.config import Settings
from chsr.deadline import bounded_timeout, call_budget_s
from chsr.documents import validate_batch
from chsr.errors import ChsrError, InvalidArgument, from_rpc_error
from chsr.metrics import REQUESTS
from chsr.scope import Scope
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc, retriever_pb2
from gateway.cache.base import CacheUnavailable, ResultCache
from gateway.catalogue_sync import CatalogueSync
from gateway.context import (DEFAULT_ANSWER_SENTENCES, DEFAULT_BUDGET, DEFAULT_CANDIDATES, MAX_ANSWER_SENTENCES,
                             MAX_BUDGET, extractive_answer, pack)
from gateway.files import FileIngest, FileTotals, delete_sources
from gateway.ingest import IngestTotals, upsert_batch
from gateway.pipelines import PIPELINES
from gateway.readiness import ALWAYS_READY, StageReadiness
from gateway.request import plan_search
from gateway.search import SearchService
from gateway.stubs import StageStubs
from gateway.verify import verify_index

log = logging.getLogger(__name__)
DELETE_TIMEOUT_S = 60.0   # per backend; less when the client's deadline is nearer
STATS_TIMEOUT_S = 10.0


class GatewayServicer(gateway_pb2_grpc.GatewayServiceServicer):
    def __init__(self, stubs: StageStubs, cache: ResultCache, settings: Settings,
                 catalogue: CatalogueSync | None = None, readiness: StageReadiness = ALWAYS_READY) -> None:
        self._stubs = stubs
        self._readiness = readiness
        self._cache = cache
        self._settings = settings
        self.catalogue = catalogue
        self.search_service = SearchService(stubs, cache, settings, catalogue)
        self._executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="ingest")

    def _budget_s(self, context: grpc.ServicerContext) -> float:
        return call_budget_s(context, self._settings.default_deadline_ms / 1000,
                             self._settings.max_deadline_ms / 1000)

    def Search(self, request: gateway_pb2.SearchRequest, context: grpc.ServicerContext) -> gateway_pb2.SearchResponse:
        label = request.pipeline if request.pipeline in PIPELINES else ("unknown" if request.pipeline else "default")
        try:
            plan = plan_search(request, self._settings)
            label = plan.pipeline.name
            response = self.search_service.search(plan, self._budget_s(context))
        except ChsrError as exc:
            REQUESTS.labels(label, exc.code.name).inc()
            raise
        REQUESTS.labels(label, "OK").inc()
        return response

    def Ingest(self, request_iterator: Iterator[gateway_pb2.IngestRequest],
               context: grpc.ServicerContext) -> gateway_pb2.IngestResponse:
        totals = IngestTotals()
        for _ in self._ingest(request_iterator, context, totals):
            pass
        return gateway_pb2.IngestResponse(summary=self._summary(totals))

    def IngestWithProgress(self, request_iterator: Iterator[gateway_pb2.IngestWithProgressRequest],
                           context: grpc.ServicerContext) -> Iterator[gateway_pb2.IngestWithProgressResponse]:
        totals = IngestTotals()
        batches = 0
        for batches in self._ingest(request_iterator, context, totals):
            yield gateway_pb2.IngestWithProgressResponse(batches=batches, received=totals.received,
                                                         indexed=totals.indexed, unchanged=totals.unchanged)
        yield gateway_pb2.IngestWithProgressResponse(batches=batches, received=totals.received,
                                                     indexed=totals.indexed, unchanged=totals.unchanged,
                                                     summary=self._summary(totals))

    def _ingest(self, batches: Iterable[gateway_pb2.IngestRequest | gateway_pb2.IngestWithProgressRequest],
                context: grpc.ServicerContext, totals: IngestTotals) -> Iterator[int]:
        """Store each batch in every backend; yields the number of batches stored so far."""
        stored = 0
        try:
            for batch in batches:
                if not batch.documents:
                    continue
                self._readiness.require(context, "ingest")  # before the first write (an empty stream writes nothing)
                try:
                    validate_batch(batch.documents)
                except InvalidArgument as exc:
                    raise InvalidArgument(exc.field, f"{exc.message} (earlier batches: {totals.received} "
                                                     "documents kept)") from None
                upsert_batch(self._stubs, self._executor, batch.documents, totals, context)
                stored += 1
                yield stored
        finally:
            if totals.indexed:
                self._bump_generation()

    def _summary(self, totals: IngestTotals) -> gateway_pb2.IngestSummary:
        return gateway_pb2.IngestSummary(received=totals.received, indexed=totals.indexed,
                                         unchanged=totals.unchanged, generation=self._generation(),
                                         per_backend_indexed=totals.per_backend)

    def Delete(self, request: gateway_pb2.DeleteRequest, context: grpc.ServicerContext) -> gateway_pb2.DeleteResponse:
        if not request.doc_ids:
            raise InvalidArgument("doc_ids", "must not be empty")
        self._readiness.require(context, "delete")
        deleted = 0
        forward = retriever_pb2.DeleteDocumentsRequest(doc_ids=request.doc_ids)
        try:
            for stub in self._stubs.servers.values():
                resp = stub.DeleteDocuments(
                    forward, timeout=bounded_timeout(context, DELETE_TIMEOUT_S), metadata=self._stubs.write_metadata)
                deleted = max(deleted, resp.deleted)
        except grpc.RpcError as exc:
            raise from_rpc_error(exc, "delete") from exc
        finally:
            self._bump_generation()
        return gateway_pb2.DeleteResponse(deleted=deleted, generation=self._generation())

    def IndexStats(self, request: gateway_pb2.IndexStatsRequest,
                   context: grpc.ServicerContext) -> gateway_pb2.IndexStatsResponse:
        resp = gateway_pb2.IndexStatsResponse(generation=self._generation())
        for name, stub in self._stubs.servers.items():
            try:
                stats = stub.Stats(retriever_pb2.StatsRequest(),
                                                         timeout=bounded_timeout(context, STATS_TIMEOUT_S))
                resp.backends.add(backend=stats.backend, documents=stats.documents, generation=stats.generation,
                                  details=stats.details)
            except grpc.RpcError as exc:
                resp.backends.add(backend=name, documents=-1, details={"error": exc.code().name})
        return resp

    def VerifyIndex(self, request: gateway_pb2.VerifyIndexRequest,
                    context: grpc.ServicerContext) -> gateway_pb2.VerifyIndexResponse:
        try:
            return verify_index(self._stubs, list(request.expected_ids), context, source=request.source)
        except grpc.RpcError as exc:
            raise from_rpc_error(exc, "verify") from exc

    def IngestFiles(self, request_iterator: Iterator[gateway_pb2.IngestFilesRequest],
                    context: grpc.ServicerContext) -> Iterator[gateway_pb2.IngestFilesResponse]:
        self._readiness.require(context, "ingest files")
        totals = FileTotals()
        flow = FileIngest(self._stubs, self._executor, self._settings.max_message_bytes, self._bump_generation)
        yield from flow.run(request_iterator, context, totals)
        yield gateway_pb2.IngestFilesResponse(summary=gateway_pb2.IngestFilesSummary(
            files=totals.files, failed=totals.failed, chunks=totals.chunks, written=totals.written,
            unchanged=totals.unchanged, deleted=totals.deleted, generation=self._generation()))

    def DeleteSource(self, request: gateway_pb2.DeleteSourceRequest,
                     context: grpc.ServicerContext) -> gateway_pb2.DeleteSourceResponse:
        self._readiness.require(context, "delete source")
        try:
            done = delete_sources(self._stubs, self._executor, list(request.sources), context)
        finally:
            self._bump_generation()
        resp = gateway_pb2.DeleteSourceResponse(generation=self._generation())
        for source, deleted in done:
            resp.sources.add(source=source, deleted=deleted)
        return resp

    def GetContext(self, request: gateway_pb2.GetContextRequest,
                   context: grpc.ServicerContext) -> gateway_pb2.GetContextResponse:
        budget = request.budget_tokens or DEFAULT_BUDGET
        if not 1 <= budget <= MAX_BUDGET:
            raise InvalidArgument("budget_tokens", f"must be in 1..{MAX_BUDGET} (0 = {DEFAULT_BUDGET}), "
                                                   f"got {request.budget_tokens}")
        sentences = request.answer_sentences or DEFAULT_ANSWER_SENTENCES
        if not 0 <= request.answer_sentences <= MAX_ANSWER_SENTENCES:
            raise InvalidArgument("answer_sentences", f"must be in 0..{MAX_ANSWER_SENTENCES}, "
                                                      f"got {request.answer_sentences}")
        search = gateway_pb2.SearchRequest(query=request.query, k=request.candidates or DEFAULT_CANDIDATES,
                                           hints=request.hints, pipeline=request.pipeline or "E",
                                           strict_scope=request.strict_scope)
        try:
            plan = plan_search(search, self._settings)
        except InvalidArgument as exc:
            raise InvalidArgument("candidates" if exc.field == "k" else exc.field, exc.message) from None
        found = self.search_service.search(plan, self._budget_s(context))
        packed = pack(found.results, Scope.from_proto(found.scope), budget)
        return gateway_pb2.GetContextResponse(
            context=packed.text, passages=packed.passages, answer=extractive_answer(request.query, packed.passages,
                                                                                    sentences),
            tokens=packed.tokens, budget_tokens=budget, duplicates_removed=packed.duplicates,
            left_out=packed.left_out, pipeline=found.pipeline, scope=found.scope, final_step=found.final_step,
            degraded=found.degraded, relaxation_trace=found.relaxation_trace)

    def ListPipelines(self, request: gateway_pb2.ListPipelinesRequest,
                      context: grpc.ServicerContext) -> gateway_pb2.ListPipelinesResponse:
        resp = gateway_pb2.ListPipelinesResponse(default_pipeline=self._settings.default_pipeline)
        for p in PIPELINES.values():
            reasons = [r for r in (self._stubs.unavailable_reason(leg) for leg in p.legs) if r]
            resp.pipelines.add(name=p.name, description=p.description, legs=p.legs, available=not reasons,
                               unavailable_reason="; ".join(reasons))
        return resp

    def _bump_generation(self) -> None:
        if self.catalogue is not None:
            self.catalogue.request_sync()
        try:
            self._cache.bump_generation()
        except CacheUnavailable:
            log.warning("cache unavailable: generation not bumped; cached results expire by TTL")

    def _generation(self) -> int:
        try:
            return self._cache.generation()
        except CacheUnavailable:
            return -1
