"""The gateway's query flow (DESIGN.md "Query flow"), top to bottom.

validate -> cache -> gate (scope + ladder) -> for each ladder rung: retrieve
(parallel, filter pushed down) -> fuse -> rerank -> sufficiency -> respond.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc

from chsr.config import Settings
from chsr.docs import Doc
from chsr.metrics import (CACHE_EVENTS, DEGRADED, LEAKAGE_FLAGGED, RELAXATION_STEPS, RESULTS, STAGE_LATENCY)
from chsr.scope import Scope
from chsr.stages import SEARCH_STAGES
from chsr.v1 import common_pb2, gate_pb2, gateway_pb2
from gateway.budget import Budget
from gateway.cache.base import CacheUnavailable, ResultCache, cache_key
from gateway.ontopic import is_on_topic, topic_stems
from gateway.pipelines import PipelineConfig, get_pipeline
from gateway.rung import RungRunner
from gateway.stages import StageStubs
from gateway.validation import validate_search

log = logging.getLogger(__name__)
STAMPEDE_WAIT_S = 0.15   # how long a request waits for another's computation of the same key
STAMPEDE_POLL_S = 0.02
STEP_NAMES = {common_pb2.W0_EXACT: "W0", common_pb2.W1_DROP_TOPIC: "W1",
              common_pb2.W2_DROP_LEVEL: "W2", common_pb2.W3_UNFILTERED_LEXICAL: "W3"}


class GateFailedClosed(RuntimeError):
    """The gate is down and the pipeline needs it: refuse rather than answer ungated."""


@dataclass
class GateOutcome:
    scope: common_pb2.Scope
    ladder: list[common_pb2.LadderStep]
    confidence: list[common_pb2.FieldConfidence]
    strict_keys: list[str]
    query: str
    topic_terms: list[str]


class SearchService:
    def __init__(self, stubs: StageStubs, cache: ResultCache, settings: Settings) -> None:
        self._stubs = stubs
        self._cache = cache
        self._settings = settings
        self._executor = ThreadPoolExecutor(max_workers=32, thread_name_prefix="legs")
        self._rungs = RungRunner(stubs, self._executor)

    # ---- entry point -------------------------------------------------------
    def search(self, request: gateway_pb2.SearchRequest, budget_s: float) -> gateway_pb2.SearchResponse:
        """``budget_s`` is already bounded (``chsr.deadline.call_budget_s``): never the
        unbounded remaining time of a call without a deadline."""
        validate_search(request, self._settings)  # raises ValueError naming the field
        pipeline = get_pipeline(request.pipeline or self._settings.default_pipeline)
        hints = Scope.from_proto(request.hints)
        budget = Budget(budget_s)
        started = time.perf_counter()
        key, degraded, locked = None, [], False
        if not request.no_cache:
            cached, key, degraded = self._cache_lookup(request, hints, pipeline)
            if cached is None and key is not None:
                locked, cached = self._single_flight(key, budget)
            if cached is not None:
                cached.timings.add(stage="total", ms=(time.perf_counter() - started) * 1000)
                return cached
        try:
            response = self._compute(request, pipeline, hints, budget)
            response.degraded.extend(degraded)
            total_ms = (time.perf_counter() - started) * 1000
            response.timings.add(stage="total", ms=total_ms)
            self._observe(response, pipeline)
            if key is not None and "cache_unavailable" not in degraded:
                self._cache_store(key, response)
            return response
        finally:
            if locked:
                self._cache_unlock(key)

    # ---- cache -------------------------------------------------------------
    def _cache_lookup(self, request, hints: Scope, pipeline: PipelineConfig):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            key = cache_key(request.query, hints, pipeline.name, request.k, request.strict_scope,
                            self._cache.generation())
            blob = self._cache.get(key)
        except CacheUnavailable:
            CACHE_EVENTS.labels("bypass").inc()
            DEGRADED.labels("cache_unavailable").inc()
            return None, None, ["cache_unavailable"]
        STAGE_LATENCY.labels("cache", pipeline.name).observe(time.perf_counter() - start)
        if blob is None:
            CACHE_EVENTS.labels("miss").inc()
            return None, key, []
        CACHE_EVENTS.labels("hit").inc()
        return self._from_cache(blob, start), key, []

    @staticmethod
    def _from_cache(blob: bytes, start: float) -> gateway_pb2.SearchResponse:
        resp = gateway_pb2.SearchResponse.FromString(blob)
        resp.cache_hit = True
        del resp.timings[:]
        resp.timings.add(stage="cache", ms=(time.perf_counter() - start) * 1000)
        return resp

    def _single_flight(self, key: str, budget: Budget) -> tuple[bool, gateway_pb2.SearchResponse | None]:
        """Stampede protection on a missed key (issue 3): the first request takes the key's lock
        and computes; the others poll for its result every 20 ms for up to 150 ms (about one
        cached-path search), then compute anyway rather than queue behind a slow holder.
        Returns (we hold the lock, the holder's cached answer if it arrived in time)."""
        start = time.perf_counter()
        try:
            if self._cache.lock(key, max(100, int(budget.remaining() * 1000))):  # lock lives <= our deadline
                return True, None
            deadline = start + min(STAMPEDE_WAIT_S, budget.remaining() / 4)
            while time.perf_counter() < deadline:
                time.sleep(STAMPEDE_POLL_S)
                blob = self._cache.get(key)
                if blob is not None:
                    CACHE_EVENTS.labels("hit").inc()
                    return False, self._from_cache(blob, start)
        except CacheUnavailable:
            pass  # Redis went away after the lookup: compute; the store then counts the bypass
        return False, None

    def _cache_unlock(self, key: str) -> None:
        try:
            self._cache.unlock(key)
        except CacheUnavailable:
            pass  # the lock expires by its TTL

    def _cache_store(self, key: str, response: gateway_pb2.SearchResponse) -> None:
        if response.degraded:
            return  # never cache a degraded answer
        try:
            self._cache.set(key, response.SerializeToString(), self._settings.cache_ttl_s)
        except CacheUnavailable:
            CACHE_EVENTS.labels("bypass").inc()

    # ---- gate ----------------------------------------------------------------
    def _gate(self, request, pipeline: PipelineConfig, hints: Scope, budget: Budget,  # type: ignore[no-untyped-def]
              timings: dict[str, float], degraded: list[str]) -> GateOutcome:
        if pipeline.gate == "none":
            rung = common_pb2.LadderStep(step=common_pb2.W0_EXACT, description="ungated")
            return GateOutcome(common_pb2.Scope(), [rung], [], [], request.query, [])
        req = gate_pb2.GateRequest(query=request.query, hints=request.hints, extract=pipeline.gate == "extract",
                                   strict_scope=request.strict_scope, expand_query=pipeline.expansion)
        start = time.perf_counter()
        try:
            resp = self._stubs.gate.Gate(req, timeout=budget.for_stage("gate"))
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.INVALID_ARGUMENT:
                raise ValueError(exc.details()) from exc
            if hints.is_empty() and pipeline.gate == "extract":
                raise GateFailedClosed(f"gate unavailable ({exc.code().name}); refusing an ungated answer") from exc
            degraded.append("gate_unavailable_hints_only")
            rung = common_pb2.LadderStep(step=common_pb2.W0_EXACT, filter=request.hints,
                                         description="client hints only (gate unavailable)")
            return GateOutcome(request.hints, [rung], [], [], request.query, [])
        finally:
            timings["gate"] = (time.perf_counter() - start) * 1000
        query = resp.expanded_query if pipeline.expansion and resp.expanded_query else request.query
        return GateOutcome(resp.scope, list(resp.ladder), list(resp.confidence), list(resp.strict_keys), query,
                           list(resp.topic_terms))

    # ---- the ladder loop -------------------------------------------------------
    def _compute(self, request, pipeline: PipelineConfig, hints: Scope,  # type: ignore[no-untyped-def]
                 budget: Budget) -> gateway_pb2.SearchResponse:
        timings: dict[str, float] = {s: 0.0 for s in SEARCH_STAGES}
        degraded: list[str] = []
        gate = self._gate(request, pipeline, hints, budget, timings, degraded)
        k = request.k
        ladder = gate.ladder if pipeline.relaxation else gate.ladder[:1]
        if gate.strict_keys:  # an explicit paper/question must not be answered from an unfiltered pool
            ladder = [r for r in ladder if not r.lexical_only]
        if pipeline.relaxation and not gate.topic_terms and pipeline.gate == "extract":
            # A pure look-up ("2025 AMC 10A problem 5") has no topic to recover by widening: if the
            # exact scope is empty the honest answer is nothing, not another paper's item (issue 5).
            ladder = ladder[:1]
        stems = topic_stems(gate.topic_terms)
        response = gateway_pb2.SearchResponse(scope=gate.scope, confidence=gate.confidence, pipeline=pipeline.name,
                                              expanded_query=gate.query, index_generation=self._cache_generation())
        chosen, chosen_step = [], common_pb2.W0_EXACT
        for i, rung in enumerate(ladder):
            flt = rung.filter if not pipeline.post_filter else gate.scope
            outcome = self._rungs.run(gate.query, flt, gate.scope, rung.lexical_only, pipeline, k, budget)
            for stage, ms in outcome.timings.items():
                timings[stage] = timings.get(stage, 0.0) + ms
            degraded.extend(d for d in outcome.degraded if d not in degraded)
            response.fusion_telemetry.update(outcome.telemetry)
            on_topic = sum(is_on_topic(Doc.from_proto(c.document).full_text, stems) for c in outcome.candidates)
            last = i == len(ladder) - 1
            accepted = on_topic > 0 or last or not pipeline.relaxation
            reason = ("on-topic results in scope" if on_topic else "no on-topic results") + \
                (f"; {len(outcome.candidates)} < k_min={pipeline.k_min}" if len(outcome.candidates) < pipeline.k_min else "")
            response.relaxation_trace.add(step=rung.step, filter=rung.filter, admissible=len(outcome.candidates),
                                          on_topic=on_topic, accepted=accepted, reason=reason)
            RELAXATION_STEPS.labels(pipeline.name, STEP_NAMES.get(rung.step, "W0")).inc()
            if accepted:
                chosen, chosen_step = outcome.candidates, rung.step
                break
        self._fill_results(response, chosen, chosen_step, Scope.from_proto(gate.scope))
        response.final_step = chosen_step
        response.degraded.extend(degraded)
        for stage in SEARCH_STAGES:
            response.timings.add(stage=stage, ms=timings.get(stage, 0.0))
        return response

    @staticmethod
    def _fill_results(response: gateway_pb2.SearchResponse, candidates: list[common_pb2.Candidate],
                      step: int, scope: Scope) -> None:
        for rank, cand in enumerate(candidates, start=1):
            doc = Doc.from_proto(cand.document)
            response.results.add(doc_id=cand.doc_id, title=cand.document.title, text=cand.document.text,
                                 score=cand.score, metadata=cand.document.metadata, relaxation=step,
                                 violations=scope.violations(doc.metadata), rank=rank)

    def _cache_generation(self) -> int:
        try:
            return self._cache.generation()
        except CacheUnavailable:
            return -1

    @staticmethod
    def _observe(response: gateway_pb2.SearchResponse, pipeline: PipelineConfig) -> None:
        for t in response.timings:
            STAGE_LATENCY.labels(t.stage, pipeline.name).observe(t.ms / 1000)
        for r in response.results:
            RESULTS.labels(pipeline.name, STEP_NAMES.get(r.relaxation, "W0")).inc()
            if r.violations:
                LEAKAGE_FLAGGED.labels(pipeline.name).inc()
        for reason in response.degraded:
            DEGRADED.labels(reason).inc()
