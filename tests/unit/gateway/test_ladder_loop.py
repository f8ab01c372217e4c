"""The gateway's ladder loop, unit-tested over in-process fakes of the stages.

The gate fake returns a scripted ladder (honouring ``strict_scope`` as the real gate does),
the retrievers filter a tiny corpus by the step's filter and rank by shared words, fusion
interleaves. What is checked is the loop's own policy: stop at the first step with on-topic
results, label results with that step, record every step tried, flag violations of the W0
scope, degrade (not fail) on a lost leg, fail closed when the gate is down.
"""

from __future__ import annotations

import grpc
import pytest

from chsr.config import Settings
from chsr.documents import Doc
from chsr.errors import InvalidArgument, Unavailable
from chsr.inprocess import InProcessAbort
from chsr.scope import Scope
from chsr.v1 import common_pb2, fusion_pb2, gate_pb2, gateway_pb2, rerank_pb2, retriever_pb2
from gateway.cache.memory import MemoryCache
from gateway.request import plan_search
from gateway.search import GateFailedClosed, SearchService
from gateway.stubs import StageStubs

pytestmark = pytest.mark.unit

W0, W1, W3 = (common_pb2.RELAXATION_STEP_W0_EXACT, common_pb2.RELAXATION_STEP_W1_DROP_TOPIC,
              common_pb2.RELAXATION_STEP_W3_UNFILTERED_LEXICAL)
CORPUS = [
    Doc("p1", "force equals mass times acceleration", metadata={"subject": "physics", "level": "grade_10"}),
    Doc("p2", "acceleration of a falling ball", metadata={"subject": "physics", "level": "grade_11"}),
    Doc("c1", "acid and base titration", metadata={"subject": "chemistry", "level": "grade_10"}),
]


class FakeGate:
    def __init__(self, ladder: list[common_pb2.LadderStep], topic_terms: list[str], fail: grpc.StatusCode | None = None,
                 penalties: tuple[gate_pb2.FieldPenalty, ...] = ()):
        self.ladder, self.topic_terms, self.fail, self.penalties = ladder, topic_terms, fail, penalties
        self.requests: list[gate_pb2.GateRequest] = []

    def Gate(self, req: gate_pb2.GateRequest, timeout: float) -> gate_pb2.GateResponse:
        self.requests.append(req)
        if self.fail is not None:
            raise InProcessAbort(self.fail, "hints.subject: unknown value" if self.fail == grpc.StatusCode.INVALID_ARGUMENT
                                 else "gate down")
        ladder = self.ladder[:1] if req.strict_scope else self.ladder
        return gate_pb2.GateResponse(scope=self.ladder[0].filter, ladder=ladder, topic_terms=self.topic_terms,
                                     expanded_query=req.query, penalties=self.penalties,
                                     penalty_strength=0.9 if self.penalties else 0.0)


class FakeRetriever:
    def __init__(self, down: bool = False) -> None:
        self.down = down
        self.filters: list[Scope] = []
        self.queries: list[str] = []

    def Retrieve(self, req: retriever_pb2.RetrieveRequest, timeout: float) -> retriever_pb2.RetrieveResponse:
        if self.down:
            raise InProcessAbort(grpc.StatusCode.UNAVAILABLE, "engine down")
        flt = Scope.from_proto(req.filter)
        self.filters.append(flt)
        self.queries.append(req.query)
        words = set(req.query.lower().split())
        scored = [(len(words & set(d.text.split())), d.id) for d in CORPUS if flt.admits(d.metadata)]
        out = retriever_pb2.RetrieveResponse()
        by_id = {d.id: d for d in CORPUS}
        for rank, (score, doc_id) in enumerate(sorted(scored, key=lambda t: (-t[0], t[1])), start=1):
            cand = out.candidates.add(doc_id=doc_id, score=float(score), rank=rank)
            if req.include_metadata:
                cand.document.CopyFrom(by_id[doc_id].to_proto())
        return out

    def GetDocuments(self, req: retriever_pb2.GetDocumentsRequest, timeout: float) -> retriever_pb2.GetDocumentsResponse:
        by_id = {d.id: d for d in CORPUS}
        return retriever_pb2.GetDocumentsResponse(documents=[by_id[i].to_proto() for i in req.doc_ids if i in by_id])


