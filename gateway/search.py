"""The gateway's query flow, top to bottom.

validated plan -> cache -> gate (scope + ladder) -> for each ladder step: retrieve
(parallel, filter pushed down) -> fuse -> fetch -> rerank -> sufficiency -> respond.
The ladder's policy (which steps exist for this query and pipeline) is the gate's;
the gateway only walks it and decides where to stop.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Sequence

import grpc

from chsr.config import Settings
from chsr.documents import Doc
from chsr.errors import ChsrError, InvalidArgument, Unavailable, from_rpc_error
from chsr.levels import NEAR_GRADES
from chsr.metrics import CACHE_EVENTS, DEGRADED, LEAKAGE_FLAGGED, RELAXATION_STEPS, RESULTS, STAGE_LATENCY
from chsr.query_language import probe_text, written_in_han
from chsr.relaxation import W0, step_label
from chsr.scope import Scope
from chsr.stages import LEGS, SEARCH_STAGES
from chsr.text import has_cjk
from chsr.v1 import common_pb2, gate_pb2, gateway_pb2
from gateway.budget import Budget
from gateway.cache.base import CacheUnavailable, ResultCache, cache_key
from gateway.catalogue_sync import CatalogueSync
from gateway.ontopic import (answers_elsewhere, drops_asked_kind, exact_item_in_another_language, far_from_asked,
                             is_on_topic, judged_by_words, near_in_language, sitting_stems, topic_stems,
                             words_can_judge)
from gateway.pipelines import PipelineConfig
from gateway.preference import Preference, settle_by_top
from gateway.request import SearchPlan
from gateway.step import ProbeLists, StepResult, StepRunner
from gateway.stubs import StageStubs
from gateway.translations import order_by_language
from gateway.vectors import QueryVectors
from gateway.versions import MAX_VERSIONS, after_first, versions_to_add

log = logging.getLogger(__name__)
STAMPEDE_WAIT_S = 0.15   # how long a request waits for another's computation of the same key
STAMPEDE_POLL_S = 0.02


class GateFailedClosed(Unavailable):
    """The gate is down and the pipeline needs it: refuse rather than answer ungated."""


@dataclass
class GateOutcome:
    scope: common_pb2.Scope
    ladder: list[common_pb2.LadderStep]
    confidence: list[common_pb2.FieldConfidence]
    query: str
    topic_terms: list[str]
    response: gate_pb2.GateResponse | None = None   # the gate's answer, when it was asked
    probe: ProbeLists | None = None                # the probe's lists, which a ladder step may reuse

    @property
    def preference(self) -> Preference:
        return Preference.from_gate(self.response) if self.response is not None else Preference()

    @property
    def language(self) -> common_pb2.QueryLanguage | None:
        if self.response is None or not self.response.HasField("query_language"):
            return None
        return self.response.query_language


@dataclass
class Accepted:
    """The step whose results are returned, with each candidate's document parsed once."""

    step: int
    candidates: list[common_pb2.Candidate]
    docs: list[Doc]
    notes: list[list[str]] | None = None   # per result (e.g. a translation's language label)


