"""run_gate (hints, validation, corpus checks) and the gRPC servicer, called in-process."""

from __future__ import annotations

import grpc
import pytest

from chsr.inprocess import InProcessAbort, InProcessStub
from chsr.scope import Scope
from chsr.v1 import common_pb2, gate_pb2
from chsr.errors import InvalidArgument
from services.gate.logic import run_gate
from services.gate.servicer import GateServicer

pytestmark = pytest.mark.unit


def test_hints_win_field_by_field(bundled):
    result = run_gate("college physics: time dilation at 0.8c", Scope.from_dict({"level": "high_school"}), vocab=bundled)
    assert result.scope.level == ("high_school",) and result.scope.subject == ("physics",)
    assert result.confidence["level"] == (1.0, "client hint")


def test_hinted_paper_is_a_strict_key(bundled):
    result = run_gate("sound in a vacuum", Scope.from_dict({"paper": "NYSED Regents Grade 8 Science"}), vocab=bundled)
    assert result.strict_keys == ["paper"]
    assert "W2" not in [r.label for r in result.ladder]


def test_extract_false_uses_hints_only(bundled):
    result = run_gate("2019 AMC 10A problem 7", Scope.from_dict({"subject": "mathematics"}), extract=False, vocab=bundled)
    assert result.scope == Scope.from_dict({"subject": "mathematics"}) and result.strict_keys == []


def test_strict_scope_only_w0(bundled):
    result = run_gate("high school chemistry buffer question", strict_scope=True, vocab=bundled)
    assert [r.label for r in result.ladder] == ["W0"]


def test_expanded_query_only_when_asked(bundled):
    query = "Mathe-Frage: Welche Lichtquelle sendet Licht mit größerer Wellenlänge aus?"
    assert run_gate(query, vocab=bundled).expanded_query == query
    assert "wavelength" in run_gate(query, expand_query=True, vocab=bundled).expanded_query


def test_year_after_the_corpus_ends_is_said_and_a_pure_lookup_is_never_widened(mini):
    result = run_gate("2025 AMC 10A problem 5 solution", vocab=mini)
    w0 = result.ladder[0]
    assert w0.filter.year == (2025,) and "2025" in w0.description
    assert result.notes and result.topic_terms == []
    assert [s.label for s in result.ladder] == ["W0"]  # nothing to recover by widening: abstain


def test_a_year_the_paper_lacks_inside_the_index_span_is_relaxed_at_w1_when_the_query_has_a_topic(mini):
    result = run_gate("2021 AMC 10A problems about the area of a triangle", vocab=mini)
    w0, nearest, w1 = result.ladder[0], result.ladder[1], result.ladder[2]
    assert w0.filter.year == (2021,) and result.topic_terms
    # the nearest years the paper is held first (services.gate.sittings.with_nearest_years), then every year
    assert nearest.filter.year == (2019, 2024) and nearest.filter.paper == ("AMC 10A",) and nearest.label == "W1"
    assert w1.filter.year == () and w1.filter.paper == ("AMC 10A",)
    assert "year 2021 not held for AMC 10A; nearest years held: 2019, 2024" in w1.description