class FakeFusion:
    def __init__(self) -> None:
        self.weights: list[dict[str, float]] = []

    def Fuse(self, req: fusion_pb2.FuseRequest, timeout: float) -> fusion_pb2.FuseResponse:
        self.weights.append({ranked.name: ranked.weight for ranked in req.lists})
        seen: dict[str, float] = {}
        for ranked in req.lists:
            for c in ranked.candidates:
                seen[c.doc_id] = seen.get(c.doc_id, 0.0) + 1.0 / (60 + c.rank)
        best = sorted(seen, key=lambda i: -seen[i])[:req.k or None]   # k = 0: all
        docs = {c.doc_id: c.document for ranked in req.lists for c in ranked.candidates}
        return fusion_pb2.FuseResponse(candidates=[common_pb2.Candidate(doc_id=i, score=seen[i], rank=r, document=docs[i])
                                                   for r, i in enumerate(best, start=1)], telemetry={"lists": 2.0})


class FakeRerank:
    def Rerank(self, req: rerank_pb2.RerankRequest, timeout: float) -> rerank_pb2.RerankResponse:
        return rerank_pb2.RerankResponse(candidates=req.candidates[:req.k], telemetry={"reranked": 1.0})


def service(gate: FakeGate, dense: FakeRetriever | None = None, fusion: FakeFusion | None = None) -> SearchService:
    stubs = StageStubs(gate=gate, fusion=fusion or FakeFusion(), rerank=FakeRerank(),
                       servers={"sparse": FakeRetriever(), "dense": dense or FakeRetriever()})
    return SearchService(stubs, MemoryCache(100), Settings())


def search(svc: SearchService, query: str, pipeline: str, **hints: object) -> gateway_pb2.SearchResponse:
    request = gateway_pb2.SearchRequest(query=query, k=3, pipeline=pipeline, no_cache=True,
                                        hints=Scope.from_dict(hints).to_proto())
    return svc.search(plan_search(request, Settings()), 5.0)


def ladder(*steps: tuple[int, dict]) -> list[common_pb2.LadderStep]:
    return [common_pb2.LadderStep(step=s, filter=Scope.from_dict(f).to_proto(), lexical_only=s == W3) for s, f in steps]


def test_stops_at_the_first_step_with_on_topic_results() -> None:
    gate = FakeGate(ladder((W0, {"subject": "physics", "level": "grade_10"}), (W1, {"subject": "physics"})),
                    ["acceleration"])
    resp = search(service(gate), "acceleration", "E")
    assert [r.doc_id for r in resp.results] == ["p1"] and resp.final_step == W0
    assert [(a.step, a.accepted) for a in resp.relaxation_trace] == [(W0, True)]
    assert dict(resp.rerank_telemetry) == {"reranked": 1.0} and "reranked" not in resp.fusion_telemetry
    assert all(r.relaxation == W0 and not r.violations for r in resp.results)


def test_off_topic_step_widens_and_labels_and_flags_the_results() -> None:
    gate = FakeGate(ladder((W0, {"subject": "chemistry"}), (W1, {"subject": "physics"})), ["falling"])
    resp = search(service(gate), "falling ball", "E")
    assert [(a.step, a.accepted, a.admissible, a.on_topic) for a in resp.relaxation_trace] == \
        [(W0, False, 1, 0), (W1, True, 2, 1)]
    assert resp.final_step == W1 and resp.results[0].doc_id == "p2"
    assert all(r.relaxation == W1 for r in resp.results)
    assert list(resp.results[0].violations) == ["subject"]  # against the W0 scope it was asked for


