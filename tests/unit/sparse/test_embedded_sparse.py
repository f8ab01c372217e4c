import pytest

from chsr.documents import Doc
from chsr.scope import Scope
from services.sparse.backends.embedded import EmbeddedSparseBackend

pytestmark = pytest.mark.unit

DOCS = [
    Doc("p1", "Newton's second law relates force, mass and acceleration.", metadata={"subject": "physics", "level": "grade_10"}),
    Doc("p2", "Acceleration is the rate of change of velocity.", metadata={"subject": "physics", "level": "college"}),
    Doc("c1", "A catalyst increases the rate of a chemical reaction.", metadata={"subject": "chemistry", "level": "grade_10"}),
    Doc("z1", "牛顿第二定律描述了力与加速度的关系。", metadata={"subject": "physics", "level": "grade_12"}),
]


def test_search_gates_before_top_k(tmp_path):
    b = EmbeddedSparseBackend(tmp_path)
    b.upsert(DOCS)
    hits = b.search("rate of acceleration", Scope(), 10)
    assert {h.doc_id for h in hits} >= {"p2", "c1"}
    gated = b.search("rate of acceleration", Scope.from_dict({"subject": "chemistry"}), 10)
    assert [h.doc_id for h in gated] == ["c1"]
    assert b.search("rate", Scope.from_dict({"subject": "biology"}), 10) == []
    assert [h.doc_id for h in b.search("加速度", Scope(), 5)] == ["z1"]


def test_idempotent_upsert_and_restart(tmp_path):
    b = EmbeddedSparseBackend(tmp_path)
    first = b.upsert(DOCS)
    again = b.upsert(DOCS)
    assert (first.indexed, first.unchanged) == (4, 0)
    assert (again.indexed, again.unchanged) == (0, 4)
    gen = b.generation()
    b.close()
    reopened = EmbeddedSparseBackend(tmp_path)
    assert reopened.count() == 4 and reopened.generation() == gen
    assert reopened.search("catalyst", Scope(), 1)[0].doc_id == "c1"
    assert reopened.delete(["c1"]) == 1
    assert reopened.search("catalyst", Scope(), 1) == []


def test_warm_builds_the_index_before_the_first_search(tmp_path, monkeypatch):
    EmbeddedSparseBackend(tmp_path).upsert(DOCS)
    restarted = EmbeddedSparseBackend(tmp_path)
    restarted.warm()
    built = []
    monkeypatch.setattr(restarted, "_rebuild", lambda docs: built.append(len(docs)))
    assert restarted.search("catalyst", Scope(), 1)[0].doc_id == "c1"
    assert built == []   # the search found the index already built for this generation
