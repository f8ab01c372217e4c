"""The RetrieverService contract, on the sparse and dense servers' own wiring (embedded backends),
over real gRPC; and the dense server's EncoderService."""

from __future__ import annotations

import json

import grpc
import pytest

from chsr.documents import Doc
from chsr.scope import Scope
from chsr.config import Settings
from chsr.v1 import common_pb2, encoder_pb2, encoder_pb2_grpc, retriever_pb2, retriever_pb2_grpc
from grpc_health.v1 import health_pb2
from tests.conftest import DEMO_CORPUS
from tests.contract.helpers import health_status, reflected_services, serving

pytestmark = pytest.mark.contract

DOCS = [Doc.from_json(json.loads(line)) for line in DEMO_CORPUS.read_text().splitlines()[:60] if line.strip()]


@pytest.fixture(scope="module")
def sparse_channel(tmp_path_factory):
    from services.sparse import server

    with serving("sparse", server.build, Settings(data_dir=tmp_path_factory.mktemp("sparse"))) as channel:
        yield channel


@pytest.fixture(scope="module")
def dense_channel(tmp_path_factory):
    from services.dense import server

    tmp = tmp_path_factory.mktemp("dense")
    with serving("dense", server.build, Settings(data_dir=tmp, cache_dir=tmp / "emb")) as channel:
        yield channel


@pytest.fixture(params=["sparse", "dense"])
def retriever(request, sparse_channel, dense_channel):
    channel = sparse_channel if request.param == "sparse" else dense_channel
    stub = retriever_pb2_grpc.RetrieverServiceStub(channel)
    stub.Upsert(retriever_pb2.UpsertRequest(documents=[d.to_proto() for d in DOCS]), timeout=120)
    return request.param, channel, stub


def test_health_and_reflection(retriever):
    kind, channel, _ = retriever
    services = {"chsr.v1.RetrieverService"} | ({"chsr.v1.EncoderService"} if kind == "dense" else set())
    assert health_status(channel) == health_pb2.HealthCheckResponse.SERVING
    for service in services:
        assert health_status(channel, service) == health_pb2.HealthCheckResponse.SERVING
    assert services | {"grpc.health.v1.Health"} <= reflected_services(channel)


def test_reingest_is_idempotent(retriever):
    _, _, stub = retriever
    before = stub.Stats(retriever_pb2.StatsRequest(), timeout=5)
    resp = stub.Upsert(retriever_pb2.UpsertRequest(documents=[d.to_proto() for d in DOCS]), timeout=60)
    after = stub.Stats(retriever_pb2.StatsRequest(), timeout=5)
    assert resp.indexed == 0 and resp.unchanged == len(DOCS)
    assert after.documents == before.documents == len(DOCS)
    ids = [i for page in stub.ListIds(retriever_pb2.ListIdsRequest(page_size=7), timeout=5) for i in page.doc_ids]
    assert sorted(ids) == sorted(d.id for d in DOCS)


def test_filter_is_never_violated(retriever):
    _, _, stub = retriever
    subjects = sorted({d.metadata["subject"] for d in DOCS if d.metadata.get("subject")})
    for subject in subjects:
        flt = Scope.from_dict({"subject": subject})
        resp = stub.Retrieve(retriever_pb2.RetrieveRequest(query=DOCS[0].text, filter=flt.to_proto(), k=20,
                                                      include_documents=True), timeout=30)
        for cand in resp.candidates:
            assert cand.document.metadata.subject == subject


def test_post_filter_returns_subset_of_unfiltered_top_k(retriever):
    _, _, stub = retriever
    flt = Scope.from_dict({"subject": DOCS[0].metadata["subject"]}).to_proto()
    query = DOCS[0].text
    pre = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, filter=flt, k=5, include_documents=True), timeout=30)
    post = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, filter=flt, k=5, include_documents=True,
                                                  post_filter=True), timeout=30)
    assert len(pre.candidates) == 5
    assert len(post.candidates) <= len(pre.candidates)


def test_search_without_documents_then_get_documents(retriever):
    """The gateway's path: ids and scores only, then the stored documents of the fused top."""
    _, _, stub = retriever
    bare = stub.Retrieve(retriever_pb2.RetrieveRequest(query=DOCS[3].text, k=6), timeout=30)
    full = stub.Retrieve(retriever_pb2.RetrieveRequest(query=DOCS[3].text, k=6, include_documents=True), timeout=30)
    assert [c.doc_id for c in bare.candidates] == [c.doc_id for c in full.candidates]
    assert not any(c.HasField("document") for c in bare.candidates)
    wanted = [c.doc_id for c in bare.candidates][::-1] + ["no-such-doc"]
    got = stub.GetDocuments(retriever_pb2.GetDocumentsRequest(doc_ids=wanted), timeout=30)
    assert [d.id for d in got.documents] == wanted[:-1]  # request order; unknown ids left out
    by_id = {c.doc_id: c.document for c in full.candidates}
    assert all(d == by_id[d.id] for d in got.documents)
    assert not stub.GetDocuments(retriever_pb2.GetDocumentsRequest(), timeout=5).documents


