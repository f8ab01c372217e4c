"""The sparse leg's search preference (``CHSR_ES_SEARCH_PREFERENCE``, issue 22 item 4) on the real Elasticsearch.

``_local`` (the default) reads the copy on the node the client reached; on a single node it must answer exactly
what ES's adaptive replica selection answers, in every request form the leg uses, and an invalid preference is
refused by ES itself (so the setting is really sent, not dropped by the client).
"""

from __future__ import annotations

import pytest

from chsr.documents import Doc
from chsr.scope import Scope

pytestmark = [pytest.mark.integration, pytest.mark.elasticsearch]


def _docs() -> list[Doc]:
    words = ["force", "energy", "cell", "market", "atom"]
    return [Doc(id=f"d{i}", title=f"Item {i}", text=f"{words[i % 5]} {words[(i * 2) % 5]} question {i}",
                metadata={"subject": "physics" if i % 2 else "biology", "year": 2010 + i % 3}) for i in range(30)]


def test_local_preference_answers_what_adaptive_selection_answers(es_url: str, run_id: str) -> None:
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    index = f"chsr-test-{run_id}-preference"
    local = ElasticsearchSparseBackend(es_url, index)                      # the default: _local
    adaptive = ElasticsearchSparseBackend(es_url, index, search_preference="")
    try:
        assert local.upsert(_docs()).indexed == 30
        for flt in (Scope(), Scope.from_dict({"subject": "physics"})):
            for form in ({"with_docs": True}, {"with_docs": False}, {"metadata_only": True}):
                a = local.search("energy force question", flt, 10, **form)
                b = adaptive.search("energy force question", flt, 10, **form)
                assert a and [(h.doc_id, h.score) for h in a] == [(h.doc_id, h.score) for h in b]
    finally:
        local.drop()
        local.close()
        adaptive.close()


def test_an_invalid_preference_is_refused_by_elasticsearch(es_url: str, run_id: str) -> None:
    from elasticsearch import ApiError

    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    index = f"chsr-test-{run_id}-preference-bad"
    backend = ElasticsearchSparseBackend(es_url, index, search_preference="_no_such_preference")
    try:
        backend.upsert(_docs()[:3])
        with pytest.raises(ApiError) as err:
            backend.search("energy", Scope(), 5)
        assert err.value.status_code == 400 and "preference" in str(err.value).lower()
    finally:
        backend.drop()
        backend.close()