def test_without_on_topic_results_anywhere_the_narrowest_relaxed_rung_answers_instead_of_w3() -> None:
    gate = FakeGate(ladder((W0, {"subject": "astronomy"}), (W1, {"subject": "chemistry"}), (W3, {})), ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W1
    assert "the narrowest non-empty relaxed rung answers, not W3" in resp.relaxation_trace[1].reason
    assert resp.results and all(r.relaxation == W1 for r in resp.results)


def test_a_ladder_that_ends_on_an_empty_rung_answers_with_the_narrowest_relaxed_rung_that_found_anything() -> None:
    # a named series: its nearest grade's paper holds nothing on the topic, the last rung nothing at all
    gate = FakeGate(ladder((W0, {"subject": "astronomy"}), (W1, {"subject": "chemistry"}), (W1, {"subject": "biology"})),
                    ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W1
    assert "the narrowest non-empty relaxed rung answers, not the empty last rung" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["c1"] and all(r.relaxation == W1 for r in resp.results)


def test_an_empty_w0_with_nothing_on_topic_anywhere_answers_from_the_narrowest_relaxed_rung_not_the_widest() -> None:
    # round 29: "Common Core grade-9 standard ... (in Spanish)": W0 holds nothing, the high-school band and every wider
    # rung hold standards the query's words cannot judge; the nearest scope answers (README: the nearest relaxation)
    gate = FakeGate(ladder((W0, {"subject": "astronomy"}), (W1, {"subject": "chemistry"}), (W1, {})), ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W1
    assert "the narrowest non-empty relaxed rung answers, not the widest rung" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["c1"]
    # ... but a W0 that held results (off topic) leaves the widest rung the answer: it holds W0's own kind too
    gate = FakeGate(ladder((W0, {"subject": "chemistry", "level": "grade_10"}), (W1, {"subject": "physics"}),
                           (W1, {})), ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, False, True] and len(resp.results) == 3


def test_off_topic_w0_results_are_never_the_fallback() -> None:
    gate = FakeGate(ladder((W0, {"subject": "chemistry"}), (W3, {})), ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True] and resp.final_step == W3


def test_the_last_step_is_accepted_when_it_is_the_only_one_with_results() -> None:
    gate = FakeGate(ladder((W0, {"subject": "astronomy"}), (W3, {})), ["volcano"])
    resp = search(service(gate), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True] and resp.final_step == W3


def test_a_pipeline_that_does_not_relax_asks_the_gate_for_w0_only() -> None:
    gate = FakeGate(ladder((W0, {"subject": "chemistry"}), (W1, {"subject": "physics"})), ["falling"])
    resp = search(service(gate), "falling ball", "C")
    assert gate.requests[0].strict_scope and len(resp.relaxation_trace) == 1
    assert [r.doc_id for r in resp.results] == ["c1"] and resp.final_step == W0


def test_a_field_the_gate_could_only_rank_is_settled_by_the_best_match_and_the_answer_says_so() -> None:
    level = gate_pb2.FieldPenalty(field="level", values=["grade_10"], probability=0.5)
    gate = FakeGate(ladder((W0, {"subject": "physics"})), ["acceleration"], penalties=(level,))
    resp = search(service(gate), "acceleration", "E")
    assert [r.doc_id for r in resp.results] == ["p1"]   # p2 (grade 11) matched as well, ranked below: left out
    assert "level settled by the best match: grade_10 (1 result(s) elsewhere left out)" in resp.scope_notes
    unranked = search(service(FakeGate(ladder((W0, {"subject": "physics"})), ["acceleration"])), "acceleration", "E")
    assert {r.doc_id for r in unranked.results} == {"p1", "p2"} and not unranked.scope_notes


def test_a_lost_leg_degrades_the_answer() -> None:
    gate = FakeGate(ladder((W0, {"subject": "physics"})), ["acceleration"])
    resp = search(service(gate, dense=FakeRetriever(down=True)), "acceleration", "C")
    assert list(resp.degraded) == ["dense_unavailable"] and resp.results


def test_gate_down_fails_closed_without_hints_and_degrades_with_them() -> None:
    with pytest.raises(GateFailedClosed) as err:
        search(service(FakeGate([], [], fail=grpc.StatusCode.UNAVAILABLE)), "acceleration", "C")
    assert isinstance(err.value, Unavailable)
    resp = search(service(FakeGate([], [], fail=grpc.StatusCode.UNAVAILABLE)), "acceleration", "C",
                  subject="chemistry")
    assert list(resp.degraded) == ["gate_unavailable_hints_only"]
    assert [r.doc_id for r in resp.results] == ["c1"]


def test_a_gate_invalid_argument_is_the_clients_error() -> None:
    with pytest.raises(InvalidArgument) as err:
        search(service(FakeGate([], [], fail=grpc.StatusCode.INVALID_ARGUMENT)), "acceleration", "C")
    assert err.value.field == "hints.subject"


def test_a_step_that_answers_only_on_topic_is_never_taken_off_topic() -> None:
    # another year's question 12 is another item: off topic, the numbered look-up ends empty (not the last rung)
    steps = ladder((W0, {"subject": "astronomy"}), (W1, {"subject": "chemistry"}))
    steps[1].on_topic_only = True
    resp = search(service(FakeGate(steps, ["volcano"])), "volcano", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, False] and not resp.results
    assert resp.final_step == W0
    assert "answers only on topic" in resp.relaxation_trace[1].reason


def test_a_step_that_answers_only_on_topic_answers_on_topic() -> None:
    steps = ladder((W0, {"subject": "astronomy"}), (W1, {"subject": "physics"}))
    steps[1].on_topic_only = True
    resp = search(service(FakeGate(steps, ["falling", "ball"])), "falling ball", "E")
    assert resp.final_step == W1 and resp.results[0].doc_id == "p2"
    # one shared word is chance, not the asked item (gateway.ontopic.NUMBERED_ELSEWHERE_OVERLAP)
    resp = search(service(FakeGate(steps, ["falling"])), "falling", "E")
    assert resp.final_step == W0 and not resp.results


W2 = common_pb2.RELAXATION_STEP_W2_DROP_LEVEL
MIXED = [
    Doc("e7", "burning wood is a chemical change", metadata={"subject": "science", "level": "grade_7", "language": "en"}),
    Doc("e9", "rusting iron is a chemical change", metadata={"subject": "chemistry", "level": "high_school",
                                                            "language": "en"}),
    Doc("z12", "燃烧 化学变化", metadata={"subject": "chemistry", "level": "grade_12", "language": "zh"}),
]


class LanguageGate(FakeGate):
    """The fake gate, reporting the query's language as ``language``."""

    language = ""

    def Gate(self, req: gate_pb2.GateRequest, timeout: float) -> gate_pb2.GateResponse:
        resp = super().Gate(req, timeout)
        resp.query_language.code = self.language
        return resp


class ChineseGate(LanguageGate):
    language = "zh"


def test_a_rung_in_another_language_answers_before_same_language_material_far_from_the_asked_level(monkeypatch) -> None:
    # grade 7 asked: the English grade-7 rung cannot be judged by the Chinese words; the Chinese grade-12 items
    # share them but lie five grades away
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", MIXED)
    gate = ChineseGate(ladder((W0, {"subject": "chemistry", "level": "grade_7"}),
                              (W1, {"subject": "science", "level": "grade_7"}),
                              (W2, {"subject": ["chemistry", "science"]})), ["燃烧"])
    resp = search(service(gate), "燃烧", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W1
    assert "more than 2 grades from the asked level" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["e7"]


def test_same_language_material_near_the_asked_level_still_wins(monkeypatch) -> None:
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", MIXED)
    gate = ChineseGate(ladder((W0, {"subject": "chemistry", "level": "grade_11"}),
                              (W1, {"subject": "chemistry", "level": "high_school"}),
                              (W2, {"subject": "chemistry", "level": "grade_12"})), ["燃烧"])
    resp = search(service(gate), "燃烧", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, False, True] and resp.final_step == W2
    assert [r.doc_id for r in resp.results] == ["z12"]


def test_a_rung_in_another_language_answers_before_the_unfiltered_pool(monkeypatch) -> None:
    # grade 11 asked: the English high-school rung cannot be judged by the Chinese words; W3 drops the whole scope,
    # and its on-topic results are whatever shares the query's language (here even another subject's)
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", MIXED)
    gate = ChineseGate(ladder((W0, {"subject": "science", "level": "grade_11"}),
                              (W2, {"subject": "science", "level": "grade_7"}),
                              (W3, {})), ["燃烧"])
    resp = search(service(gate), "燃烧", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W2
    assert "the unfiltered pool's" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["e7"]


KINDS = [
    Doc("t1", "table of dielectric constants", metadata={"subject": "physics", "level": "high_school",
                                                        "content_type": "textbook", "language": "en"}),
    Doc("z1", "介电常数 电容器", metadata={"subject": "physics", "level": "grade_12", "content_type": "exam_question",
                                     "language": "zh"}),
]


def test_a_rung_in_another_language_answers_before_a_later_rung_that_leaves_the_kind_asked_for(monkeypatch) -> None:
    # "高三物理 課本裡 介電常數κ的表": the textbook asked for is English; the Chinese items sharing the words are exam items
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", KINDS)
    gate = ChineseGate(ladder((W0, {"subject": "physics", "level": "grade_12", "content_type": "textbook"}),
                              (W2, {"subject": "physics", "level": "high_school", "content_type": "textbook"}),
                              (W2, {"subject": "physics"})), ["介电常数"])
    resp = search(service(gate), "介电常数", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False] and resp.final_step == W2
    assert "leave the content type asked for" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["t1"]


COGNATES = [
    Doc("m1", "impuls und energie einer masse", metadata={"subject": "physics", "level": "high_school",
                                                        "content_type": "exam_question", "language": "en"}),
    Doc("d12", "impuls und energie zweier körper", metadata={"subject": "physics", "level": "grade_12",
                                                            "content_type": "exam_question", "language": "de"}),
    Doc("d12t", "impuls und energie im lehrbuch", metadata={"subject": "physics", "level": "grade_12",
                                                           "content_type": "textbook", "language": "de"}),
]


class GermanGate(LanguageGate):
    language = "de"


def _cognate_ladder(*later: dict) -> list[common_pb2.LadderStep]:
    return ladder((W0, {"subject": "physics", "level": "grade_11", "content_type": "exam_question"}),
                  (W2, {"subject": "physics", "level": "high_school", "content_type": "exam_question"}),
                  *((W2, f) for f in later))


def test_a_rung_on_topic_only_by_words_shared_with_another_language_waits_for_a_nearer_same_language_rung(
        monkeypatch) -> None:
    # "MC-Frage Physik Klasse 11 ... Energie ... Impuls": the English high-school items share the German words;
    # the German grade-12 items, one grade from the asked level, answer
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", COGNATES)
    gate = GermanGate(_cognate_ladder({"subject": "physics", "level": ["grade_11", "grade_12", "high_school"],
                                       "content_type": "exam_question"}), ["impuls", "energie"])
    resp = search(service(gate), "impuls energie", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, False, True] and resp.final_step == W2
    assert resp.relaxation_trace[1].on_topic == 1
    assert resp.results[0].doc_id == "d12"


def test_the_rung_on_topic_by_shared_words_answers_when_the_later_rung_moves_more_than_the_level(monkeypatch) -> None:
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", COGNATES)
    gate = GermanGate(_cognate_ladder({"subject": "physics", "level": ["grade_11", "grade_12", "high_school"]}),
                      ["impuls", "energie"])
    resp = search(service(gate), "impuls energie", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False]
    assert "later rungs move more than the level" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["m1"]


def test_the_rung_on_topic_by_shared_words_answers_when_same_language_results_are_far_from_the_asked_level(
        monkeypatch) -> None:
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", COGNATES)
    gate = GermanGate(ladder((W0, {"subject": "physics", "level": "grade_8", "content_type": "exam_question"}),
                             (W2, {"subject": "physics", "level": "high_school", "content_type": "exam_question"}),
                             (W2, {"subject": "physics", "level": ["grade_8", "grade_12", "high_school"],
                                   "content_type": "exam_question"})), ["impuls", "energie"])
    resp = search(service(gate), "impuls energie", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True, False]
    assert "in the query's language within 2 grades of the asked level" in resp.relaxation_trace[1].reason
    assert [r.doc_id for r in resp.results] == ["m1"]


def test_a_chinese_querys_english_words_judge_the_english_rung(monkeypatch) -> None:
    # "给高一学生找几道英文 biology 选择题, Hardy-Weinberg": the English words are the results' own, not cognates
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", MIXED)
    gate = ChineseGate(ladder((W0, {"subject": "chemistry", "level": "grade_11"}),
                              (W1, {"subject": "chemistry", "level": "high_school"}),
                              (W2, {"subject": "chemistry", "level": ["grade_11", "grade_12", "high_school"]})),
                       ["rusting", "燃烧"])
    resp = search(service(gate), "rusting 燃烧", "E")
    assert [a.accepted for a in resp.relaxation_trace] == [False, True] and resp.final_step == W1
    assert [r.doc_id for r in resp.results] == ["e9"]


NUMBERED = [
    Doc("q7", "for how many integers n is 4000 times two fifths to the n an integer",
        metadata={"subject": "mathematics", "paper": "AMC 12A", "year": 2018, "question_number": 7,
                  "content_type": "exam_question", "language": "en"}),
    Doc("q7s", "the answer is 9", metadata={"subject": "mathematics", "paper": "AMC 12A", "year": 2018,
                                             "question_number": 7, "content_type": "solution", "language": "en"}),
]
ITEM = {"paper": "AMC 12A", "year": 2018, "question_number": 7}


class SpanishGate(LanguageGate):
    language = "es"


def test_the_named_question_in_another_language_answers_itself(monkeypatch) -> None:
    # "AMC 12A 2018, problema 7 (...) ¿para cuántos enteros n ...": the English item shares no word with the Spanish
    # query; judged by words the ladder left it for its solution alone
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", NUMBERED)
    gate = SpanishGate(ladder((W0, {**ITEM, "content_type": "exam_question"}),
                              (W1, {**ITEM, "content_type": "solution"})), ["enteros"])
    resp = search(service(gate), "problema 7 enteros", "E")
    assert resp.final_step == W0 and [r.doc_id for r in resp.results] == ["q7"]
    assert "the named question, in another language: not judged by words" in resp.relaxation_trace[0].reason


def test_the_named_question_in_another_language_climbs_when_the_next_rung_still_holds_it(monkeypatch) -> None:
    # "... Q11 ... problem + official answer both pls": the rung that drops the kind keeps the question and adds its
    # marking material (a rung to reading material between them is not the item's next rung)
    monkeypatch.setattr("tests.unit.gateway.test_ladder_loop.CORPUS", NUMBERED)
    gate = SpanishGate(ladder((W0, {**ITEM, "content_type": "exam_question"}),
                              (W1, {**ITEM, "content_type": "textbook"}),
                              (W1, ITEM)), ["enteros"])
    resp = search(service(gate), "problema 7 enteros", "E")
    assert resp.relaxation_trace[0].accepted is False
    assert sorted(r.doc_id for r in resp.results) == ["q7", "q7s"]


def test_the_probe_searches_a_spanish_query_without_its_grammar_words_and_the_ladder_with_them() -> None:
    gate = FakeGate(ladder((W0, {"subject": "physics"})), ["aceleración"])
    dense = FakeRetriever()
    search(service(gate, dense), "la aceleración de la pelota que cae", "E")
    assert dense.queries[0] == "aceleración pelota cae"          # the probe, before the gate
    assert dense.queries[1] == "la aceleración de la pelota que cae"


@pytest.mark.parametrize("query, pipeline, dense_weight", [
    ("2009 新课标 理数 二项式 展开式 常数项 选择题", "E", 0.1),   # written in Chinese only: the English encoder barely counts
    ("2009 新课标 理数 binomial 展开式 常数项", "E", 1.0),          # a Latin word the encoder reads
    ("acceleration of a falling ball", "E", 1.0),
    ("2009 新课标 理数 二项式 展开式 常数项 选择题", "C", 1.0),   # the ablation's C fuses as the paper does
])
def test_the_dense_list_barely_counts_in_es_fusion_for_a_query_written_in_chinese_only(query, pipeline, dense_weight):
    gate = FakeGate(ladder((W0, {"subject": "physics"})), ["acceleration"])
    fusion = FakeFusion()
    search(service(gate, fusion=fusion), query, pipeline)
    assert fusion.weights and all(w == {"sparse": 1.0, "dense": pytest.approx(dense_weight)} for w in fusion.weights)
