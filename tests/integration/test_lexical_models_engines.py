"""TF-IDF and PPMI on the engines path: the sparse server's in-server models over the documents
Elasticsearch holds (docs/decisions.md, "TF-IDF and PPMI on the engines backend"), against the
same models over the embedded store, with filters pushed down and writes followed."""

from __future__ import annotations

import time

import pytest

from chsr.documents import Doc
from chsr.errors import FailedPrecondition
from chsr.scope import Scope
from services.sparse.leg import SparseLeg
from services.sparse.lexical_models import GENERATION_TTL_S

pytestmark = [pytest.mark.integration, pytest.mark.elasticsearch]

QUERIES = ("acceleration of a car from rest", "photosynthesis in plants", "Newton's second law force mass")


@pytest.fixture(scope="module")
def legs(es_url, run_id, demo, tmp_path_factory):  # type: ignore[no-untyped-def]
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend
    from services.sparse.backends.embedded import EmbeddedSparseBackend

    es = ElasticsearchSparseBackend(es_url, f"chsr-test-lexical-{run_id}")
    embedded = EmbeddedSparseBackend(tmp_path_factory.mktemp("lexical"))
    es.upsert(demo.docs)
    embedded.upsert(demo.docs)
    try:
        yield SparseLeg(es), SparseLeg(embedded)
    finally:
        es.drop()
        es.close()
        embedded.close()


def _search(leg: SparseLeg, model: str, query: str, flt: Scope = Scope(), k: int = 10):  # type: ignore[no-untyped-def]
    return leg.search(query, flt, k, exact=True, with_docs=True, model=model)


@pytest.mark.parametrize("model", ["tfidf", "ppmi"])
def test_engines_scores_equal_the_embedded_ones(legs, model):  # type: ignore[no-untyped-def]
    es, embedded = legs
    for query in QUERIES:
        a = {h.doc_id: h.score for h in _search(es, model, query, k=20)}
        b = {h.doc_id: h.score for h in _search(embedded, model, query, k=20)}
        assert a, f"{model}: no hits for {query!r}"
        common = set(a) & set(b)
        assert len(common) >= min(len(a), len(b)) - 2   # ties at the cut may differ (rows are in another order)
        for doc_id in common:
            assert a[doc_id] == pytest.approx(b[doc_id], rel=1e-5)


@pytest.mark.parametrize("model", ["tfidf", "ppmi"])
def test_filters_are_applied_before_top_k(legs, demo, model):  # type: ignore[no-untyped-def]
    es, _ = legs
    subjects = sorted({d.metadata.get("subject") for d in demo.docs if d.metadata.get("subject")})
    for subject in subjects[:4]:
        hits = _search(es, model, QUERIES[0], Scope.from_dict({"subject": subject}), k=50)
        admitted = [d for d in demo.docs if d.metadata.get("subject") == subject]
        assert all(h.doc is not None and h.doc.metadata.get("subject") == subject for h in hits)
        assert len(hits) <= len(admitted)


def test_writes_reach_the_models(legs, demo):  # type: ignore[no-untyped-def]
    es, _ = legs
    doc = Doc(id="lexical-new", text="xenotime zirconolite quasicrystal lattice", metadata=dict(demo.docs[0].metadata))
    es.upsert([doc])
    assert _search(es, "tfidf", "xenotime zirconolite")[0].doc_id == "lexical-new"
    es.backend.delete(["lexical-new"])       # the servicer deletes through the backend
    time.sleep(GENERATION_TTL_S + 0.1)
    assert "lexical-new" not in [h.doc_id for h in _search(es, "tfidf", "xenotime zirconolite")]


def test_an_empty_engine_index_is_a_failed_precondition(es_url, run_id):  # type: ignore[no-untyped-def]
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    es = ElasticsearchSparseBackend(es_url, f"chsr-test-lexical-empty-{run_id}")
    try:
        with pytest.raises(FailedPrecondition, match="holds no documents"):
            _search(SparseLeg(es), "tfidf", "anything")
    finally:
        es.drop()
        es.close()
