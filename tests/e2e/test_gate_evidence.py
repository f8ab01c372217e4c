"""The gate decides on evidence, through the mesh: on the embedded default and on the engines.

The gateway probes each leg's unfiltered top hits; the gate reads scope from them and from the
text. Checked as a client sees it: a quoted item gets its own scope (level included, though the
query never states it); a wrongly named subject is overruled by the evidence, and the answer says
so; documents without curriculum metadata (abstracts mixed into the index) make a claim about them
an UNGATED answer — not filtered to curriculum chunks; bad input gets a labelled scope, never an error.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Iterator

import pytest

from chsr.client import GatewayClient
from chsr.documents import Doc
from chsr.scope import Scope
from chsr.v1 import common_pb2, gate_pb2
from tests.conftest import DEMO_CORPUS, Mesh, start_mesh
from tests.faults.harness import drop_engine_data, require_engines
from tools.corpus import read_corpus

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ABSTRACTS = [Doc(f"abstract:{i}", text, metadata={}) for i, text in enumerate([
    "Zero-dimensional biomaterials show inductive properties in bone regeneration scaffolds implanted in rabbits.",
    "Inductive zero-dimensional biomaterial nanoparticles promote osteogenic differentiation of stem cells in vitro.",
    "A cohort study of biomaterial implants: inductive surface chemistry and long-term bone integration outcomes.",
])]
QUOTED = "A cyclist travels 1.2 km along a straight road in 4 minutes at a steady speed"


def _ingest(m: Mesh) -> None:
    client = GatewayClient(m.gateway)
    client.ingest(read_corpus(DEMO_CORPUS))
    client.ingest(ABSTRACTS)
    # the gate learns what the index holds from the catalogue the gateway sends it (CHSR_CATALOGUE_POLL_S): wait
    # until it knows the demo's papers, or a test that runs first sees a gate without a catalogue
    deadline = time.monotonic() + 30
    while not any("beyond what the index holds" in n for n in client.search(
            "Northfield 2019 physics paper 1 question 40", k=1, pipeline="E", no_cache=True).scope_notes):
        assert time.monotonic() < deadline, "the gate never received the catalogue"
        time.sleep(0.5)


@pytest.fixture(scope="module", params=["embedded", "engines"])
def mesh_both(request, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mesh]:
    env: dict[str, str] = {}
    if request.param == "engines":
        require_engines()
        tag = uuid.uuid4().hex[:8]
        env = {"CHSR_ES_INDEX": f"chsr-gate-{tag}", "CHSR_WEAVIATE_COLLECTION": f"ChsrGate{tag}",
               "CHSR_REDIS_URL": "redis://127.0.0.1:16379/6"}
    m = start_mesh(Path(tmp_path_factory.mktemp(f"gate-{request.param}")), backend=request.param, extra_env=env)
    try:
        _ingest(m)
        yield m
    finally:
        m.supervisor.stop_all()  # type: ignore[attr-defined]
        if env:
            drop_engine_data(env["CHSR_ES_INDEX"], env["CHSR_WEAVIATE_COLLECTION"])


def test_a_quoted_item_gets_its_scope_from_the_evidence(mesh_both):
    resp = GatewayClient(mesh_both.gateway).search(QUOTED, k=5, pipeline="C", no_cache=True)
    scope = Scope.from_proto(resp.scope)
    assert resp.scope_label == gate_pb2.SCOPE_LABEL_GATED
    assert scope.subject == ("physics",) and scope.level == ("grade_10",)  # the level is never stated
    assert resp.results[0].doc_id == "demo:nfb_phys_2017_p1_q1"
    assert all(not r.violations for r in resp.results)
    level = next(c for c in resp.confidence if c.field == "level")
    assert level.source == "evidence" and level.action == "filter"


def test_a_wrongly_named_subject_is_overruled_and_the_answer_says_so(mesh_both):
    resp = GatewayClient(mesh_both.gateway).search("chemistry question: " + QUOTED, k=5, pipeline="C", no_cache=True)
    assert Scope.from_proto(resp.scope).subject == ("physics",)
    subject = next(c for c in resp.confidence if c.field == "subject")
    assert "evidence decides" in subject.conflict and any("evidence decides" in n for n in resp.scope_notes)
    assert resp.results[0].metadata.subject == "physics"


def test_a_stated_level_the_material_is_not_at_is_a_labelled_relaxation_to_the_nearest_grade(mesh_both):
    # the demo corpus holds the item at grade 10 and no grade-9 physics question: the exact scope is what was
    # asked (grade 9, so nothing), and the item comes back labelled as a W2 widening, never as a W0 answer
    client = GatewayClient(mesh_both.gateway)
    query = "grade 9 physics exam question: " + QUOTED
    resp = client.search(query, k=5, pipeline="E", no_cache=True)
    assert Scope.from_proto(resp.scope).level == ("grade_9",)
    assert resp.results and resp.results[0].doc_id == "demo:nfb_phys_2017_p1_q1"
    assert resp.results[0].relaxation == common_pb2.RELAXATION_STEP_W2_DROP_LEVEL
    assert all(r.relaxation != common_pb2.RELAXATION_STEP_W0_EXACT for r in resp.results)
    gated = client.search(query, k=5, pipeline="C", no_cache=True)  # C does not relax: nothing exact exists
    assert all(r.metadata.level == "grade_9" for r in gated.results)


def test_a_claim_about_material_without_curriculum_metadata_is_ungated(mesh_both):
    client = GatewayClient(mesh_both.gateway)
    for pipeline in ("C", "E"):
        resp = client.search("0-dimensional biomaterials show inductive properties", k=3, pipeline=pipeline,
                             no_cache=True)
        assert resp.scope_label == gate_pb2.SCOPE_LABEL_UNGATED, (pipeline, list(resp.scope_notes))
        assert Scope.from_proto(resp.scope).is_empty()
        assert {r.doc_id for r in resp.results} == {d.id for d in ABSTRACTS}, pipeline


@pytest.mark.parametrize("query,hints", [
    ("Quelle est la vitesse moyenne d'un cycliste? frage auf Suaheli: kasi ya wastani", {}),   # no such language
    ("grade 5 and grade 12 physics: average speed of a cyclist", {}),                         # two levels
    ("the 1912 Northfield physics paper, average speed question", {}),                        # year not in corpus
    ("grade 12 physics: average speed of a cyclist", {"level": "grade_5"}),                   # hint vs text
    # issue 21's bad input: a series that does not exist at all, a paper named in another language,
    # contradictory series and grade, a question number beyond the paper's length
    ("Hogwarts 2019 physics paper 1 question 3", {}),
    ("Northfield 2019 Physik Prüfung 1 Aufgabe 3", {}),
    ("Northfield grade 3 physics paper 1 2019 question 3", {}),
    ("Northfield 2019 physics paper 1 question 40", {}),
])
def test_bad_input_gets_a_labelled_scope_never_an_error(mesh_both, query, hints):
    resp = GatewayClient(mesh_both.gateway).search(query, k=5, pipeline="E", hints=hints, no_cache=True)
    assert resp.scope_label != gate_pb2.SCOPE_LABEL_UNSPECIFIED
    scope = Scope.from_proto(resp.scope)
    if hints:
        assert scope.level == ("grade_5",)  # a hint wins over the text
    for r in resp.results:  # inside W0 nothing violates the scope; anything wider is labelled with its step
        if r.relaxation == common_pb2.RELAXATION_STEP_W0_EXACT:
            assert not r.violations, (r.doc_id, list(r.violations))
        else:
            assert r.relaxation in (common_pb2.RELAXATION_STEP_W1_DROP_TOPIC, common_pb2.RELAXATION_STEP_W2_DROP_LEVEL,
                                    common_pb2.RELAXATION_STEP_W3_UNFILTERED_LEXICAL)


def test_a_question_number_beyond_the_paper_is_said_and_never_answered_as_exact(mesh_both):
    """The demo holds questions 1-4 of the 2019 Northfield physics paper 1: question 40 is named as beyond what
    the index holds (from the catalogue the gateway keeps), and nothing is presented as that exact item."""
    client = GatewayClient(mesh_both.gateway)
    for pipeline in ("C", "E"):
        resp = client.search("Northfield 2019 physics paper 1 question 40", k=5, pipeline=pipeline, no_cache=True)
        notes = " | ".join(resp.scope_notes)
        assert "question 40 is beyond what the index holds of Northfield Physics Paper 1 (2019)" in notes, notes
        assert not [r.doc_id for r in resp.results if r.relaxation == common_pb2.RELAXATION_STEP_W0_EXACT], pipeline
        asked = client.search("Northfield 2019 physics paper 1 question 3", k=5, pipeline=pipeline, no_cache=True)
        assert not any("beyond" in n for n in asked.scope_notes)


def test_a_look_up_in_a_series_nobody_knows_is_named_and_not_answered_from_other_boards(mesh_both):
    """"Hogwarts" is no board, alias or paper of the index: the look-up names it as the series, says the index does
    not hold it, and answers nothing rather than another board's question 3 (issue 21's bad input)."""
    client = GatewayClient(mesh_both.gateway)
    for pipeline in ("C", "E"):
        resp = client.search("Hogwarts 2019 physics paper 1 question 3", k=5, pipeline=pipeline, no_cache=True)
        notes = " | ".join(resp.scope_notes)
        assert "exam_board Hogwarts is not in the corpus" in notes, (pipeline, notes)
        assert Scope.from_proto(resp.scope).exam_board == ("Hogwarts",), pipeline
        assert not [r.doc_id for r in resp.results], (pipeline, [(r.doc_id, r.relaxation) for r in resp.results])
        known = client.search("Northfield 2019 physics paper 1 question 3", k=5, pipeline=pipeline, no_cache=True)
        assert known.results and not any("Hogwarts" in n for n in known.scope_notes), pipeline


def test_a_dated_question_in_a_series_nobody_knows_is_never_answered_exactly_from_other_boards(mesh_both):
    """"Singapore PSLE physics 2019 question on average speed": a topical question, but the year names a sitting of a
    series the index does not hold. PSLE becomes the board, so nothing from Northfield's 2019 paper is labelled
    exact; the relaxed answer says the index does not hold PSLE (before: Northfield's items came back as W0)."""
    client = GatewayClient(mesh_both.gateway)
    resp = client.search("Singapore PSLE physics 2019 question on average speed", k=5, pipeline="E", no_cache=True)
    assert Scope.from_proto(resp.scope).exam_board == ("PSLE",)
    assert not [r.doc_id for r in resp.results if r.relaxation == common_pb2.RELAXATION_STEP_W0_EXACT]
    assert "exam_board PSLE is not in the corpus" in " | ".join(resp.scope_notes)


RIVERSIDE = "Riverside Mathematics Olympiad"


def _riverside(content_type: str, doc_id: str, text: str) -> Doc:
    return Doc(doc_id, text, metadata={
        "subject": "mathematics", "level": "grade_9", "year": 2021, "paper": RIVERSIDE, "content_type": content_type,
        "question_number": 5, "exam_board": "Riverside Board", "language": "en", "source": "riverside"})


def test_the_worked_solution_of_a_named_question_is_answered_exactly_though_it_never_repeats_the_question(mesh_both):
    """A worked solution answers its question without repeating it: "2.5 hours at 80 km/h gives 200 km" says
    nothing of trains or stations. A look-up that names paper, year, number and content type gets that solution
    as the exact answer (W0), not a relaxed one after the ladder judged it off-topic by its words (before: E climbed
    to W1 and answered with the question itself, labelled relaxed)."""
    client = GatewayClient(mesh_both.gateway)
    pair = [_riverside("exam_question", "riverside:2021:5",
                       "A train leaves the station at 9:00 travelling at 80 km/h. How far has it gone by 11:30?"),
            _riverside("solution", "riverside:2021:5:solution", "2.5 hours at 80 km/h gives 200 km.")]
    client.ingest(pair)
    query = "worked solution to Riverside Mathematics Olympiad 2021 problem 5 (the train leaving the station)"
    try:
        deadline = time.monotonic() + 30
        while RIVERSIDE not in client.search(query, k=5, pipeline="E", no_cache=True).scope.paper:
            assert time.monotonic() < deadline, "the gate never learnt the Riverside paper from the catalogue"
            time.sleep(0.5)
        for pipeline in ("E", "C"):
            resp = client.search(query, k=5, pipeline=pipeline, no_cache=True)
            assert resp.results and resp.results[0].doc_id == "riverside:2021:5:solution", (
                pipeline, [(r.doc_id, r.relaxation) for r in resp.results])
            assert resp.results[0].relaxation == common_pb2.RELAXATION_STEP_W0_EXACT, pipeline
            assert "not judged by words" in resp.relaxation_trace[0].reason, pipeline
            # the question itself is still judged by its words (they are in it)
            question = client.search("Riverside Mathematics Olympiad 2021 problem 5 (the train leaving the station)",
                                     k=5, pipeline=pipeline, no_cache=True)
            assert "not judged by words" not in question.relaxation_trace[0].reason, pipeline
    finally:
        client.delete([d.id for d in pair])


def _pinecrest(grade: int, year: int, number: int, text: str) -> Doc:
    return Doc(f"pinecrest:{grade}:{year}:{number}", text, metadata={
        "subject": "science", "level": f"grade_{grade}", "year": year, "paper": f"Pinecrest Grade {grade} Science",
        "content_type": "exam_question", "question_number": number, "exam_board": "Pinecrest Board",
        "language": "en", "source": "pinecrest"})


def test_a_series_asked_at_a_grade_it_lacks_answers_from_its_nearest_grade_in_another_year_when_needed(mesh_both):
    """Pinecrest, a series only the catalogue knows (no alias in the bundled vocabulary), sets science papers at
    grades 5 and 8. Asked for grade 6 in 2010 about magnets: grade 5 is nearest, but its 2010 paper has nothing on
    magnets; its 2012 paper has. The answer is that item, labelled relaxed within the series (before: the gate did
    not recognise the series from its catalogue names and answered from other boards' grade 5-7 papers)."""
    client = GatewayClient(mesh_both.gateway)
    docs = [_pinecrest(5, 2010, 1, "Which part of a plant takes in water from the soil?"),
            _pinecrest(5, 2010, 2, "Seeds need water and warmth to sprout. Which seed will sprout first?"),
            _pinecrest(5, 2012, 3, "A bar magnet attracts a paper clip. Which material do magnets attract?"),
            _pinecrest(8, 2010, 4, "Which rock forms when lava cools quickly at the surface?")]
    client.ingest(docs)
    query = "Pinecrest grade 6 science 2010 question about magnets"
    try:
        deadline = time.monotonic() + 30
        while "Pinecrest Board" not in client.search(query, k=5, pipeline="E", no_cache=True).scope.exam_board:
            assert time.monotonic() < deadline, "the gate never learnt the Pinecrest series from the catalogue"
            time.sleep(0.5)
        resp = client.search(query, k=5, pipeline="E", no_cache=True)
        found = [(r.doc_id, r.relaxation) for r in resp.results]
        assert found and found[0] == ("pinecrest:5:2012:3", common_pb2.RELAXATION_STEP_W1_DROP_TOPIC), found
        assert {r.metadata.exam_board for r in resp.results} == {"Pinecrest Board"}, found
        assert any("relaxed within the series" in n for n in resp.scope_notes), list(resp.scope_notes)
        accepted = [t for t in resp.relaxation_trace if t.accepted]
        assert len(accepted) == 1 and list(accepted[0].filter.level) == ["grade_5"] and not accepted[0].filter.year
    finally:
        client.delete([d.id for d in docs])


def test_an_english_description_of_a_chinese_item_finds_it_by_the_dictionarys_chinese_words(mesh_both):
    # the Eastbay items are written in Chinese: the query's English words match none of them, and the dense leg's
    # encoder reads English; "cosine" is 余弦 in CC-CEDICT (chsr.glossary), and the item asks for 余弦定理
    client = GatewayClient(mesh_both.gateway)
    resp = client.search("the Chinese Eastbay 2020 maths exam: the question using the law of cosines", k=5,
                         pipeline="E", no_cache=True)
    assert "余弦" in resp.expanded_query.split()
    assert resp.results[0].doc_id in {"demo:eb_math_2020_q3", "demo:eb_math_2020_q3:mark_scheme"}
