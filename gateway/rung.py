"""One ladder rung: parallel retrieval legs -> fusion -> fetch -> rerank.

Legs run in parallel with the filter pushed into each engine and return ids and
scores only; after fusion the gateway fetches the stored documents of the fused
top (``max(k, rerank_pool)``) in one ``GetDocuments`` call, so the engines load
and serialise tens of documents per query instead of every leg's full depth. A
failed leg degrades the answer (``dense_unavailable`` / ``sparse_unavailable``)
instead of failing it; rerank failure falls back to the fused order (issue 7).
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import grpc

from chsr.metrics import BACKEND_ERRORS
from chsr.v1 import common_pb2, fusion_pb2, rerank_pb2
from gateway.budget import Budget, DeadlineExceeded
from gateway.pipelines import PipelineConfig
from gateway.stages import StageStubs

log = logging.getLogger(__name__)


class StageUnavailable(RuntimeError):
    def __init__(self, message: str, deadline: bool = False) -> None:
        super().__init__(message)
        self.deadline = deadline


@dataclass
class RungOutcome:
    candidates: list[common_pb2.Candidate]
    timings: dict[str, float] = field(default_factory=dict)
    degraded: list[str] = field(default_factory=list)
    telemetry: dict[str, float] = field(default_factory=dict)


def _is_deadline(exc: grpc.RpcError) -> bool:
    return exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED


class RungRunner:
    def __init__(self, stubs: StageStubs, executor: ThreadPoolExecutor) -> None:
        self._stubs = stubs
        self._executor = executor

    def run(self, query: str, flt: common_pb2.Scope, scope: common_pb2.Scope, lexical_only: bool,
            pipeline: PipelineConfig, k: int, budget: Budget) -> RungOutcome:
        out = RungOutcome(candidates=[])
        legs = ("sparse",) if lexical_only else pipeline.legs
        lists = self._retrieve(query, flt, legs, pipeline, max(k, pipeline.depth), budget, out)
        keep = max(k, pipeline.rerank_pool) if pipeline.rerank else k  # what rerank sees, else the answer
        fused = self._fuse(query, lists, pipeline, keep, budget, out)
        fused = self._fetch(fused, tuple(lists), budget, out)
        out.candidates = self._rerank(query, fused, scope, pipeline, k, budget, out)
        return out

    def _retrieve(self, query: str, flt: common_pb2.Scope, legs: tuple[str, ...], pipeline: PipelineConfig,
                  depth: int, budget: Budget, out: RungOutcome) -> dict[str, list[common_pb2.Candidate]]:
        timeout = budget.for_stage("retrieve")
        req = common_pb2.RetrieveRequest(query=query, filter=flt, k=depth, include_documents=False,
                                         post_filter=pipeline.post_filter, exact=pipeline.exact)
        futures = {leg: self._executor.submit(self._timed_call, self._stubs.retriever(leg).Search, req, timeout)
                   for leg in legs}
        lists: dict[str, list[common_pb2.Candidate]] = {}
        errors: list[grpc.RpcError] = []
        for leg, fut in futures.items():
            try:
                resp, ms = fut.result()
                out.timings[leg] = out.timings.get(leg, 0.0) + ms
                lists[leg] = list(resp.candidates)
            except grpc.RpcError as exc:
                errors.append(exc)
                BACKEND_ERRORS.labels(leg, exc.code().name.lower()).inc()
                out.degraded.append(f"{leg}_unavailable")
                log.warning("retrieval leg failed", extra={"leg": leg, "code": exc.code().name})
        if not lists:
            raise StageUnavailable("all retrieval legs failed: " + "; ".join(e.details() or "" for e in errors),
                                   deadline=all(_is_deadline(e) for e in errors))
        return lists

    @staticmethod
    def _timed_call(method, req, timeout):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        resp = method(req, timeout=timeout)
        return resp, (time.perf_counter() - start) * 1000

    def _fuse(self, query: str, lists: dict[str, list[common_pb2.Candidate]], pipeline: PipelineConfig,
              k: int, budget: Budget, out: RungOutcome) -> list[common_pb2.Candidate]:
        if len(lists) == 1:
            only = next(iter(lists.values()))
            out.timings["fusion"] = out.timings.get("fusion", 0.0)
            return only[:k]
        req = fusion_pb2.FuseRequest(mode=pipeline.fusion_mode, k=k, params=dict(pipeline.fusion_params),
                                     query=query)
        for name, cands in lists.items():
            rl = req.lists.add(name=name)
            for c in cands:  # documents stay in the gateway; fusion needs ids and scores only
                rl.candidates.add(doc_id=c.doc_id, score=c.score, rank=c.rank)
        try:
            resp, ms = self._timed_call(self._stubs.fusion.Fuse, req, budget.for_stage("fusion"))
        except grpc.RpcError as exc:
            BACKEND_ERRORS.labels("fusion", exc.code().name.lower()).inc()
            out.degraded.append("fusion_unavailable")
            first = lists.get("sparse") or next(iter(lists.values()))
            return first[:k]
        out.timings["fusion"] = out.timings.get("fusion", 0.0) + ms
        out.telemetry.update(dict(resp.telemetry))
        return [common_pb2.Candidate(doc_id=c.doc_id, score=c.score, rank=c.rank, features=c.features)
                for c in resp.candidates]

    def _fetch(self, fused: list[common_pb2.Candidate], legs: tuple[str, ...], budget: Budget,
               out: RungOutcome) -> list[common_pb2.Candidate]:
        """Fill each candidate's document, sparse first (both retrievers hold the corpus); ids the
        first retriever lacks (a partial ingest) are asked of the other. A candidate found nowhere
        (deleted since the search) is dropped, not returned empty."""
        missing = [c.doc_id for c in fused if not c.HasField("document")]
        if not missing:
            out.timings.setdefault("fetch", 0.0)
            return fused
        order = [leg for leg in ("sparse", "dense") if leg in legs] + \
            [leg for leg in ("sparse", "dense") if leg not in legs]
        docs: dict[str, common_pb2.Document] = {}
        errors: list[grpc.RpcError] = []
        answered = False
        for leg in order:
            wanted = [i for i in missing if i not in docs]
            if not wanted:
                break
            try:
                resp, ms = self._timed_call(self._stubs.retriever(leg).GetDocuments,
                                            common_pb2.GetDocumentsRequest(doc_ids=wanted), budget.for_stage("fetch"))
            except DeadlineExceeded as exc:
                raise StageUnavailable(f"fetch: {exc}", deadline=True) from exc
            except grpc.RpcError as exc:
                errors.append(exc)
                BACKEND_ERRORS.labels(f"{leg}_fetch", exc.code().name.lower()).inc()
                log.warning("document fetch failed", extra={"leg": leg, "code": exc.code().name})
                continue
            answered = True
            out.timings["fetch"] = out.timings.get("fetch", 0.0) + ms
            docs.update((d.id, d) for d in resp.documents)
        if not answered:
            raise StageUnavailable("document fetch failed on every retriever: " +
                                   "; ".join(e.details() or "" for e in errors),
                                   deadline=bool(errors) and all(_is_deadline(e) for e in errors))
        hydrated = []
        for cand in fused:
            if not cand.HasField("document"):
                if cand.doc_id not in docs:
                    log.warning("fused candidate has no stored document; dropped", extra={"doc_id": cand.doc_id})
                    continue
                cand.document.CopyFrom(docs[cand.doc_id])
            hydrated.append(cand)
        return hydrated

    def _rerank(self, query: str, fused: list[common_pb2.Candidate], scope: common_pb2.Scope,
                pipeline: PipelineConfig, k: int, budget: Budget, out: RungOutcome) -> list[common_pb2.Candidate]:
        if not pipeline.rerank or not fused:
            out.timings.setdefault("rerank", 0.0)
            return fused[:k]
        req = rerank_pb2.RerankRequest(query=query, candidates=fused[:max(k, pipeline.rerank_pool)], scope=scope,
                                       mode=",".join(pipeline.rerank), k=k, params=dict(pipeline.rerank_params))
        try:
            resp, ms = self._timed_call(self._stubs.rerank.Rerank, req, budget.for_stage("rerank"))
        except DeadlineExceeded:
            out.degraded.append("rerank_skipped_deadline")
            return fused[:k]
        except grpc.RpcError as exc:
            BACKEND_ERRORS.labels("rerank", exc.code().name.lower()).inc()
            out.degraded.append("rerank_unavailable")
            return fused[:k]
        out.timings["rerank"] = out.timings.get("rerank", 0.0) + ms
        out.telemetry.update({f"rerank_{key}": v for key, v in resp.telemetry.items()})
        return list(resp.candidates)[:k]
