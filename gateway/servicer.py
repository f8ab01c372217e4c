"""GatewayService: the public API; thin over SearchService and the ingest fan-out."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import grpc

from chsr.config import Settings
from chsr.deadline import bounded_timeout, call_budget_s
from chsr.inprocess import InProcessAbort
from chsr.metrics import REQUESTS
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc
from gateway.budget import DeadlineExceeded
from gateway.cache.base import CacheUnavailable, ResultCache
from gateway.ingest import BatchInvalid, IngestTotals, upsert_batch, validate_batch
from gateway.pipelines import PIPELINES
from gateway.rung import StageUnavailable
from gateway.search import GateFailedClosed, SearchService
from gateway.stages import StageStubs
from gateway.verify import verify_index

log = logging.getLogger(__name__)
DELETE_TIMEOUT_S = 60.0   # per backend; less when the client's deadline is nearer
STATS_TIMEOUT_S = 10.0


class GatewayServicer(gateway_pb2_grpc.GatewayServiceServicer):
    def __init__(self, stubs: StageStubs, cache: ResultCache, settings: Settings) -> None:
        self._stubs = stubs
        self._cache = cache
        self._settings = settings
        self.search_service = SearchService(stubs, cache, settings)
        self._executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="ingest")

    def _authorize(self, context: grpc.ServicerContext) -> None:
        token = self._settings.ingest_token
        if not token:
            return
        metadata = dict(context.invocation_metadata() or ())
        if metadata.get("authorization") != f"Bearer {token}":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "authorization: a valid bearer token is required")

    def _budget_s(self, context: grpc.ServicerContext) -> float:
        return call_budget_s(context, self._settings.default_deadline_ms / 1000,
                             self._settings.max_deadline_ms / 1000)

    def Search(self, request: gateway_pb2.SearchRequest, context: grpc.ServicerContext) -> gateway_pb2.SearchResponse:
        pipeline = request.pipeline or self._settings.default_pipeline
        pipeline_label = pipeline if pipeline in PIPELINES else "unknown"
        try:
            response = self.search_service.search(request, self._budget_s(context))
        except ValueError as exc:
            REQUESTS.labels(pipeline_label, "INVALID_ARGUMENT").inc()
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except (DeadlineExceeded, StageUnavailable, GateFailedClosed) as exc:
            deadline = isinstance(exc, DeadlineExceeded) or getattr(exc, "deadline", False)
            code = grpc.StatusCode.DEADLINE_EXCEEDED if deadline else grpc.StatusCode.UNAVAILABLE
            REQUESTS.labels(pipeline_label, code.name).inc()
            context.abort(code, str(exc))
        REQUESTS.labels(pipeline_label, "OK").inc()
        return response

    def Ingest(self, request_iterator: Iterator[gateway_pb2.IngestBatch],
               context: grpc.ServicerContext) -> gateway_pb2.IngestSummary:
        totals = IngestTotals()
        for _ in self._ingest(request_iterator, context, totals):
            pass
        return self._summary(totals)

    def IngestWithProgress(self, request_iterator: Iterator[gateway_pb2.IngestBatch],
                           context: grpc.ServicerContext) -> Iterator[gateway_pb2.IngestProgress]:
        totals = IngestTotals()
        batches = 0
        for batches in self._ingest(request_iterator, context, totals):
            yield gateway_pb2.IngestProgress(batches=batches, received=totals.received, indexed=totals.indexed,
                                             unchanged=totals.unchanged)
        yield gateway_pb2.IngestProgress(batches=batches, received=totals.received,
                                         indexed=totals.indexed, unchanged=totals.unchanged,
                                         summary=self._summary(totals))

    def _ingest(self, request_iterator: Iterator[gateway_pb2.IngestBatch], context: grpc.ServicerContext,
                totals: IngestTotals) -> Iterator[int]:
        """Store each batch in every backend; yields the number of batches stored so far."""
        self._authorize(context)
        stored = 0
        try:
            for batch in request_iterator:
                docs = validate_batch(batch.documents)
                if docs:
                    upsert_batch(self._stubs, self._executor, docs, totals, context)
                    stored += 1
                    yield stored
        except BatchInvalid as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{exc} (earlier batches: {totals.received} kept)")
        except ConnectionError as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"ingest backend failed: {exc}; rerun ingest (idempotent)")
        finally:
            if totals.indexed:
                self._bump_generation()

    def _summary(self, totals: IngestTotals) -> gateway_pb2.IngestSummary:
        return gateway_pb2.IngestSummary(received=totals.received, indexed=totals.indexed,
                                         unchanged=totals.unchanged, generation=self._generation(),
                                         per_backend_indexed=totals.per_backend)

    def Delete(self, request: common_pb2.DeleteRequest, context: grpc.ServicerContext) -> common_pb2.DeleteResponse:
        self._authorize(context)
        if not request.doc_ids:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "doc_ids: must not be empty")
        deleted = 0
        try:
            for leg in ("sparse", "dense"):
                deleted = max(deleted, self._stubs.retriever(leg).Delete(
                    request, timeout=bounded_timeout(context, DELETE_TIMEOUT_S)).deleted)
        except grpc.RpcError as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"delete failed: {exc.details()}")
        self._bump_generation()
        return common_pb2.DeleteResponse(deleted=deleted, generation=self._generation())

    def IndexStats(self, request: gateway_pb2.IndexStatsRequest,
                   context: grpc.ServicerContext) -> gateway_pb2.IndexStatsResponse:
        resp = gateway_pb2.IndexStatsResponse(generation=self._generation())
        for leg in ("sparse", "dense"):
            try:
                resp.backends.append(self._stubs.retriever(leg).Stats(
                    common_pb2.StatsRequest(), timeout=bounded_timeout(context, STATS_TIMEOUT_S)))
            except grpc.RpcError as exc:
                resp.backends.add(backend=leg, documents=-1, details={"error": exc.code().name})
        return resp

    def VerifyIndex(self, request: gateway_pb2.VerifyIndexRequest,
                    context: grpc.ServicerContext) -> gateway_pb2.VerifyIndexResponse:
        try:
            return verify_index(self._stubs, list(request.expected_ids), context)
        except grpc.RpcError as exc:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"verify failed: {exc.code().name} {exc.details()}")

    def ListPipelines(self, request: gateway_pb2.ListPipelinesRequest,
                      context: grpc.ServicerContext) -> gateway_pb2.ListPipelinesResponse:
        resp = gateway_pb2.ListPipelinesResponse(default_pipeline=self._settings.default_pipeline)
        for p in PIPELINES.values():
            resp.pipelines.add(name=p.name, description=p.description)
        return resp

    def _bump_generation(self) -> None:
        try:
            self._cache.bump_generation()
        except CacheUnavailable:
            log.warning("cache unavailable: generation not bumped; cached results expire by TTL")

    def _generation(self) -> int:
        try:
            return self._cache.generation()
        except CacheUnavailable:
            return -1


__all__ = ["GatewayServicer", "InProcessAbort"]