class SearchService:
    def __init__(self, stubs: StageStubs, cache: ResultCache, settings: Settings,
                 catalogue: CatalogueSync | None = None) -> None:
        self._stubs = stubs
        self._catalogue = catalogue
        self._cache = cache
        self._settings = settings
        self._executor = ThreadPoolExecutor(max_workers=32, thread_name_prefix="legs")
        self._steps = StepRunner(stubs, self._executor)
        self._reuse_legs = frozenset(leg.strip() for leg in settings.probe_reuse_legs.split(",") if leg.strip())

    # ---- entry point -------------------------------------------------------
    def search(self, plan: SearchPlan, budget_s: float) -> gateway_pb2.SearchResponse:
        """``budget_s`` is already bounded (``chsr.deadline.call_budget_s``): never the
        unbounded remaining time of a call without a deadline."""
        budget = Budget(budget_s)
        started = time.perf_counter()
        self._steps.check_legs(plan.pipeline)
        key, degraded, locked = None, [], False
        if not plan.request.no_cache:
            cached, key, degraded = self._cache_lookup(plan)
            if cached is None and key is not None:
                locked, cached = self._single_flight(key, budget)
            if cached is not None:
                cached.timings.add(stage="total", ms=(time.perf_counter() - started) * 1000)
                return cached
        try:
            response = self._compute(plan, budget)
            response.degraded.extend(degraded)
            response.timings.add(stage="total", ms=(time.perf_counter() - started) * 1000)
            self._observe(response, plan.pipeline)
            if key is not None and "cache_unavailable" not in degraded:
                self._cache_store(key, response)
            return response
        finally:
            if locked:
                self._cache_unlock(key)

    # ---- cache -------------------------------------------------------------
    def _cache_lookup(self, plan: SearchPlan) -> tuple[gateway_pb2.SearchResponse | None, str | None, list[str]]:
        start = time.perf_counter()
        try:
            key = cache_key(plan.query, plan.hints, plan.pipeline, plan.k, plan.request.strict_scope,
                            self._cache.generation())
            blob = self._cache.get(key)
        except CacheUnavailable:
            CACHE_EVENTS.labels("bypass").inc()
            DEGRADED.labels("cache_unavailable").inc()
            return None, None, ["cache_unavailable"]
        STAGE_LATENCY.labels("cache", plan.pipeline.name).observe(time.perf_counter() - start)
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
        """Stampede protection on a missed key: the first request takes the key's lock and
        computes; the others poll for its result every 20 ms for up to 150 ms (about one
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

    def _cache_unlock(self, key: str | None) -> None:
        try:
            if key is not None:
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
    def _gate(self, plan: SearchPlan, budget: Budget, timings: dict[str, float], degraded: list[str],
              vectors: QueryVectors) -> GateOutcome:
        pipeline, request = plan.pipeline, plan.request
        if pipeline.gate == "none":
            step = common_pb2.LadderStep(step=W0, description="ungated")
            return GateOutcome(common_pb2.Scope(), [step], [], plan.query, [])
        # A pipeline that does not relax asks for W0 only, exactly like a strict client.
        extract = pipeline.gate == "extract"
        req = gate_pb2.GateRequest(query=plan.query, hints=request.hints, extract=extract,
                                   strict_scope=request.strict_scope or not pipeline.relaxation,
                                   expand_query=pipeline.expansion)
        depth = self._settings.gate_probe_depth
        lists: ProbeLists | None = None
        if extract and depth > 0:  # the evidence: what the query's words match in the whole index
            probe, timings["probe"], lists = self._steps.probe(
                probe_text(plan.query), LEGS, depth, budget, vectors, exact=pipeline.exact,
                reuse_depth=max(plan.k, pipeline.depth), reuse_legs=self._reuse_legs)
            req.probe.extend(probe)
        start = time.perf_counter()
        try:
            resp = self._stubs.gate.Gate(req, timeout=budget.for_stage("gate"))
        except grpc.RpcError as exc:
            error = from_rpc_error(exc, "gate")
            if isinstance(error, InvalidArgument):
                raise error from exc
            if plan.hints.is_empty() and pipeline.gate == "extract":
                raise GateFailedClosed(f"gate unavailable ({exc.code().name}); refusing an ungated answer") from exc
            degraded.append("gate_unavailable_hints_only")
            step = common_pb2.LadderStep(step=W0, filter=request.hints, description="client hints only (gate unavailable)")
            return GateOutcome(request.hints, [step], [], plan.query, [])
        finally:
            timings["gate"] = (time.perf_counter() - start) * 1000
        if self._catalogue is not None:
            self._catalogue.note_gate_version(resp.catalogue_version)
        query = resp.expanded_query if pipeline.expansion and resp.expanded_query else plan.query
        return GateOutcome(resp.scope, list(resp.ladder), list(resp.confidence), query, list(resp.topic_terms), resp,
                           lists)

    # ---- the ladder loop -------------------------------------------------------
    def _compute(self, plan: SearchPlan, budget: Budget) -> gateway_pb2.SearchResponse:
        pipeline, k = plan.pipeline, plan.k
        timings: dict[str, float] = {s: 0.0 for s in SEARCH_STAGES}
        degraded: list[str] = []
        vectors = QueryVectors()  # each query text is encoded once per request
        gate = self._gate(plan, budget, timings, degraded, vectors)
        stems = topic_stems(gate.topic_terms)
        whole_words = sitting_stems(stems)  # a topical request's exact scope: whole Chinese words, not characters
        response = gateway_pb2.SearchResponse(scope=gate.scope, confidence=gate.confidence, pipeline=pipeline.name,
                                              expanded_query=gate.query, index_generation=self._cache_generation())
        preference = gate.preference
        if gate.response is not None and gate.response.label == gate_pb2.SCOPE_LABEL_UNGATED:
            # Nothing confident: the answer is the ungated one, labelled; the curriculum reranker has
            # no scope to align with (other rerank stages, e.g. a cross-encoder, still run).
            pipeline = replace(pipeline, rerank=tuple(s for s in pipeline.rerank if s != "curriculum"))
        if gate.language is not None:
            response.query_language.CopyFrom(gate.language)
        if gate.response is not None:
            response.scope_label = gate.response.label
            response.scope_notes.extend(gate.response.notes)
            if gate.probe is not None and gate.probe.failed:
                response.scope_notes.append(f"evidence probe: {', '.join(gate.probe.failed)} did not answer; the gate "
                                            "decided without its hits and the ladder retrieved it in full")
            response.penalties.extend(gate.response.penalties)
        accepted = Accepted(W0, [], [])
        # The narrowest relaxed rung that found anything: the answer instead of the unfiltered W3, of a last rung
        # that found nothing, or (when W0 held nothing) of the widest rung, when no rung finds on-topic results (an
        # unfiltered or wider pool with nothing on-topic is no better than a nearer one, and it leaves more of the
        # asked scope: README, relaxation goes to the nearest scope; an empty answer hides what the nearer rung
        # found). W0 is not such a rung: off-topic results are never labelled exact. Where W0 held results, the
        # widest rung still answers: it holds W0's own material (a solution asked for, beside the question).
        narrowest: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]] | None = None
        # The first relaxed rung whose every result is in another language than the query's: its words cannot judge
        # it ("初一科学 理化部分 物理变化vs化学变化" shares no word with the English grade-7 science items). It answers
        # instead of a later rung whose on-topic results all lie more than NEAR_GRADES from the asked level, or that
        # leaves the content type asked for (_why_foreign_answers, gateway.ontopic).
        foreign: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]] | None = None
        # The first relaxed rung of that kind that is on topic only by words a Latin-script query shares with another
        # language's items (cognates): it answers unless a later rung that moves only the level finds on-topic results
        # in the query's language near the asked level (decision 69).
        cognate: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]] | None = None
        language = gate.language.code if gate.language is not None else ""
        latin_query = bool(language) and not has_cjk(plan.query)  # a CJK query's Latin words are the results' own
        asked = Scope.from_proto(gate.scope)
        # the English encoder's list barely counts for a query written in Chinese only (PipelineConfig.han_dense_weight)
        weights = {"dense": pipeline.han_dense_weight} if written_in_han(plan.query) else None
        for i, step in enumerate(gate.ladder):
            flt = gate.scope if pipeline.post_filter else step.filter
            outcome = self._steps.run(gate.query, step, flt, gate.scope, pipeline, k, budget, preference, vectors,
                                      gate.probe, weights)
            for stage, ms in outcome.timings.items():
                timings[stage] = timings.get(stage, 0.0) + ms
            degraded.extend(d for d in outcome.degraded if d not in degraded)
            docs = [Doc.from_proto(c.document) for c in outcome.candidates]
            step_scope = Scope.from_proto(step.filter)
            # W0's named question in another language answers itself, unless the item's next rung still holds it
            by_words = judged_by_words(step_scope) and not (
                step.step == W0 and exact_item_in_another_language(step_scope, docs, language)
                and not _next_rung_holds(gate.ladder, i, docs))
            # a topical request's exact scope (and a rung that answers only on topic) is judged by whole words
            topical = not step_scope.question_number and (step.step == W0 or step.on_topic_only)
            judge = whole_words if topical else stems
            on_topic = sum(answers_elsewhere(d.full_text, judge) if step.on_topic_only and by_words
                           else is_on_topic(d.full_text, judge if by_words else set()) for d in docs)
            # a step that answers only on topic (another year's numbered question) is never taken off topic
            answers = on_topic > 0 or not step.on_topic_only
            all_foreign = bool(docs) and step.step != W0 and not step.lexical_only and not step.on_topic_only \
                and not words_can_judge(docs, language)
            # Such a rung, on topic only by the words a Latin-script query shares with another language's items
            # (cognates: "Energie", "Masse", "Impuls"), waits for a nearer rung in the query's language (decision 69)
            cognates = all_foreign and on_topic > 0 and by_words and i < len(gate.ladder) - 1 and latin_query
            done = (on_topic > 0 and not cognates) or (i == len(gate.ladder) - 1 and answers) or not pipeline.relaxation
            reason = ("on-topic results in scope" if on_topic else "no on-topic results") + \
                ("" if by_words else " (the marking material of the named question: not judged by words)"
                 if step.step != W0 else " (the named question, in another language: not judged by words)") + \
                ("" if answers else " (another year's numbered question answers only on topic)") + \
                (f"; {len(docs)} < k_min={pipeline.k_min}" if len(docs) < pipeline.k_min else "") + \
                (f"; {', '.join(outcome.from_probe)} from the probe's lists" if outcome.from_probe else "")
            response.relaxation_trace.add(step=step.step, filter=step.filter, admissible=len(docs),
                                          on_topic=on_topic, accepted=done, reason=reason)
            RELAXATION_STEPS.labels(pipeline.name, step_label(step.step)).inc()
            if docs and narrowest is None and step.step != W0 and not step.lexical_only and answers:
                narrowest = (len(response.relaxation_trace) - 1, step, outcome, docs)
            if foreign is None and all_foreign:
                foreign = (len(response.relaxation_trace) - 1, step, outcome, docs)
            if cognate is None and cognates:
                cognate = (len(response.relaxation_trace) - 1, step, outcome, docs)
            by_cognates = _why_cognates_answer(step, docs, stems, asked, cognate, language) \
                if done and on_topic and cognate is not None and cognate[1] is not step else ""
            later = _why_foreign_answers(step, docs, stems if by_words else set(), asked, foreign) \
                if done and on_topic and foreign is not None and foreign[1] is not step and cognate is None else ""
            if by_cognates:
                step, outcome, docs = _fall_back(response, cognate, "; every result in another language than the "
                                                 f"query's, on topic by shared words, and the {by_cognates}: this rung "
                                                 "answers")
            elif later:
                step, outcome, docs = _fall_back(response, foreign, "; every result in another language than the "
                                                 f"query's, so not judged by its words, and the {later}: this rung answers")
            elif done and not on_topic and cognate is not None and cognate[1] is not step:
                step, outcome, docs = _fall_back(response, cognate, _NOTHING_NEARER)
            elif done and not on_topic and narrowest is not None and narrowest[1] is not step \
                    and (step.lexical_only or not docs or not response.relaxation_trace[0].admissible):
                instead = "W3" if step.lexical_only else ("the empty last rung" if not docs else "the widest rung")
                step, outcome, docs = _fall_back(response, narrowest, "; no rung found on-topic results: the "
                                                 f"narrowest non-empty relaxed rung answers, not {instead}")
            if done:
                accepted = self._accept(response, step, outcome, docs, preference, gate)
                break
        else:  # the last steps answer only on topic and found nothing: the rung on topic by shared words, or the
            # narrowest relaxed rung, if any
            if cognate is not None:
                step, outcome, docs = _fall_back(response, cognate, _NOTHING_NEARER)
                accepted = self._accept(response, step, outcome, docs, preference, gate)
            elif narrowest is not None:
                step, outcome, docs = _fall_back(response, narrowest, "; no rung found on-topic results: the "
                                                 "narrowest non-empty relaxed rung answers")
                accepted = self._accept(response, step, outcome, docs, preference, gate)
        if pipeline.versions:
            accepted = self._with_versions(accepted, Scope.from_proto(gate.scope), k, budget, timings, degraded)
        self._fill_results(response, accepted, Scope.from_proto(gate.scope))
        response.final_step = accepted.step
        response.degraded.extend(degraded)
        for stage in SEARCH_STAGES:
            response.timings.add(stage=stage, ms=timings.get(stage, 0.0))
        return response

    def _with_versions(self, accepted: Accepted, scope: Scope, k: int, budget: Budget, timings: dict[str, float],
                       degraded: list[str]) -> Accepted:
        """The answer with its first result's versions in other languages right after it (gateway.versions)."""
        index = self._catalogue.versions if self._catalogue is not None else None
        if index is None or not accepted.candidates:
            return accepted
        versions = index.versions_of(accepted.candidates[0].doc_id)[:MAX_VERSIONS]
        if not versions:
            return accepted
        wanted = versions_to_add(accepted.candidates[0].doc_id, [c.doc_id for c in accepted.candidates], index)
        fetched: list[common_pb2.Candidate] = []
        if wanted:
            out = StepResult(candidates=[])
            try:
                fetched = self._steps.documents(wanted, budget, out)
            except ChsrError:  # the answer stands without them
                degraded.append("versions_unavailable")
            timings["fetch"] = timings.get("fetch", 0.0) + out.timings.get("fetch", 0.0)
        notes = accepted.notes or [[] for _ in accepted.candidates]
        candidates, notes = after_first(list(accepted.candidates), notes, scope, versions, fetched, k)
        docs = {c.doc_id: d for c, d in zip(accepted.candidates, accepted.docs)}
        return Accepted(accepted.step, candidates,
                        [docs.get(c.doc_id) or Doc.from_proto(c.document) for c in candidates], notes)

    @staticmethod
    def _accept(response: gateway_pb2.SearchResponse, step: common_pb2.LadderStep, outcome: StepResult,
                docs: list[Doc], preference: Preference, gate: GateOutcome) -> Accepted:
        """The answer of the accepted step: settled by its top result and ordered by the asked language."""
        pairs, settled = settle_by_top(list(zip(outcome.candidates, docs)), preference, itemgetter(0))
        response.scope_notes.extend(settled)
        pairs, notes = order_by_language(pairs, gate.language, lambda p: p[0].document.metadata,
                                         lambda p: p[0].doc_id)
        response.fusion_telemetry.update(outcome.fusion_telemetry)
        response.rerank_telemetry.update(outcome.rerank_telemetry)
        return Accepted(step.step, [c for c, _ in pairs], [d for _, d in pairs], notes)

    @staticmethod
    def _fill_results(response: gateway_pb2.SearchResponse, accepted: Accepted, scope: Scope) -> None:
        notes = accepted.notes or [[] for _ in accepted.candidates]
        for rank, (cand, doc, labels) in enumerate(zip(accepted.candidates, accepted.docs, notes), start=1):
            response.results.add(doc_id=cand.doc_id, title=doc.title, text=doc.text, score=cand.score,
                                 metadata=cand.document.metadata, relaxation=accepted.step,
                                 violations=scope.violations(doc.metadata), rank=rank,
                                 citation=doc.cited().to_proto(), notes=labels)

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
            RESULTS.labels(pipeline.name, step_label(r.relaxation)).inc()
            if r.violations:
                LEAKAGE_FLAGGED.labels(pipeline.name).inc()
        for reason in response.degraded:
            DEGRADED.labels(reason).inc()