def test_a_numbered_item_of_a_year_the_paper_lacks_inside_its_span_is_not_relaxed(mini):
    # decision 51: problem 5 of another year is another problem
    result = run_gate("2021 AMC 10A problem 5 solution about the area of a triangle", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"] and result.topic_terms
    assert any("question 5 names an item of that one sitting; not relaxed" in n for n in result.notes)


def test_a_year_after_the_index_ends_is_not_relaxed_even_with_a_topic(mini):
    # curriculum README: "a year after the corpus ends" names a paper that does not exist (services.gate.sittings)
    result = run_gate("2025 AMC 10A problem 5 solution about the area of a triangle", vocab=mini)
    assert [s.label for s in result.ladder] == ["W0"] and result.topic_terms


def test_unknown_paper_is_dropped_at_w1_but_the_question_number_stays(mini):
    result = run_gate("2022年新高考I卷数学第17题 函数 导数", vocab=mini)
    w1 = result.ladder[1]
    assert w1.filter.paper == () and w1.filter.question_number == (17,)
    assert "W2" not in [r.label for r in result.ladder]


@pytest.mark.parametrize("hints, field_name", [
    (Scope.from_dict({"subject": "astrology"}), "hints.subject"),
    (Scope.from_dict({"level": "grade_13"}), "hints.level"),
    (Scope.from_dict({"content_type": "poster"}), "hints.content_type"),
    (Scope.from_dict({"year": 1500}), "hints.year"),
    (Scope.from_dict({"question_number": 0}), "hints.question_number"),
])
def test_invalid_hints_name_the_field(bundled, hints, field_name):
    with pytest.raises(InvalidArgument) as info:
        run_gate("a question", hints, vocab=bundled)
    assert info.value.field == field_name


def test_empty_query_is_rejected(bundled):
    with pytest.raises(InvalidArgument, match="query"):
        run_gate("  ", vocab=bundled)


# ---- servicer ---------------------------------------------------------------
@pytest.fixture(scope="module")
def stub(mini):
    return InProcessStub(GateServicer(mini, max_query_chars=200))


def test_servicer_round_trip(stub):
    request = gate_pb2.GateRequest(query="2019 AMC 10A problem 7 and its solution", extract=True, expand_query=True)
    response = stub.Gate(request)
    scope = Scope.from_proto(response.scope)
    assert scope.paper == ("AMC 10A",) and scope.session == ("A",) and scope.question_number == (7,)
    assert list(response.strict_keys) == ["paper", "question_number"]
    # nothing to drop at W1 (no content type, strict paper + number), W2 and the unfiltered W3
    # are never offered with strict keys
    assert [s.step for s in response.ladder] == [common_pb2.RELAXATION_STEP_W0_EXACT]
    assert not response.ladder[0].lexical_only
    fields = {c.field: c for c in response.confidence}
    assert fields["paper"].confidence > 0.9 and fields["paper"].evidence


def test_servicer_hints(stub):
    request = gate_pb2.GateRequest(query="photosynthesis", hints=common_pb2.Scope(level=["grade_5"]), extract=True)
    assert list(stub.Gate(request).scope.level) == ["grade_5"]


@pytest.mark.parametrize("request_, detail", [
    (gate_pb2.GateRequest(query="", extract=True), "query:"),
    (gate_pb2.GateRequest(query="x" * 201, extract=True), "query:"),
    (gate_pb2.GateRequest(query="waves", hints=common_pb2.Scope(subject=["astrology"]), extract=True), "hints.subject:"),
])
def test_servicer_invalid_argument(stub, request_, detail):
    with pytest.raises(InProcessAbort) as info:
        stub.Gate(request_)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith(detail)


# ---- the evidence path (a probe from the gateway) -------------------------------------
def _probe(meta: dict, n: int = 20) -> list[gate_pb2.ProbeHit]:
    return [gate_pb2.ProbeHit(leg=leg, rank=r, score=1.0 / r, doc_id=f"{leg}{r}", metadata=common_pb2.Metadata(**meta))
            for leg in ("sparse", "dense") for r in range(1, n + 1)]


def test_evidence_without_curriculum_metadata_is_not_a_curriculum_request(stub):
    """A SciFact claim in a mixed index: its topic words are no scope request."""
    request = gate_pb2.GateRequest(query="0-dimensional biomaterials show inductive properties", extract=True,
                                   probe=_probe({}))
    response = stub.Gate(request)
    assert response.label == gate_pb2.SCOPE_LABEL_UNGATED
    assert Scope.from_proto(response.scope).is_empty() and not response.penalties
    assert any("not a curriculum request" in n for n in response.notes)


def test_consistent_evidence_filters_and_a_wrongly_named_subject_is_overruled(stub):
    meta = {"subject": "physics", "level": "grade_12", "content_type": "exam_question", "language": "fr"}
    request = gate_pb2.GateRequest(query="question de chimie : pourquoi un vaisseau spatial s'échauffe-t-il ?",
                                   extract=True, probe=_probe(meta))
    response = stub.Gate(request)
    scope = Scope.from_proto(response.scope)
    assert response.label == gate_pb2.SCOPE_LABEL_GATED and scope.subject == ("physics",)
    subject = next(c for c in response.confidence if c.field == "subject")
    assert subject.action == "filter" and subject.source in ("evidence", "both")


def test_a_hint_still_wins_on_the_evidence_path(stub):
    request = gate_pb2.GateRequest(query="photosynthesis", extract=True, hints=common_pb2.Scope(level=["grade_5"]),
                                   probe=_probe({"subject": "biology", "level": "grade_12"}))
    assert list(stub.Gate(request).scope.level) == ["grade_5"]


# ---- a question number beyond what the index holds of the paper (issue 21, bad input) ----------------------
def test_a_question_number_beyond_the_paper_is_said_and_the_exact_scope_stays_empty(mini):
    result = run_gate("2019 AMC 10A problem 40", vocab=mini)            # the index holds AMC 10A 2019 up to 7
    assert result.scope.question_number == (40,) and [s.label for s in result.ladder] == ["W0"]
    assert any("question 40 is beyond what the index holds of AMC 10A (2019): questions up to 7" in n
               for n in result.notes)
    assert "question 40 is beyond" in result.ladder[0].description
    assert not any("beyond" in n for n in run_gate("2019 AMC 10A problem 7", vocab=mini).notes)


def test_on_the_evidence_path_the_note_reaches_the_answer_and_nothing_is_presented_as_exact(stub):
    meta = {"subject": "mathematics", "level": "grade_10", "content_type": "exam_question", "exam_board": "MAA AMC",
            "paper": "AMC 10A", "year": 2019, "session": "A", "question_number": 7, "language": "en"}
    request = gate_pb2.GateRequest(query="2019 AMC 10A problem 40", extract=True, probe=_probe(meta))
    response = stub.Gate(request)
    scope = Scope.from_proto(response.scope)
    assert scope.paper == ("AMC 10A",) and scope.question_number == (40,)   # W0 asks for what does not exist
    assert any("question 40 is beyond what the index holds of AMC 10A (2019)" in n for n in response.notes)
    assert all(40 in s.filter.question_number for s in response.ladder)    # no rung answers another question


def test_a_question_and_its_answer_asked_together_leave_the_kind_open_on_the_evidence_path(mini):
    """"2018 history 新课标III question + reference answer pls" (round 15, ig_st_syn.01): the text asks for both
    kinds; the probe, all exam questions, no longer filters the kind to exam_question."""
    from services.gate.evidence import EvidenceHit, EvidenceParams

    meta = {"subject": "history", "level": "grade_12", "paper": "Gaokao 新课标III History", "year": 2018,
            "exam_board": "China NCEE (Gaokao)", "content_type": "exam_question", "question_number": 13}
    probe = [EvidenceHit(meta, 1.0, leg, rank) for leg in ("sparse", "dense") for rank in (1, 2, 3)]
    result = run_gate("2018 新课标III history question 13 + reference answer pls", vocab=mini, probe=probe,
                      params=EvidenceParams.load())
    assert result.scope.content_type == ()


@pytest.mark.parametrize("query, note", [
    ("NAEP 2007 gr 8 science released questions - that administration only, no substitutes",
     "the text asks for no substitutes: not relaxed"),
    ("2023全国甲卷 文综 历史+政治 选择题全套", "the text asks for a whole paper: not relaxed"),
    ("AMC 10A 2019, the whole paper please", "the text asks for a whole paper: not relaxed"),
])
def test_a_text_that_rules_out_other_scopes_is_answered_strictly(bundled, query, note):
    """Decision 61: the user's own words rule out every relaxation, as a client's strict_scope does."""
    result = run_gate(query, vocab=bundled)
    assert [r.label for r in result.ladder] == ["W0"]
    assert note in result.notes


@pytest.mark.parametrize("query", [
    "the truck brakes overheating example - full setup and solution please",   # "full setup" is no whole paper
    "high school chemistry buffer question",
])
def test_other_texts_keep_their_ladder(bundled, query):
    assert len(run_gate(query, vocab=bundled).ladder) > 1


def test_a_query_in_traditional_characters_is_read_like_the_simplified_one(bundled):
    """Round 23 (a Hong Kong tutor): "全國三卷 歷史 第15題" names the same paper as 全国三卷 历史 第15题."""
    traditional = run_gate("2019 全國三卷 歷史 第15題", vocab=bundled)
    simplified_ = run_gate("2019 全国三卷 历史 第15题", vocab=bundled)
    assert traditional.scope == simplified_.scope
    assert traditional.scope.paper == ("Gaokao 新课标III History",)


def test_paper_and_session_decided_apart_are_kept_together(mini):
    """"AMC 12 2025 ... log 方程": the evidence leant to one paper and to the other session; a scope of AMC 10A in
    session B holds nothing, so the text's papers come back with their sessions."""
    from services.gate.evidence import EvidenceDecision
    from services.gate.evidence_features import stated_from_extraction
    from services.gate.extract import extract_scope
    from services.gate.inference import _session_beside_paper

    stated = stated_from_extraction(extract_scope("AMC 10 2019 problem 7", mini))
    split = EvidenceDecision({}, Scope(paper=("AMC 10A",), session=("B",)), {}, [], {}, "gated", 1.0)
    kept = _session_beside_paper(split, stated, mini)
    assert kept.filter.paper == ("AMC 10A", "AMC 10B") and kept.filter.session == ("A", "B")
    assert any("not set in session B" in n for n in kept.notes)
    agreeing = EvidenceDecision({}, Scope(paper=("AMC 10A",), session=("A",)), {}, [], {}, "gated", 1.0)
    assert _session_beside_paper(agreeing, stated, mini) is agreeing
