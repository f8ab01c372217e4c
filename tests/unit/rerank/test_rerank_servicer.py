"""RerankServicer: mapping, documents carried, INVALID_ARGUMENT vs FAILED_PRECONDITION."""

import grpc
import pytest

from chsr.inprocess import InProcessAbort, InProcessStub
from chsr.scope import Scope
from chsr.v1 import common_pb2, rerank_pb2
from services.rerank.servicer import RerankServicer

pytestmark = pytest.mark.unit

TEXTS = {"a": "the cat sat on the mat", "b": "the cat sat on a mat", "c": "dogs bark loudly at night"}


def request(mode="dedup", params=None, k=0, scope=None):
    cands = [common_pb2.Candidate(doc_id=d, score=1.0 - i * 0.1, rank=i + 1,
                                  document=common_pb2.Document(id=d, text=t, metadata=common_pb2.Metadata(
                                      subject="physics", level="grade_10")))
             for i, (d, t) in enumerate(TEXTS.items())]
    return rerank_pb2.RerankRequest(query="cat", candidates=cands, mode=mode, k=k, params=params or {},
                                    scope=(scope or Scope()).to_proto())


def call(servicer, req):
    return InProcessStub(servicer).Rerank(req)


def abort_of(servicer, req):
    with pytest.raises(InProcessAbort) as err:
        call(servicer, req)
    return err.value


def test_dedup_chain_carries_documents():
    resp = call(RerankServicer(), request("dedup"))
    assert [c.doc_id for c in resp.candidates] == ["a", "c"]
    assert resp.removed_duplicates == 1 and [c.rank for c in resp.candidates] == [1, 2]
    assert resp.candidates[1].document.text == TEXTS["c"]
    assert resp.candidates[0].features["fused"] == pytest.approx(1.0)


def test_curriculum_uses_the_scope():
    scope = Scope.from_dict({"subject": "physics", "level": "grade_9"})
    resp = call(RerankServicer(), request("curriculum", scope=scope, k=1))
    assert len(resp.candidates) == 1 and resp.candidates[0].features["alignment"] == 0.5


@pytest.mark.parametrize("req,prefix", [
    (request("dedup,bm25"), "mode: unknown rerank stage 'bm25'"),
    (request(params={"mmr_lambda": "2"}), "params.mmr_lambda"),
    (request(params={"jaccard": "0.65"}), "params.jaccard: unknown parameter"),
    (request(k=-1), "k:"),
    (request("cross_encoder", params={"model_path": "/tmp/elsewhere"}), "params.model_path"),
])
def test_invalid_argument_names_the_field(req, prefix):
    err = abort_of(RerankServicer(), req)
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith(prefix)


def test_cross_encoder_without_model_is_failed_precondition(tmp_path):
    err = abort_of(RerankServicer(), request("cross_encoder,dedup"))
    assert err.code() is grpc.StatusCode.FAILED_PRECONDITION and "train-reranker" in err.details()
    err = abort_of(RerankServicer(tmp_path / "nope"), request("cross_encoder"))
    assert err.code() is grpc.StatusCode.FAILED_PRECONDITION and "no config.json" in err.details()


def test_empty_request_is_fine():
    resp = call(RerankServicer(), rerank_pb2.RerankRequest())
    assert list(resp.candidates) == [] and resp.removed_duplicates == 0