#: Why the rung on topic by words shared with another language answers when no later rung found anything on topic.
_NOTHING_NEARER = ("; every result in another language than the query's, on topic by shared words, and no later rung "
                   "found on-topic results: this rung answers")


def _why_cognates_answer(step: common_pb2.LadderStep, docs: list[Doc], stems: set[str], asked: Scope,
                         cognate: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]], language: str) -> str:
    """Why the rung on topic by words shared with another language answers instead of ``step``, a later rung with
    on-topic results; "" when ``step`` moves only the level and holds an on-topic result in the query's language
    within ``NEAR_GRADES`` of the asked level ("MC-Frage Physik Klasse 11 ... Impuls": the German grade-12 items, not
    the English high-school ones that share "Energie" and "Masse" with it)."""
    if step.lexical_only:
        return "later rungs' on-topic results are the unfiltered pool's"
    later, answering = Scope.from_proto(step.filter), Scope.from_proto(cognate[1].filter)
    if not later.level or later.without("level") != answering.without("level"):
        return "later rungs move more than the level"
    if not near_in_language(docs, stems, asked.level, language):
        return f"later rungs hold no on-topic result in the query's language within {NEAR_GRADES} grades of the asked level"
    return ""


def _why_foreign_answers(step: common_pb2.LadderStep, docs: list[Doc], stems: set[str], asked: Scope,
                         foreign: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]]) -> str:
    """Why the first all-other-language rung answers instead of ``step``, a later rung with on-topic results; "" when
    it does not: ``step`` is the unfiltered pool, or its on-topic results lie more than ``NEAR_GRADES`` from the asked
    level, or it leaves the content type asked for (``gateway.ontopic``)."""
    if step.lexical_only:
        return "later rungs' on-topic results are the unfiltered pool's"
    if far_from_asked(docs, stems, asked.level):
        return f"on-topic results of later rungs are more than {NEAR_GRADES} grades from the asked level"
    if drops_asked_kind(Scope.from_proto(foreign[1].filter), Scope.from_proto(step.filter), asked):
        return "later rungs leave the content type asked for"
    return ""


