"""End to end through the real gRPC servers (seven + the graph server) on the embedded default."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2

from chsr.channels import get_channel
from chsr.client import GatewayClient
from chsr.config import Settings
from tools.cli.up_cmd import SERVICES
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc
from tests.contract.helpers import health_status, reflected_services

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

QUERY = "Northfield physics paper: a car accelerates uniformly from rest, what is its acceleration?"
FULL_NAMES = {"gateway": "chsr.v1.GatewayService", "gate": "chsr.v1.GateService", "sparse": "chsr.v1.RetrieverService",
              "dense": "chsr.v1.RetrieverService", "graph": "chsr.v1.RetrieverService",
              "fusion": "chsr.v1.FusionService", "rerank": "chsr.v1.RerankService",
              "ingest": "chsr.v1.IngestService"}


def test_every_server_is_serving_with_reflection_and_metrics(mesh):
    for name in SERVICES:
        channel = grpc.insecure_channel(mesh.layout.addr(name))
        try:
            assert health_status(channel) == health_pb2.HealthCheckResponse.SERVING
            assert health_status(channel, FULL_NAMES[name]) == health_pb2.HealthCheckResponse.SERVING
            assert FULL_NAMES[name] in reflected_services(channel)
        finally:
            channel.close()
        body = urllib.request.urlopen(mesh.metrics_url(name), timeout=5).read().decode()
        assert "chsr_grpc_server_handling_seconds" in body


def test_search_reports_every_stage_and_exports_histograms(mesh):
    client = GatewayClient(mesh.gateway)
    resp = client.search(QUERY, k=5, pipeline="D", no_cache=True)
    assert 0 < len(resp.results) <= 5
    timings = {t.stage: t.ms for t in resp.timings}
    for stage in ("gate", "sparse", "dense", "fusion", "fetch", "rerank", "total"):
        assert timings[stage] > 0, f"stage {stage} has no time"
    assert not resp.degraded
    body = urllib.request.urlopen(mesh.metrics_url("gateway"), timeout=5).read().decode()
    for stage in ("gate", "sparse", "dense", "fusion", "rerank", "total"):
        assert f'chsr_stage_latency_seconds_bucket{{le="0.005",pipeline="D",stage="{stage}"}}' in body


def test_gated_pipeline_never_leaks_at_w0(mesh):
    client = GatewayClient(mesh.gateway)
    resp = client.search("acceleration and force", k=10, pipeline="C", hints={"subject": "chemistry"})
    assert resp.results, "chemistry scope should still hold some documents"
    for r in resp.results:
        assert r.metadata.subject == "chemistry"
        assert list(r.violations) == []


def test_second_identical_search_hits_cache(mesh):
    client = GatewayClient(mesh.gateway)
    first = client.search("photosynthesis in plants", k=3, pipeline="rrf")
    second = client.search("photosynthesis in plants", k=3, pipeline="rrf")
    assert not first.cache_hit and second.cache_hit
    assert [r.doc_id for r in first.results] == [r.doc_id for r in second.results]


@pytest.mark.parametrize("kwargs,field", [
    ({"query": "", "k": 5}, "query"),
    ({"query": "   \t", "k": 5}, "query"),
    ({"query": "x" * 3000, "k": 5}, "query"),
    ({"query": "ok", "k": 0}, "k"),
    ({"query": "ok", "k": -4}, "k"),
    ({"query": "ok", "k": 100000}, "k"),
    ({"query": "ok", "k": 5, "pipeline": "warp-drive"}, "pipeline"),
])
def test_bad_search_input_is_invalid_argument(mesh, kwargs, field):
    stub = gateway_pb2_grpc.GatewayServiceStub(get_channel(mesh.gateway, Settings()))
    with pytest.raises(grpc.RpcError) as err:
        stub.Search(gateway_pb2.SearchRequest(**kwargs), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.value.details().startswith(field), err.value.details()


def test_invalid_utf8_is_invalid_argument_not_internal(mesh):
    channel = grpc.insecure_channel(mesh.gateway)
    raw = channel.unary_unary("/chsr.v1.GatewayService/Search")
    payload = b"\x0a\x04\xff\xfe\xfd\xfc\x10\x05"  # field 1 (query) = invalid UTF-8, k = 5
    with pytest.raises(grpc.RpcError) as err:
        raw(payload, timeout=10)
    channel.close()
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "request" in err.value.details()


def test_bad_ingest_batch_loses_nothing(mesh):
    client = GatewayClient(mesh.gateway)
    before = {b.backend: b.documents for b in client.stats().backends}
    stub = gateway_pb2_grpc.GatewayServiceStub(get_channel(mesh.gateway, Settings()))
    good = common_pb2.Document(id="e2e-new-1", text="A brand new document about volcanoes.")
    cases = [
        [good, common_pb2.Document(id="e2e-new-2", text="")],
        [good, common_pb2.Document(id="", text="no id")],
        [good, good],
    ]
    for docs in cases:
        with pytest.raises(grpc.RpcError) as err:
            stub.Ingest(iter([gateway_pb2.IngestRequest(documents=docs)]), timeout=30)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "_id" in err.value.details() or "text" in err.value.details()
    after = {b.backend: b.documents for b in client.stats().backends}
    assert after == before
    assert client.verify().consistent


def test_ingest_progress_acknowledges_each_stored_batch(mesh):
    from chsr.documents import Doc
    from tests.conftest import DEMO_CORPUS

    docs = [Doc.from_json(json.loads(line)) for line in DEMO_CORPUS.read_text().splitlines()[:20]]
    acked: list[int] = []
    summary = GatewayClient(mesh.gateway).ingest(docs, batch_size=7, on_batch=acked.append)
    assert acked == [7, 7, 6]  # one acknowledgement per stored batch, in documents
    assert summary.received == 20 and summary.indexed + summary.unchanged == 20
    # A bad second batch: the first is acknowledged (and kept), then INVALID_ARGUMENT naming the field.
    stub = gateway_pb2_grpc.GatewayServiceStub(get_channel(mesh.gateway, Settings()))
    batches = [gateway_pb2.IngestWithProgressRequest(documents=[d.to_proto() for d in docs[:3]]),
               gateway_pb2.IngestWithProgressRequest(documents=[common_pb2.Document(id="e2e-bad", text="")])]
    seen = []
    with pytest.raises(grpc.RpcError) as err:
        for progress in stub.IngestWithProgress(iter(batches), timeout=30):
            seen.append(progress.received)
    assert seen == [3]
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "text" in err.value.details()


def test_cli_run_writes_run_file(mesh, tmp_path):
    queries = tmp_path / "q.jsonl"
    queries.write_text("\n".join(json.dumps({"_id": f"q{i}", "text": t}) for i, t in
                                 enumerate(["speed of light", "cell membrane", "supply and demand"])) + "\n")
    out = tmp_path / "run.jsonl"
    trec = tmp_path / "run.trec"
    proc = subprocess.run([sys.executable, "-m", "tools.cli.main", "run", str(queries), "-p", "rrf", "-k", "5",
                           "--out", str(out), "--trec", str(trec), "--gateway", mesh.gateway],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["query_id"] for r in records] == ["q0", "q1", "q2"]
    for rec in records:
        assert set(rec["timings_ms"]) >= {"gate", "sparse", "dense", "fusion", "rerank", "total"}
        assert len(rec["results"]) == 5 and {"doc_id", "score", "relaxation", "violations"} <= set(rec["results"][0])
    assert len(trec.read_text().splitlines()) == 15


def test_cli_ingest_rejects_bad_line_naming_it(mesh, tmp_path):
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"_id": "ok1", "text": "fine"}\n{"_id": "bad", "title": "no text"}\n')
    proc = subprocess.run([sys.executable, "-m", "tools.cli.main", "ingest", str(corpus), "--gateway", mesh.gateway],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "bad.jsonl:2" in proc.stderr and "'text'" in proc.stderr


def test_plain_stub_without_a_deadline_gets_the_same_answer(mesh):
    """grpcurl, Go and Java stubs send no deadline by default: the mesh must answer them exactly
    as it answers a call with one (no stage timeout derived from gRPC's infinite remaining time)."""
    channel = grpc.insecure_channel(mesh.gateway)
    stub = gateway_pb2_grpc.GatewayServiceStub(channel)
    try:
        for pipeline in ("E", "C", "rrf", "sparse"):
            req = gateway_pb2.SearchRequest(query=QUERY, k=3, pipeline=pipeline, no_cache=True)
            plain = stub.Search(req)
            long = stub.Search(req, timeout=600)
            short = stub.Search(req, timeout=10)
            assert plain.results and not plain.degraded, (pipeline, list(plain.degraded))
            ids = [r.doc_id for r in plain.results]
            assert ids == [r.doc_id for r in long.results] == [r.doc_id for r in short.results], pipeline
        assert stub.IndexStats(gateway_pb2.IndexStatsRequest()).backends
        assert stub.VerifyIndex(gateway_pb2.VerifyIndexRequest()).consistent
        assert stub.ListPipelines(gateway_pb2.ListPipelinesRequest()).pipelines
        doc = common_pb2.Document(id="e2e-no-deadline", text="A document ingested without a deadline.")
        summary = stub.Ingest(iter([gateway_pb2.IngestRequest(documents=[doc])])).summary
        assert summary.received == 1
        assert stub.Delete(gateway_pb2.DeleteRequest(doc_ids=["e2e-no-deadline"])).deleted == 1
    finally:
        channel.close()


def _query_vectors(mesh) -> dict[str, float]:  # type: ignore[no-untyped-def]
    body = urllib.request.urlopen(mesh.metrics_url("dense"), timeout=5).read().decode()
    out: dict[str, float] = {"encoded": 0.0, "cached": 0.0, "carried": 0.0}
    for line in body.splitlines():
        if line.startswith("chsr_dense_query_vectors_total{"):
            out[line.split('source="', 1)[1].split('"', 1)[0]] = float(line.split()[-1])
    return out


@pytest.mark.parametrize("pipeline", ["C", "E"])
def test_each_query_text_is_encoded_once_per_request(mesh, pipeline):
    """Issue 22: the probe's query vector is carried to the ladder's dense calls, so a request never needs the
    dense service's LRU (which another replica would not share): each query text is encoded once (the probe's;
    E's expansion is a second text) and every later dense call carries its vector."""
    client = GatewayClient(mesh.gateway)
    query = f"how does the speed of a falling ball change ({pipeline} encode-once check)"
    before = _query_vectors(mesh)
    resp = client.search(query, k=5, pipeline=pipeline, no_cache=True)
    assert resp.results and not resp.degraded
    after = _query_vectors(mesh)
    delta = {k: after[k] - before[k] for k in after}
    texts = 1 if resp.expanded_query == query else 2
    # the probe + one per ladder step tried, unless the step took the dense list from the probe's
    dense_calls = 1 + sum(1 for s in resp.relaxation_trace if not s.reason.endswith("from the probe's lists")
                          or "dense" not in s.reason.rsplit(";", 1)[-1])
    assert delta["encoded"] == texts and delta["cached"] == 0, delta
    assert delta["carried"] == dense_calls - texts, (delta, dense_calls)


def test_a_step_answered_from_the_probe_is_the_step_retrieved(mesh):
    """Issue 22: a ladder step whose filter admits enough of the probe's hits (or whose probe list holds every
    hit the leg has) takes its list from the probe instead of a second call. The answer must be the one a
    retrieval under that filter gives: pipeline rrf with the same scope as client hints retrieves once,
    filtered, with C's legs, depth and fusion."""
    from chsr.scope import Scope

    client = GatewayClient(mesh.gateway)
    query = "best sourdough pizza dough recipe"
    c = client.search(query, k=8, pipeline="C", no_cache=True)
    assert "from the probe's lists" in c.relaxation_trace[-1].reason, c.relaxation_trace[-1].reason
    assert not c.penalties, "ranked fields re-order C's list; rrf has none to compare with"
    accepted = next(s for s in c.relaxation_trace if s.accepted)
    hints = {name: list(values) for name, values in Scope.from_proto(accepted.filter).items()}
    direct = client.search(query, k=8, pipeline="rrf", hints=hints, no_cache=True)
    assert [r.doc_id for r in c.results] == [r.doc_id for r in direct.results]
    assert [round(r.score, 6) for r in c.results] == [round(r.score, 6) for r in direct.results]
