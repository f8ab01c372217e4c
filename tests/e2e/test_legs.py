"""The new legs through the mesh (seed 003 #2, #9, #14): TF-IDF, PPMI + BM25 RRF, knowledge-graph RRF
as pipelines on the embedded default and on the engines (Elasticsearch + Weaviate + Redis); SPECTER2
reported unavailable; a graph server that dies degrades the answer instead of failing it."""

from __future__ import annotations

import signal
import uuid

import grpc
import pytest

from chsr.client import GatewayClient
from tests.conftest import DEMO_CORPUS, start_mesh
from tests.faults.harness import drop_engine_data, require_engines
from tools.corpus import read_corpus

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

QUERY = "a car accelerates uniformly from rest: what is its acceleration and the net force on it?"
NEW_PIPELINES = ("tfidf", "ppmi", "ppmi_rrf", "kg", "kg_rrf", "rrf_tfidf", "linear_tfidf_0.3")
LEGS_OF = {"tfidf": ("tfidf",), "ppmi": ("ppmi",), "ppmi_rrf": ("sparse", "ppmi"), "kg": ("graph",),
           "kg_rrf": ("sparse", "tfidf", "graph"), "rrf_tfidf": ("sparse", "tfidf"),
           "linear_tfidf_0.3": ("sparse", "tfidf")}


def _check_pipelines(client: GatewayClient) -> None:
    for name in NEW_PIPELINES:
        resp = client.search(QUERY, k=5, pipeline=name, no_cache=True)
        assert resp.results, f"{name}: no results"
        assert not resp.degraded, f"{name}: degraded {list(resp.degraded)}"
        timings = {t.stage: t.ms for t in resp.timings}
        for leg in LEGS_OF[name]:
            assert timings[leg] > 0, f"{name}: leg {leg} not timed"


def test_new_pipelines_answer_on_the_embedded_mesh(mesh):
    _check_pipelines(GatewayClient(mesh.gateway))


def test_list_pipelines_marks_specter2_unavailable_with_its_reason(mesh):
    client = GatewayClient(mesh.gateway)
    info = {p.name: p for p in client.pipelines().pipelines}
    assert info["kg_rrf"].available and list(info["kg_rrf"].legs) == ["sparse", "tfidf", "graph"]
    assert not info["specter2"].available and "SPECTER2" in info["specter2"].unavailable_reason
    with pytest.raises(grpc.RpcError) as err:
        client.search(QUERY, k=5, pipeline="specter2")
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "weights cannot be downloaded" in err.value.details()


def test_a_tuned_weight_0_rerank_mode_is_its_first_stage_and_needs_no_cross_encoder(mesh):
    # the mesh has no cross-encoder configured: weight 0 (tuning found no significant gain) scores nothing
    client = GatewayClient(mesh.gateway)
    for mode, base in (("hybrid_fixed_rerank", "hybrid_fixed"), ("rrf_ce", "rrf")):
        reranked = client.search(QUERY, k=5, pipeline=mode, no_cache=True)
        first = client.search(QUERY, k=5, pipeline=base, no_cache=True)
        assert [r.doc_id for r in reranked.results] == [r.doc_id for r in first.results] and reranked.results
        assert dict(reranked.rerank_telemetry).get("ce_weight") == 0.0, dict(reranked.rerank_telemetry)
        assert not reranked.degraded
    # a mode that does score needs the model: without one its answer is the first stage's, flagged degraded
    alone = client.search(QUERY, k=5, pipeline="hybrid_fixed_ce_alone", no_cache=True)
    assert list(alone.degraded) == ["rerank_unavailable"] and alone.results


@pytest.fixture(scope="module")
def engines_mesh(tmp_path_factory):  # type: ignore[no-untyped-def]
    require_engines()
    tag = uuid.uuid4().hex[:8]
    env = {"CHSR_ES_INDEX": f"chsr-e2e-legs-{tag}", "CHSR_WEAVIATE_COLLECTION": f"ChsrE2eLegs{tag}",
           "CHSR_REDIS_URL": "redis://127.0.0.1:16379/4"}
    m = start_mesh(tmp_path_factory.mktemp("legs-engines"), backend="engines", extra_env=env)
    try:
        GatewayClient(m.gateway).ingest(read_corpus(DEMO_CORPUS))
        yield m
    finally:
        m.supervisor.stop_all()  # type: ignore[attr-defined]
        drop_engine_data(env["CHSR_ES_INDEX"], env["CHSR_WEAVIATE_COLLECTION"])


def test_new_pipelines_answer_on_the_engines_mesh(engines_mesh):
    _check_pipelines(GatewayClient(engines_mesh.gateway))


def test_a_dead_graph_server_degrades_kg_rrf_and_fails_kg_alone(engines_mesh):
    client = GatewayClient(engines_mesh.gateway)
    proc = engines_mesh.supervisor.procs["graph"]  # type: ignore[attr-defined]
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    resp = client.search(QUERY, k=5, pipeline="kg_rrf", no_cache=True)
    assert resp.results and "graph_unavailable" in resp.degraded
    with pytest.raises(grpc.RpcError) as err:
        client.search(QUERY, k=5, pipeline="kg", no_cache=True)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE
