"""FusionServicer: request/response mapping, documents carried through, errors as gRPC codes."""

import grpc
import numpy as np
import pytest

from chsr.inprocess import InProcessAbort, InProcessStub
from chsr.v1 import common_pb2, fusion_pb2
from tools.calibrate.build_cdf import build_calibrators
from services.fusion.servicer import FusionServicer

pytestmark = pytest.mark.unit


def cand(doc_id, score, **features):
    return common_pb2.Candidate(doc_id=doc_id, score=score, document=common_pb2.Document(id=doc_id, text=f"text {doc_id}"),
                                features=features)


def request(mode="rrf", params=None, k=0, sparse_weight=0.0):
    return fusion_pb2.FuseRequest(
        lists=[fusion_pb2.RankedList(name="sparse", weight=sparse_weight,
                                     candidates=[cand("a", 3.0, bm25=3.0), cand("b", 2.0), cand("c", 1.0)]),
               fusion_pb2.RankedList(name="dense", candidates=[cand("b", 0.9), cand("d", 0.8), cand("a", 0.1)])],
        mode=mode, k=k, params=params or {}, query="q")


def call(servicer, req):
    return InProcessStub(servicer).Fuse(req)


def abort_of(servicer, req):
    with pytest.raises(InProcessAbort) as err:
        call(servicer, req)
    return err.value


def test_rrf_response_carries_documents_and_features():
    resp = call(FusionServicer(), request(k=3))
    assert [c.doc_id for c in resp.candidates] == ["b", "a", "d"]
    assert [c.rank for c in resp.candidates] == [1, 2, 3]
    assert resp.candidates[0].score == pytest.approx(1 / 62 + 1 / 61)
    a = resp.candidates[1]
    assert a.document.text == "text a"
    assert a.features["bm25"] == 3.0            # input feature kept
    assert a.features["sparse"] == 3.0 and a.features["dense"] == pytest.approx(0.1)
    assert a.features["dense_rank"] == 3.0
    assert resp.normaliser == "rank"
    assert {"h_sparse", "h_dense", "n_fused", "cdf_missing"} <= set(resp.telemetry)


def test_weight_zero_means_one():
    base = call(FusionServicer(), request())
    same = call(FusionServicer(), request(sparse_weight=1.0))
    assert [c.score for c in base.candidates] == [c.score for c in same.candidates]
    heavy = call(FusionServicer(), request(sparse_weight=3.0))
    assert heavy.candidates[0].doc_id == "a"


def test_unknown_mode_is_invalid_argument():
    err = abort_of(FusionServicer(), request(mode="borda"))
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert err.details() == "mode: unknown 'borda'; valid: rrf, linear, dbsf, entropy, adaptive"


@pytest.mark.parametrize("params,field", [({"alpha": "x"}, "params.alpha"), ({"rrf": "60"}, "params.rrf")])
def test_bad_param_is_invalid_argument(params, field):
    err = abort_of(FusionServicer(), request(mode="linear", params=params))
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith(field)


def test_duplicate_list_name_and_negative_k():
    req = request()
    req.lists[1].name = "sparse"
    assert "duplicate list 'sparse'" in abort_of(FusionServicer(), req).details()
    assert abort_of(FusionServicer(), request(k=-1)).details().startswith("k:")


def test_cdf_mode_without_calibrators_falls_back():
    resp = call(FusionServicer(calibration_dir=None), request(mode="entropy", params={"entropy_norm": "cdf"}))
    assert resp.telemetry["cdf_missing"] == 1.0 and resp.normaliser == "minmax"
    assert len(resp.candidates) == 4


def test_cdf_mode_with_calibration_dir(tmp_path):
    build_calibrators({"sparse": [np.array([0.0, 1.0, 2.0, 3.0])], "dense": [np.array([0.0, 0.5, 1.0])]},
                      tmp_path, generation=1)
    servicer = FusionServicer(calibration_dir=tmp_path)
    assert set(servicer.calibrators) == {"sparse", "dense"}
    resp = call(servicer, request(mode="entropy"))
    assert resp.normaliser == "cdf" and resp.telemetry["cdf_missing"] == 0.0
    assert 0.0 <= resp.telemetry["alpha"] <= 1.0 and "h_dense_cdf" in resp.telemetry


def test_empty_request():
    resp = call(FusionServicer(), fusion_pb2.FuseRequest(mode="linear"))
    assert list(resp.candidates) == [] and resp.telemetry["n_fused"] == 0
