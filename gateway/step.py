"""One ladder step: parallel retrieval legs -> fusion -> fetch -> rerank.

Legs run in parallel with the step's filter pushed into each engine and return ids and
scores only; fusion's candidates are passed on as they come; then the gateway fetches the
stored documents of the fused top (``max(k, rerank_pool)``) in one ``GetDocuments`` call,
so the engines load tens of documents per query instead of every leg's full depth. A
failed leg degrades the answer (``<leg>_unavailable``) instead of failing it; a failed
rerank falls back to the fused order.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import grpc

from chsr.documents import metadata_from_proto
from chsr.errors import DeadlineExceeded, FailedPrecondition, Unavailable
from chsr.metrics import BACKEND_ERRORS
from chsr.scope import Scope
from chsr.stages import LEXICAL_LEG
from chsr.v1 import common_pb2, fusion_pb2, gate_pb2, rerank_pb2, retriever_pb2
from gateway.budget import Budget
from gateway.pipelines import PipelineConfig
from gateway.preference import Preference, rank_by_preference
from gateway.stubs import StageStubs
from gateway.translations import in_language_turns
from gateway.vectors import QueryVectors

log = logging.getLogger(__name__)


@dataclass
class StepResult:
    candidates: list[common_pb2.Candidate]
    timings: dict[str, float] = field(default_factory=dict)
    degraded: list[str] = field(default_factory=list)
    fusion_telemetry: dict[str, float] = field(default_factory=dict)
    rerank_telemetry: dict[str, float] = field(default_factory=dict)
    from_probe: list[str] = field(default_factory=list)   # legs answered from the probe's lists, not called

    def add_time(self, stage: str, ms: float) -> None:
        self.timings[stage] = self.timings.get(stage, 0.0) + ms


@dataclass
class ProbeLists:
    """Each leg's unfiltered top ``k`` from the evidence probe (ids, scores, metadata), so a ladder step whose
    filter leaves enough of them needs no retrieval call of its own.

    Exact by construction: an engine scores a document the same with or without the filter (the filter
    only admits; BM25 statistics and vector distances are index-wide), so the admitted part of an
    unfiltered ranked list, in order, is the filtered ranked list down to the unfiltered list's last
    hit. It answers a step of depth ``n`` when at least ``n`` of its hits are admitted, or when it
    already holds every hit the engine has (fewer than ``k``: a short BM25 match list)."""

    query: str
    k: int
    exact: bool
    lists: dict[str, list[common_pb2.Candidate]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)   # legs whose probe call failed (the ladder calls them)

    def answer(self, leg: str, query: str, flt: common_pb2.Scope, depth: int, exact: bool, post_filter: bool,
               with_metadata: bool) -> list[common_pb2.Candidate] | None:
        full = self.lists.get(leg)
        if full is None or post_filter or query != self.query or exact != self.exact or depth > self.k:
            return None
        scope = Scope.from_proto(flt)
        everything = scope.is_empty()
        complete = len(full) < self.k            # every hit the leg has: any admitted part of it is the answer
        spare = len(full) - depth                # else at most this many hits may fail the filter
        admitted: list[common_pb2.Candidate] = []
        for c in full:
            if everything or scope.admits(metadata_from_proto(c.document.metadata)):
                admitted.append(c)
            elif not complete:
                spare -= 1
                if spare < 0:
                    return None  # admissible hits may rank below the probe's last one
        out = []
        for rank, c in enumerate(admitted[:depth], start=1):
            cand = common_pb2.Candidate(doc_id=c.doc_id, score=c.score, rank=rank)
            if with_metadata:
                cand.document.id = c.doc_id
                cand.document.metadata.CopyFrom(c.document.metadata)
            out.append(cand)
        return out


def _failed(what: str, errors: list[grpc.RpcError]) -> Exception:
    """Every attempt failed: DEADLINE_EXCEEDED if they all timed out, FAILED_PRECONDITION if every
    server said it is not set up for the request (e.g. TF-IDF over an empty index, a graph leg over
    an index built without a graph), else UNAVAILABLE."""
    details = "; ".join(e.details() or e.code().name for e in errors)
    if errors and all(e.code() == grpc.StatusCode.DEADLINE_EXCEEDED for e in errors):
        return DeadlineExceeded(f"{what}: {details}")
    if errors and all(e.code() == grpc.StatusCode.FAILED_PRECONDITION for e in errors):
        return FailedPrecondition(f"{what}: {details}")
    return Unavailable(f"{what}: {details}")


def _timed(method: Callable[..., Any], request: Any, timeout: float) -> tuple[Any, float]:
    start = time.perf_counter()
    response = method(request, timeout=timeout)
    return response, (time.perf_counter() - start) * 1000


class _Pending:
    """One leg's RPC under way; ``result()`` -> (response, ms), raising the call's ``grpc.RpcError``.

    A gRPC stub's own future where the stub has one: the channel's completion thread answers it, so no
    thread of ours is handed the call and parked on it (issue 22: about +13 % QPS at 8 clients on 2 cores,
    the same CPU per request; benchmarks/profile section 6). An in-process stub (the benchmark's
    network-free mode) has no futures: the executor runs it, as before."""

    def __init__(self, method: Callable[..., Any], request: Any, timeout: float, executor: ThreadPoolExecutor) -> None:
        self._start = time.perf_counter()
        self._end: float | None = None
        future_of = getattr(method, "future", None)
        self._native = future_of is not None
        if future_of is not None:
            self._future = future_of(request, timeout=timeout)
            self._future.add_done_callback(self._done)
        else:
            self._future = executor.submit(_timed, method, request, timeout)

    def _done(self, _: Any) -> None:
        self._end = time.perf_counter()

    def result(self) -> tuple[Any, float]:
        if not self._native:
            return self._future.result()
        response = self._future.result()
        return response, ((self._end or time.perf_counter()) - self._start) * 1000


class StepRunner:
    def __init__(self, stubs: StageStubs, executor: ThreadPoolExecutor) -> None:
        self._stubs = stubs
        self._executor = executor

    def check_legs(self, pipeline: PipelineConfig) -> None:
        """FAILED_PRECONDITION naming the first leg of ``pipeline`` this mesh cannot serve (not enabled
        in ``CHSR_LEGS``, or a model whose weights are not available here, such as SPECTER2)."""
        for leg in pipeline.legs:
            reason = self._stubs.unavailable_reason(leg)
            if reason:
                raise FailedPrecondition(f"pipeline '{pipeline.name}' needs leg '{leg}': {reason}")

    def run(self, query: str, step: common_pb2.LadderStep, flt: common_pb2.Scope, scope: common_pb2.Scope,
            pipeline: PipelineConfig, k: int, budget: Budget, preference: Preference = Preference(),
            vectors: QueryVectors | None = None, probe: ProbeLists | None = None,
            weights: Mapping[str, float] | None = None) -> StepResult:
        """``flt`` is what the legs filter by (the step's filter; B+ filters after retrieval by
        the W0 scope instead); ``scope`` is the W0 scope the curriculum reranker aligns with;
        ``preference`` re-ranks the whole fused list by the gate's uncertain fields; ``vectors`` are
        the request's query embeddings so far (the dense legs encode each query text once); a leg
        whose list ``probe`` already holds is not called (``StepResult.from_probe``); ``weights``:
        each list's weight in the fusion (a leg not named weighs 1)."""
        out = StepResult(candidates=[])
        legs = (LEXICAL_LEG,) if step.lexical_only else pipeline.legs
        lists = self._retrieve(query, flt, legs, pipeline, max(k, pipeline.depth), budget, out,
                               with_metadata=bool(preference), vectors=vectors or QueryVectors(), probe=probe)
        keep = max(k, pipeline.rerank_pool) if pipeline.rerank else k  # what rerank sees, else the answer
        if preference:
            fused = rank_by_preference(self._fuse(query, lists, pipeline, 0, budget, out, weights),
                                       preference)[:keep]
        else:
            fused = self._fuse(query, lists, pipeline, keep, budget, out, weights)
        fused = self._fetch(fused, tuple(lists), budget, out)
        languages = preference.values_of("language")  # several versions asked for: each language's best first
        ranked = self._rerank(query, fused, scope, pipeline, keep if len(languages) > 1 else k, budget, out)
        out.candidates = in_language_turns(ranked, languages, lambda c: c.document.metadata)[:k]
        return out

    def probe(self, query: str, legs: tuple[str, ...], depth: int, budget: Budget,
              vectors: QueryVectors | None = None, reuse_depth: int = 0, exact: bool = False,
              reuse_legs: frozenset[str] | set[str] = frozenset()) -> tuple[list[gate_pb2.ProbeHit], float, ProbeLists]:
        """The gate's evidence: each leg's unfiltered top ``depth`` with metadata, in parallel.
        A leg that fails is left out (its failure shows again, flagged, in the retrieval itself);
        returns the hits, the wall time in ms and the lists the ladder may reuse: each leg in
        ``reuse_legs`` is asked for ``max(depth, reuse_depth)`` hits, searched as the ladder would
        (``exact``); the gate sees every leg's top ``depth``. The dense legs' query vectors go into ``vectors``."""
        start = time.perf_counter()
        timeout = budget.for_stage("probe")
        vectors = vectors if vectors is not None else QueryVectors()
        lists = ProbeLists(query=query, k=max(depth, reuse_depth), exact=exact)
        futures: dict[str, _Pending] = {}
        for leg in legs:
            stub, model = self._stubs.leg(leg)
            deep = leg in reuse_legs
            req = retriever_pb2.RetrieveRequest(query=query, k=lists.k if deep else depth, model=model,
                                                include_metadata=True, exact=exact if deep else False)
            vectors.prepare(leg, req)
            futures[leg] = _Pending(stub.Retrieve, req, timeout, self._executor)
        hits: list[gate_pb2.ProbeHit] = []
        for leg, fut in futures.items():
            try:
                resp, _ = fut.result()
            except grpc.RpcError as exc:
                BACKEND_ERRORS.labels(f"{leg}_probe", exc.code().name.lower()).inc()
                log.warning("probe leg failed", extra={"leg": leg, "code": exc.code().name})
                lists.failed.append(leg)
                continue
            vectors.learn(leg, query, resp)
            if leg in reuse_legs:
                lists.lists[leg] = list(resp.candidates)
            hits.extend(gate_pb2.ProbeHit(leg=leg, rank=c.rank, score=c.score, doc_id=c.doc_id,
                                          metadata=c.document.metadata) for c in resp.candidates[:depth])
        return hits, (time.perf_counter() - start) * 1000, lists

    def _retrieve(self, query: str, flt: common_pb2.Scope, legs: tuple[str, ...], pipeline: PipelineConfig,
                  depth: int, budget: Budget, out: StepResult, with_metadata: bool = False,
                  vectors: QueryVectors | None = None,
                  probe: ProbeLists | None = None) -> dict[str, list[common_pb2.Candidate]]:
        timeout = budget.for_stage("retrieve")
        vectors = vectors if vectors is not None else QueryVectors()
        futures: dict[str, _Pending] = {}
        reused: dict[str, list[common_pb2.Candidate]] = {}
        for leg in legs:
            answer = probe.answer(leg, query, flt, depth, pipeline.exact, pipeline.post_filter, with_metadata) \
                if probe is not None else None
            if answer is not None:
                reused[leg] = answer
                continue
            stub, model = self._stubs.leg(leg)
            req = retriever_pb2.RetrieveRequest(query=query, filter=flt, k=depth, post_filter=pipeline.post_filter,
                                                exact=pipeline.exact, model=model, include_metadata=with_metadata)
            vectors.prepare(leg, req)
            futures[leg] = _Pending(stub.Retrieve, req, timeout, self._executor)
        lists: dict[str, list[common_pb2.Candidate]] = {}
        errors: list[grpc.RpcError] = []
        for leg in legs:
            if leg in reused:
                out.add_time(leg, 0.0)
                out.from_probe.append(leg)
                lists[leg] = reused[leg]
                continue
            fut = futures[leg]
            try:
                resp, ms = fut.result()
            except grpc.RpcError as exc:
                errors.append(exc)
                BACKEND_ERRORS.labels(leg, exc.code().name.lower()).inc()
                out.degraded.append(f"{leg}_unavailable")
                log.warning("retrieval leg failed", extra={"leg": leg, "code": exc.code().name,
                                                           "details": (exc.details() or "")[:300]})
                continue
            out.add_time(leg, ms)
            vectors.learn(leg, query, resp)
            lists[leg] = list(resp.candidates)
        if not lists:
            raise _failed("all retrieval legs failed", errors)
        return lists

    def _fuse(self, query: str, lists: dict[str, list[common_pb2.Candidate]], pipeline: PipelineConfig,
              k: int, budget: Budget, out: StepResult,
              weights: Mapping[str, float] | None = None) -> list[common_pb2.Candidate]:
        out.add_time("fusion", 0.0)
        if len(lists) == 1:
            only = next(iter(lists.values()))
            return only[:k] if k else only
        req = fusion_pb2.FuseRequest(mode=pipeline.fusion_mode, k=k, params=dict(pipeline.fusion_params),
                                     query=query, lists=[fusion_pb2.RankedList(name=name, candidates=cands,
                                                                               weight=(weights or {}).get(name, 1.0))
                                                         for name, cands in lists.items()])
        try:
            resp, ms = _timed(self._stubs.fusion.Fuse, req, budget.for_stage("fusion"))
        except grpc.RpcError as exc:
            BACKEND_ERRORS.labels("fusion", exc.code().name.lower()).inc()
            out.degraded.append("fusion_unavailable")
            first = lists.get(LEXICAL_LEG) or next(iter(lists.values()))
            return first[:k] if k else first
        out.add_time("fusion", ms)
        out.fusion_telemetry.update(resp.telemetry)
        return list(resp.candidates)

    def documents(self, doc_ids: list[str], budget: Budget, out: StepResult) -> list[common_pb2.Candidate]:
        """Candidates for ``doc_ids`` with their documents filled (ids stored nowhere are left out)."""
        return self._fetch([common_pb2.Candidate(doc_id=i) for i in doc_ids], (LEXICAL_LEG,), budget, out)

    def _fetch(self, fused: list[common_pb2.Candidate], legs: tuple[str, ...], budget: Budget,
               out: StepResult) -> list[common_pb2.Candidate]:
        """Fill each candidate's document, asking the servers of the legs that retrieved first (every
        retrieval server holds the corpus; the lexical one first); ids the first one lacks (a
        partial ingest) are asked of the next. A candidate found nowhere (deleted since the
        search) is dropped."""
        out.add_time("fetch", 0.0)
        if not fused:
            return fused
        used = {self._stubs.legs[leg].server for leg in legs if leg in self._stubs.legs}
        lexical = self._stubs.legs[LEXICAL_LEG].server if LEXICAL_LEG in self._stubs.legs else ""
        order = sorted(self._stubs.servers, key=lambda name: (name not in used, name != lexical))
        docs: dict[str, common_pb2.Document] = {}
        errors: list[grpc.RpcError] = []
        answered = False
        for name in order:
            wanted = [c.doc_id for c in fused if c.doc_id not in docs]
            if not wanted:
                break
            try:
                resp, ms = _timed(self._stubs.server(name).GetDocuments,
                                  retriever_pb2.GetDocumentsRequest(doc_ids=wanted), budget.for_stage("fetch"))
            except grpc.RpcError as exc:
                errors.append(exc)
                BACKEND_ERRORS.labels(f"{name}_fetch", exc.code().name.lower()).inc()
                log.warning("document fetch failed", extra={"server": name, "code": exc.code().name})
                continue
            answered = True
            out.add_time("fetch", ms)
            docs.update((d.id, d) for d in resp.documents)
        if not answered:
            raise _failed("document fetch failed on every retriever", errors)
        hydrated = []
        for cand in fused:
            if cand.doc_id not in docs:
                log.warning("fused candidate has no stored document; dropped", extra={"doc_id": cand.doc_id})
                continue
            cand.document.CopyFrom(docs[cand.doc_id])
            hydrated.append(cand)
        return hydrated

    def _rerank(self, query: str, fused: list[common_pb2.Candidate], scope: common_pb2.Scope,
                pipeline: PipelineConfig, k: int, budget: Budget, out: StepResult) -> list[common_pb2.Candidate]:
        out.add_time("rerank", 0.0)
        if not pipeline.rerank or not fused:
            return fused[:k]
        req = rerank_pb2.RerankRequest(query=query, candidates=fused[:max(k, pipeline.rerank_pool)], scope=scope,
                                       mode=",".join(pipeline.rerank), k=k, params=dict(pipeline.rerank_params))
        try:
            resp, ms = _timed(self._stubs.rerank.Rerank, req, budget.for_stage("rerank"))
        except DeadlineExceeded:
            out.degraded.append("rerank_skipped_deadline")
            return fused[:k]
        except grpc.RpcError as exc:
            BACKEND_ERRORS.labels("rerank", exc.code().name.lower()).inc()
            out.degraded.append("rerank_unavailable")
            return fused[:k]
        out.add_time("rerank", ms)
        out.rerank_telemetry.update(resp.telemetry)
        return list(resp.candidates)[:k]