def test_get_documents_caps_the_id_count(retriever):
    from chsr.limits import MAX_RETRIEVE_K as MAX_K

    _, _, stub = retriever
    with pytest.raises(grpc.RpcError) as err:
        stub.GetDocuments(retriever_pb2.GetDocumentsRequest(doc_ids=[f"d{i}" for i in range(MAX_K + 1)]), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith("doc_ids")


@pytest.mark.parametrize("req,field", [
    (retriever_pb2.RetrieveRequest(query="", k=5), "query"),
    (retriever_pb2.RetrieveRequest(query="x", k=0), "k"),
    (retriever_pb2.RetrieveRequest(query="x", k=-3), "k"),
])
def test_bad_search_input(retriever, req, field):
    _, _, stub = retriever
    with pytest.raises(grpc.RpcError) as err:
        stub.Retrieve(req, timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith(field)


def test_bad_upsert_rejected_whole_batch(retriever):
    _, _, stub = retriever
    before = stub.Stats(retriever_pb2.StatsRequest(), timeout=5).documents
    bad = [Doc("new-ok", "fine text").to_proto(), common_pb2.Document(id="new-bad", text="")]
    with pytest.raises(grpc.RpcError) as err:
        stub.Upsert(retriever_pb2.UpsertRequest(documents=bad), timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "text" in err.value.details()
    assert stub.Stats(retriever_pb2.StatsRequest(), timeout=5).documents == before


def test_dense_encode(dense_channel):
    stub = encoder_pb2_grpc.EncoderServiceStub(dense_channel)
    resp = stub.Encode(encoder_pb2.EncodeRequest(texts=["force and acceleration"], is_query=True), timeout=30)
    assert len(resp.vectors) == 1 and len(resp.vectors[0].values) == 384
    norm = sum(v * v for v in resp.vectors[0].values)
    assert abs(norm - 1.0) < 1e-3


def test_unknown_model_is_invalid_argument(retriever):
    _, _, stub = retriever
    with pytest.raises(grpc.RpcError) as err:
        stub.Retrieve(retriever_pb2.RetrieveRequest(query="x", k=3, model="specter2"), timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and err.value.details().startswith("model")


def test_metadata_only_candidates_for_the_gate_probe(retriever):
    _, _, stub = retriever
    resp = stub.Retrieve(retriever_pb2.RetrieveRequest(query=DOCS[5].text, k=4, include_metadata=True), timeout=30)
    assert resp.candidates and all(c.document.id == c.doc_id and not c.document.text for c in resp.candidates)
    assert resp.candidates[0].document.metadata.subject == DOCS[5].metadata["subject"]


def test_the_query_vector_is_returned_once_and_carried_back(retriever):
    """Issue 22: a request encodes its query once. The dense leg returns the vector it searched with and,
    sent back, searches with it to the same answer; a lexical leg returns none and ignores one."""
    kind, _, stub = retriever
    query = DOCS[3].text
    first = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=10, return_query_vector=True), timeout=30)
    if kind == "sparse":
        assert not first.query_vector
        carried = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=10, query_vector=[0.5] * 7), timeout=30)
        assert [c.doc_id for c in carried.candidates] == [c.doc_id for c in first.candidates]
        return
    assert len(first.query_vector) == 384
    carried = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=10, query_vector=first.query_vector), timeout=30)
    assert [c.doc_id for c in carried.candidates] == [c.doc_id for c in first.candidates]
    assert [round(c.score, 5) for c in carried.candidates] == [round(c.score, 5) for c in first.candidates]
    # the vector, not the text, decides: another document's vector finds that document first
    other = stub.Retrieve(retriever_pb2.RetrieveRequest(query=DOCS[40].text, k=1, return_query_vector=True), timeout=30)
    swapped = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=1, query_vector=other.query_vector), timeout=30)
    assert swapped.candidates[0].doc_id == other.candidates[0].doc_id
    with pytest.raises(grpc.RpcError) as err:
        stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=10, query_vector=[0.1] * 7), timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "query_vector" in err.value.details()


@pytest.mark.parametrize("probe_k,depth", [(60, 60), (60, 10), (25, 5)])
def test_a_probe_list_admitted_by_a_filter_is_the_filtered_list(retriever, probe_k, depth):
    """Issue 22: the ladder reuses the probe's unfiltered list when the filter leaves enough of it
    (gateway.step.ProbeLists). That is only right if an engine ranks a filtered search exactly as the
    admitted part of the unfiltered one: checked on each leg for every subject and level in the corpus."""
    from gateway.step import ProbeLists

    _, _, stub = retriever
    fields = {name: sorted({d.metadata[name] for d in DOCS if d.metadata.get(name) is not None})
              for name in ("subject", "level", "content_type")}
    for query in (DOCS[0].text, DOCS[17].text, "energy of a falling object"):
        unfiltered = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, k=probe_k, include_metadata=True,
                                                                 exact=True), timeout=30)
        lists = ProbeLists(query=query, k=probe_k, exact=True, lists={"leg": list(unfiltered.candidates)})
        answered = 0
        for name, values in fields.items():
            for value in values + [None]:
                flt = Scope.from_dict({name: value} if value is not None else {}).to_proto()
                answer = lists.answer("leg", query, flt, depth, exact=True, post_filter=False, with_metadata=False)
                if answer is None:
                    continue
                answered += 1
                filtered = stub.Retrieve(retriever_pb2.RetrieveRequest(query=query, filter=flt, k=depth, exact=True),
                                         timeout=30)
                assert [c.doc_id for c in answer] == [c.doc_id for c in filtered.candidates], (query, name, value)
                assert [round(c.score, 4) for c in answer] == [round(c.score, 4) for c in filtered.candidates]
        assert answered, "no filter was answerable from the probe: the test checked nothing"
