"""The first result's versions in other languages follow it (gateway.versions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chsr import dictionary
from chsr.documents import Doc
from chsr.scope import Scope
from chsr.v1 import common_pb2
from chsr.versions import VersionIndex
from gateway.versions import after_first, versions_to_add

pytestmark = pytest.mark.unit


def _cand(doc_id: str, language: str, subject: str = "physics", score: float = 1.0) -> common_pb2.Candidate:
    doc = Doc(id=doc_id, text=f"text of {doc_id}", metadata={"subject": subject, "level": "grade_12",
                                                            "language": language, "source": "exams_qa"})
    return common_pb2.Candidate(doc_id=doc_id, score=score, document=doc.to_proto())


SCOPE = Scope(subject=("physics",), level=("grade_12",))


def _answer() -> tuple[list[common_pb2.Candidate], list[list[str]]]:
    cands = [_cand("de1", "de", score=0.9), _cand("de2", "de", score=0.8), _cand("fr7", "fr", score=0.7),
             _cand("de3", "de", score=0.6)]
    return cands, [[] for _ in cands]


def test_versions_follow_the_first_result_and_the_rest_moves_down() -> None:
    cands, notes = _answer()
    out, labels = after_first(cands, notes, SCOPE, ["fr1", "es1"], [_cand("fr1", "fr"), _cand("es1", "es")], k=4)
    assert [c.doc_id for c in out] == ["de1", "fr1", "es1", "de2"]
    assert labels[0] == [] and "version of de1" in labels[1][0] and labels[3] == []
    assert out[1].score == out[0].score


def test_a_version_already_in_the_answer_moves_up_and_is_not_fetched() -> None:
    cands, notes = _answer()
    out, _ = after_first(cands, notes, SCOPE, ["fr7"], [], k=4)
    assert [c.doc_id for c in out] == ["de1", "fr7", "de2", "de3"]


def test_a_version_the_scope_admits_less_than_the_first_is_left_out() -> None:
    cands, notes = _answer()
    out, _ = after_first(cands, notes, SCOPE, ["fr1"], [_cand("fr1", "fr", subject="geography")], k=4)
    assert [c.doc_id for c in out] == ["de1", "de2", "fr7", "de3"]


@pytest.fixture
def no_dictionaries(tmp_path: Path):  # type: ignore[no-untyped-def]
    dictionary.configure(tmp_path, None)  # the numbers alone tell the versions
    yield
    dictionary.configure(Path(dictionary.DEFAULT_DIR), None)


def test_only_versions_not_in_the_answer_are_fetched(no_dictionaries: None) -> None:
    index = VersionIndex()
    meta = {"subject": "physics", "level": "grade_12", "source": "exams_qa"}
    for doc_id, language in (("de1", "de"), ("fr7", "fr"), ("es1", "es")):  # one item: its numbers match
        index.upsert(doc_id, f"{doc_id[:2]} 2,45 m 17 s 331 Hz", {**meta, "language": language})
    index.upsert("de2", "de 5 kg 9,81", {**meta, "language": "de"})
    index.rebuild()
    assert set(index.versions_of("de1")) == {"fr7", "es1"}
    assert versions_to_add("de1", ["de1", "de2", "fr7"], index) == ["es1"]
    assert versions_to_add("de2", ["de1"], index) == []
