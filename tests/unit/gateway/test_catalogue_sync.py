"""The gateway's catalogue follows the index (ingest, re-ingest with new metadata, delete) and the gate follows
the catalogue; so do the items' versions in other languages (chsr.versions): a real embedded sparse server and a
real gate servicer, in process (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chsr import dictionary
from chsr.documents import Doc
from chsr.inprocess import InProcessStub
from chsr.scope import Scope
from chsr.v1 import gate_pb2, retriever_pb2
from chsr.versions import VersionIndex
from gateway.catalogue_sync import CatalogueSync
from gateway.stubs import StageStubs
from services.gate.servicer import GateServicer
from services.gate.vocabulary import Vocabulary
from services.retrieval.servicer import RetrieverServicer
from services.sparse.backends.embedded import EmbeddedSparseBackend
from services.sparse.leg import SparseLeg

pytestmark = pytest.mark.unit

PAPER = "Quillfield Chemistry Paper 3"
QUERY = "Quillfield Chemistry Paper 3 2021 question about titration"


def _doc(i: int, year: int = 2021, paper: str = PAPER) -> Doc:
    return Doc(id=f"q{i}", text=f"A titration question number {i}", metadata={
        "subject": "chemistry", "level": "grade_11", "year": year, "paper": paper, "content_type": "exam_question",
        "exam_board": "Quillfield Board", "question_number": i, "language": "en", "source": "test"})


@pytest.fixture()
def mesh(tmp_path: Path):
    sparse = RetrieverServicer(SparseLeg(EmbeddedSparseBackend(tmp_path)), probe_interval_s=60)
    gate = GateServicer(Vocabulary.load(), max_query_chars=2000)
    stubs = StageStubs(gate=InProcessStub(gate), fusion=None, rerank=None, servers={"sparse": InProcessStub(sparse)})
    yield stubs, gate, CatalogueSync(stubs, "sparse", poll_s=60)
    sparse.backend.close()


def _write(stubs: StageStubs, docs: list[Doc]) -> None:
    stubs.servers["sparse"].Upsert(retriever_pb2.UpsertRequest(documents=[d.to_proto() for d in docs]))


def _scope(stubs: StageStubs) -> tuple[Scope, str]:
    resp = stubs.gate.Gate(gate_pb2.GateRequest(query=QUERY, extract=True))
    return Scope.from_proto(resp.scope), resp.catalogue_version


def test_the_gate_learns_a_paper_when_it_is_ingested_and_forgets_it_when_it_is_deleted(mesh):
    stubs, gate, sync = mesh
    scope, version = _scope(stubs)
    assert PAPER not in scope.paper and version == ""           # bundled vocabulary only
    _write(stubs, [_doc(1), _doc(2)])
    sync.request_sync()
    sync.step()
    scope, version = _scope(stubs)
    assert scope.paper == (PAPER,) and version == sync.catalogue.version == sync.version
    assert gate.vocab.paper(PAPER).years.keys() == {2021}

    _write(stubs, [_doc(2, year=2022)])       # another writer re-ingests with new metadata: the cell moves
    sync.step()                               # the generation moved: synced, the push waits until it settles
    assert sync.catalogue.version != sync.version and gate.vocab.paper(PAPER).years.keys() == {2021}
    sync.step()                               # nothing moved since: pushed
    assert gate.vocab.paper(PAPER).years.keys() == {2021, 2022}

    stubs.servers["sparse"].DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=["q1", "q2"]))
    sync.request_sync()                       # this gateway's own write: synced and pushed at once
    sync.step()
    assert len(sync.catalogue) == 0 and gate.vocab.paper(PAPER) is None
    scope, version = _scope(stubs)
    assert PAPER not in scope.paper and version == sync.catalogue.version


def test_only_changed_documents_are_fetched_again(mesh):
    stubs, _, sync = mesh
    _write(stubs, [_doc(i) for i in range(1, 6)])
    assert sync.sync() == (5, 0)
    assert sync.sync() == (0, 0)
    _write(stubs, [_doc(3, year=2020)])
    stubs.servers["sparse"].DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=["q5"]))
    assert sync.sync() == (1, 1)


def test_a_gate_that_answers_with_another_version_is_sent_the_catalogue_again(mesh):
    stubs, gate, sync = mesh
    _write(stubs, [_doc(1)])
    sync.step(force=True)
    pushed = sync.version
    gate.catalogue_version = "restarted"                        # e.g. a gate replica that restarted
    _, version = _scope(stubs)
    sync.note_gate_version(version)
    sync.step()
    assert gate.catalogue_version == pushed


def test_versions_in_other_languages_follow_ingest_and_delete(mesh, tmp_path: Path):
    stubs, _, _ = mesh
    dictionary.configure(tmp_path / "none", None)  # no dictionaries: the items' numbers tell the versions
    try:
        sync = CatalogueSync(stubs, "sparse", poll_s=60, versions=VersionIndex())
        meta = {"subject": "physics", "level": "grade_12", "content_type": "exam_question", "source": "exams_qa"}
        _write(stubs, [Doc(id="de1", text="Feder: 2,45 m, 17 s, 331 Hz", metadata={**meta, "language": "de"}),
                       Doc(id="de2", text="Masse 5 kg, 9,81", metadata={**meta, "language": "de"}),
                       Doc(id="fr1", text="Ressort : 2,45 m, 17 s, 331 Hz", metadata={**meta, "language": "fr"})])
        sync.sync()
        assert sync.versions.versions_of("de1") == ("fr1",) and sync.versions.versions_of("de2") == ()
        _write(stubs, [Doc(id="es1", text="Muelle: 2,45 m, 17 s, 331 Hz", metadata={**meta, "language": "es"})])
        sync.sync()
        assert set(sync.versions.versions_of("de1")) == {"fr1", "es1"}
        stubs.servers["sparse"].DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=["fr1"]))
        sync.sync()
        assert sync.versions.versions_of("de1") == ("es1",) and sync.versions.versions_of("fr1") == ()
    finally:
        dictionary.configure(Path(dictionary.DEFAULT_DIR), None)