#: Content types of reading material: a rung that moves a numbered look-up to them is not the item's next rung.
_READING = frozenset({"textbook", "syllabus"})


def _next_rung_holds(ladder: Sequence[common_pb2.LadderStep], i: int, docs: list[Doc]) -> bool:
    """Whether the next rung after ``ladder[i]`` that still names a question number (a rung to reading material
    skipped) admits every one of ``docs``: it may add the question's marking material beside it ("problem + official
    answer both pls"). False where that rung moves to the question's marking material alone, or there is none."""
    for later in ladder[i + 1:]:
        following = Scope.from_proto(later.filter)
        if not following.question_number or (following.content_type and set(following.content_type) <= _READING):
            continue
        return all(not following.violations(d.metadata) for d in docs)
    return False


def _fall_back(response: gateway_pb2.SearchResponse, rung: tuple[int, common_pb2.LadderStep, StepResult, list[Doc]],
               why: str) -> tuple[common_pb2.LadderStep, StepResult, list[Doc]]:
    """Answer with an earlier rung instead of the last one tried: the trace says which one answers, and why."""
    at, step, outcome, docs = rung
    response.relaxation_trace[-1].accepted = False
    response.relaxation_trace[at].accepted = True
    response.relaxation_trace[at].reason += why
    return step, outcome, docs
