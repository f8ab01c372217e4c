"""The new legs on their own wiring over real gRPC: TF-IDF and PPMI models of the sparse server, and
the knowledge-graph server (seed 003 #2, #9, #14) -- results, filters before top-k, bad input, restarts."""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_health.v1 import health_pb2

from chsr.config import Settings
from chsr.documents import Doc
from chsr.scope import Scope
from chsr.v1 import retriever_pb2, retriever_pb2_grpc
from tests.conftest import DEMO_CORPUS
from tests.contract.helpers import health_status, serving

pytestmark = pytest.mark.contract

DOCS = [Doc.from_json(json.loads(line)) for line in DEMO_CORPUS.read_text().splitlines()[:60] if line.strip()]


def _stub(channel: grpc.Channel) -> retriever_pb2_grpc.RetrieverServiceStub:
    return retriever_pb2_grpc.RetrieverServiceStub(channel)


def _upsert(stub, docs) -> retriever_pb2.UpsertResponse:  # type: ignore[no-untyped-def]
    return stub.Upsert(retriever_pb2.UpsertRequest(documents=[d.to_proto() for d in docs]), timeout=120)


def _retrieve(stub, query: str, model: str, k: int = 10, **scope: str):  # type: ignore[no-untyped-def]
    flt = Scope.from_dict(scope).to_proto() if scope else None
    return stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, model=model, k=k, filter=flt,
                                                       include_documents=True), timeout=60)


@pytest.fixture(scope="module")
def sparse(tmp_path_factory):
    from services.sparse import server

    with serving("sparse", server.build, Settings(data_dir=tmp_path_factory.mktemp("lex"))) as channel:
        _upsert(_stub(channel), DOCS)
        yield _stub(channel)


@pytest.mark.parametrize("model", ["tfidf", "ppmi"])
def test_lexical_models_find_a_document_by_its_own_text_and_respect_the_filter(sparse, model):
    target = DOCS[3]
    resp = _retrieve(sparse, target.text, model)
    assert resp.candidates and target.id in [c.doc_id for c in resp.candidates[:3]]
    assert [c.score for c in resp.candidates] == sorted((c.score for c in resp.candidates), reverse=True)
    subject = target.metadata["subject"]
    for cand in _retrieve(sparse, target.text, model, k=20, subject=subject).candidates:
        assert cand.document.metadata.subject == subject


def test_stats_list_the_models_and_an_unknown_model_names_the_valid_ones(sparse):
    assert "tfidf" in sparse.Stats(retriever_pb2.StatsRequest(), timeout=5).details["models"]
    with pytest.raises(grpc.RpcError) as err:
        _retrieve(sparse, "force", "bm26")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "bm25, tfidf, ppmi" in err.value.details()


def test_a_write_reaches_the_lexical_models(sparse):
    doc = Doc(id="zz-new", text="Quasicrystals xenotime zirconolite lattice", metadata=dict(DOCS[0].metadata))
    _upsert(sparse, [doc])
    assert _retrieve(sparse, "xenotime zirconolite", "tfidf").candidates[0].doc_id == "zz-new"
    sparse.DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=["zz-new"]), timeout=30)
    import time
    time.sleep(1.1)   # the models re-read the generation at most once a second
    assert "zz-new" not in [c.doc_id for c in _retrieve(sparse, "xenotime zirconolite", "tfidf").candidates]


@pytest.mark.parametrize("model", ["tfidf", "ppmi"])
def test_an_empty_index_is_a_failed_precondition_not_an_empty_list(tmp_path, model):
    from services.sparse import server

    with serving("sparse", server.build, Settings(data_dir=tmp_path)) as channel:
        with pytest.raises(grpc.RpcError) as err:
            _retrieve(_stub(channel), "anything", model)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "holds no documents" in err.value.details()


def test_single_document_index(tmp_path):
    from services.sparse import server

    with serving("sparse", server.build, Settings(data_dir=tmp_path)) as channel:
        stub = _stub(channel)
        _upsert(stub, [Doc(id="one", text="momentum")])
        assert [c.doc_id for c in _retrieve(stub, "momentum", "tfidf").candidates] == ["one"]
        with pytest.raises(grpc.RpcError) as err:     # one word: nothing co-occurs
            _retrieve(stub, "momentum", "ppmi")
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "co-occurring" in err.value.details()


@pytest.fixture()
def graph_dir(tmp_path):
    return tmp_path / "graph-data"


def test_graph_server_indexes_entities_filters_follows_deletes_and_survives_a_restart(graph_dir):
    from services.graph import server

    settings = Settings(data_dir=graph_dir)
    with serving("graph", server.build, settings) as channel:
        stub = _stub(channel)
        assert health_status(channel, "chsr.v1.RetrieverService") == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as err:       # nothing ingested: the index has no graph
            _retrieve(stub, "momentum", "kg")
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "without the graph" in err.value.details()
        assert _upsert(stub, DOCS).indexed == len(DOCS)
        target = DOCS[5]
        resp = _retrieve(stub, target.full_text, "kg", k=20)
        assert target.id in [c.doc_id for c in resp.candidates]
        subject = target.metadata["subject"]
        for cand in _retrieve(stub, target.full_text, "kg", k=20, subject=subject).candidates:
            assert cand.document.metadata.subject == subject
        details = stub.Stats(retriever_pb2.StatsRequest(), timeout=5).details
        assert int(details["entities"]) > 0 and int(details["edges"]) > 0
        stub.DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=[target.id]), timeout=30)
        assert target.id not in [c.doc_id for c in _retrieve(stub, target.full_text, "kg", k=20).candidates]
    with serving("graph", server.build, settings) as channel:   # restart: the graph is loaded, not rebuilt from text
        stub = _stub(channel)
        assert stub.Stats(retriever_pb2.StatsRequest(), timeout=5).documents == len(DOCS) - 1
        assert _retrieve(stub, DOCS[6].full_text, "kg", k=20).candidates
