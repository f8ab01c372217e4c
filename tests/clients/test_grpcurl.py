"""grpcurl through server reflection, as a new user calls the mesh (issue 10): no deadline unless
``-max-time`` is given, JSON in and out, the bearer token as a header.

Every unary RPC of the gateway runs without a deadline, with ``-max-time 5`` and with
``-max-time 600`` (same answer each time), and with ``-max-time 0.001``; one IngestWithProgress
stream is fed from stdin; errors name the field (message and ``chsr-field`` trailer); the stage
servers are called directly without a deadline.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from tests.clients.conftest import QUERY, SERVERS, ClientMesh
from tests.clients.grpcurl import Grpcurl, Reply
from tests.clients.report import REPO_ROOT
from tests.clients.tools import go_tool

pytestmark = [pytest.mark.clients, pytest.mark.slow]

CLIENT = "grpcurl"
GW = "chsr.v1.GatewayService"
MAX_TIMES: list[float | None] = [None, 5, 600]


@pytest.fixture(scope="module")
def grpcurl() -> Grpcurl:
    return Grpcurl(go_tool("grpcurl"))


def max_time_case(max_time: float | None) -> str:
    return "no deadline" if max_time is None else f"-max-time {max_time:g}"


def auth(cm: ClientMesh, token: str | None = None) -> tuple[str, ...]:
    return (f"authorization: Bearer {cm.token if token is None else token}",)


def expect(cm: ClientMesh, rpc: str, case: str, reply: Reply, code: str, detail: str = "") -> Reply:
    """Record the outcome and fail unless grpcurl got ``code``."""
    ok = reply.code == code
    cm.record(CLIENT, rpc, case, reply.describe() + (f" {detail}" if detail and ok else ""), ok)
    assert ok, f"{rpc} [{case}]: want {code}, got {reply.code}: {reply.message}\n{reply.stderr[-800:]}"
    return reply


# ---- reflection --------------------------------------------------------------------------------
def test_list_through_reflection_on_every_server(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    for server, service in SERVERS.items():
        out = grpcurl.plain(client_mesh.addr(server), "list")
        listed = set(out.stdout.split())
        ok = out.returncode == 0 and {service, "grpc.health.v1.Health"} <= listed
        client_mesh.record(CLIENT, f"{server}: reflection list", "no deadline",
                           f"OK ({len(listed)} services)" if ok else f"rc {out.returncode}", ok)
        assert ok, f"{server}: {out.stdout} {out.stderr}"


def test_describe_the_gateway_service_and_a_message(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    out = grpcurl.plain(client_mesh.gateway, "describe", GW)
    rpcs = ["Search", "Ingest", "IngestWithProgress", "Delete", "IndexStats", "VerifyIndex", "ListPipelines"]
    missing = [r for r in rpcs if f"rpc {r} (" not in out.stdout]
    client_mesh.record(CLIENT, "reflection describe", GW, "OK" if not missing else f"missing {missing}", not missing)
    assert out.returncode == 0 and not missing, out.stdout + out.stderr
    msg = grpcurl.plain(client_mesh.gateway, "describe", "chsr.v1.SearchRequest")
    fields = ["query", "k", "hints", "pipeline", "strict_scope", "no_cache"]
    absent = [f for f in fields if f" {f} = " not in msg.stdout]
    client_mesh.record(CLIENT, "reflection describe", "chsr.v1.SearchRequest", "OK" if not absent else f"missing {absent}",
                       not absent)
    assert msg.returncode == 0 and not absent, msg.stdout + msg.stderr


def test_the_baseline_image_serves_as_a_protoset(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    """protos/baseline/v1.binpb (the `buf breaking` baseline) is a FileDescriptorSet: grpcurl calls the
    mesh with it instead of reflection and gets the same answer, so the baseline describes what the
    servers serve."""
    request = {"query": QUERY, "k": 3, "pipeline": "E", "no_cache": True}
    flags = ("-protoset", str(REPO_ROOT / "protos" / "baseline" / "v1.binpb"), "-use-reflection=false")
    with_set = grpcurl.call(client_mesh.gateway, f"{GW}/Search", request, flags=flags)
    expect(client_mesh, "GatewayService/Search", "-protoset baseline (no reflection), no deadline", with_set, "OK")
    reflected = grpcurl.call(client_mesh.gateway, f"{GW}/Search", request)
    assert search_answer(with_set) == search_answer(reflected) and search_answer(with_set)


# ---- every unary RPC of the gateway, with and without a deadline ----------------------------
def doc_id(obj: dict) -> str:
    """grpcurl 1.9 prints proto field names (doc_id); older releases printed JSON names (docId)."""
    return obj.get("doc_id", obj.get("docId", ""))


def search_answer(reply: Reply) -> Any:
    return [(doc_id(r), r.get("relaxation")) for r in reply.messages[0].get("results", [])]


def stats_answer(reply: Reply) -> Any:
    return [(b["backend"], b.get("documents")) for b in reply.messages[0].get("backends", [])]


UNARY: list[tuple[str, Callable[[ClientMesh], dict], bool, Callable[[Reply], Any]]] = [
    # (rpc, request, needs the token, what must not depend on the deadline)
    ("Search", lambda cm: {"query": QUERY, "k": 3, "pipeline": "E", "no_cache": True}, False, search_answer),
    ("Search", lambda cm: {"query": "photosynthesis in plants", "k": 5, "pipeline": "rrf", "no_cache": True},
     False, search_answer),
    ("IndexStats", lambda cm: {}, False, stats_answer),
    ("VerifyIndex", lambda cm: {}, False, lambda r: r.messages[0].get("consistent")),
    ("ListPipelines", lambda cm: {}, False, lambda r: r.messages[0]),
    ("Delete", lambda cm: {"doc_ids": ["grpcurl-never-stored"]}, True, lambda r: r.messages[0].get("deleted", 0)),
]


@pytest.mark.parametrize("rpc,request_of,write,answer", UNARY,
                         ids=[f"{u[0]}-{i}" for i, u in enumerate(UNARY)])
def test_unary_rpc_answers_the_same_with_and_without_max_time(client_mesh: ClientMesh, grpcurl: Grpcurl, rpc: str,
                                                              request_of, write: bool, answer) -> None:  # type: ignore[no-untyped-def]
    headers = auth(client_mesh) if write else ()
    answers = []
    for max_time in MAX_TIMES:
        reply = grpcurl.call(client_mesh.gateway, f"{GW}/{rpc}", request_of(client_mesh), max_time=max_time,
                             headers=headers)
        expect(client_mesh, f"GatewayService/{rpc}", max_time_case(max_time), reply, "OK")
        answers.append(answer(reply))
    same = all(a == answers[0] for a in answers)
    client_mesh.record(CLIENT, f"GatewayService/{rpc}", "answer independent of -max-time",
                       "same answer" if same else "DIFFERENT answers", same)
    assert same, answers
    if rpc == "Search":
        assert answers[0], "Search found nothing"


@pytest.mark.parametrize("rpc,request_of,write,answer", UNARY,
                         ids=[f"{u[0]}-{i}" for i, u in enumerate(UNARY)])
def test_unary_rpc_with_a_1ms_max_time(client_mesh: ClientMesh, grpcurl: Grpcurl, rpc: str, request_of, write: bool,
                                       answer) -> None:  # type: ignore[no-untyped-def]
    """1 ms: grpcurl usually gives up while dialling or reflecting (its own error); when the call is
    made, the mesh answers DEADLINE_EXCEEDED. Never UNKNOWN or INTERNAL."""
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/{rpc}", request_of(client_mesh), max_time=0.001,
                         headers=auth(client_mesh) if write else ())
    ok = reply.code in ("DeadlineExceeded", "grpcurl-error") and (
        reply.code != "grpcurl-error" or "deadline" in reply.stderr.lower())
    client_mesh.record(CLIENT, f"GatewayService/{rpc}", "-max-time 0.001", reply.describe(), ok)
    assert ok, reply.stderr


# ---- streaming ingest from stdin -------------------------------------------------------------
def batch(n: int, size: int = 3) -> dict:
    return {"documents": [{"id": f"grpcurl-{n}-{i}", "title": f"grpcurl fixture {n}.{i}",
                           "text": f"Copper kettles {i} hum in the lighthouse of batch {n}.",
                           "metadata": {"subject": "physics", "level": "grade_10"}} for i in range(size)]}


def test_ingest_with_progress_from_stdin_acknowledges_each_batch(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    batches = [batch(n) for n in range(3)]
    stdin = "\n".join(json.dumps(b) for b in batches)
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/IngestWithProgress", stdin, headers=auth(client_mesh))
    acks = reply.messages
    expect(client_mesh, "GatewayService/IngestWithProgress", "3 batches on stdin, token", reply, "OK",
           f"({len(acks)} messages)")
    assert [a.get("batches") for a in acks[:-1]] == [1, 2, 3], acks
    assert [a.get("received") for a in acks[:-1]] == [3, 6, 9], acks
    assert "summary" in acks[-1] and acks[-1]["summary"]["received"] == 9, acks[-1]
    ids = [d["id"] for b in batches for d in b["documents"]]
    deleted = grpcurl.call(client_mesh.gateway, f"{GW}/Delete", {"doc_ids": ids}, headers=auth(client_mesh))
    expect(client_mesh, "GatewayService/Delete", "token, the ingested ids", deleted, "OK")
    assert deleted.messages[0]["deleted"] == len(ids)


def test_client_streaming_ingest(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    stdin = json.dumps(batch(7, 2))
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/Ingest", stdin, headers=auth(client_mesh))
    expect(client_mesh, "GatewayService/Ingest", "1 batch on stdin, token", reply, "OK")
    assert reply.messages[0]["summary"]["received"] == 2
    deleted = grpcurl.call(client_mesh.gateway, f"{GW}/Delete", {"doc_ids": ["grpcurl-7-0", "grpcurl-7-1"]},
                           headers=auth(client_mesh))
    expect(client_mesh, "GatewayService/Delete", "token, the ingested ids", deleted, "OK")


# ---- errors ------------------------------------------------------------------------------------
INVALID = [
    ("unknown pipeline", {"query": QUERY, "k": 3, "pipeline": "warp-drive"}, "pipeline"),
    ("k = 0", {"query": QUERY, "k": 0}, "k"),
    ("k = 101 (over CHSR_MAX_K)", {"query": QUERY, "k": 101}, "k"),
    ("blank query", {"query": "  ", "k": 3}, "query"),
]


@pytest.mark.parametrize("case,request_,field", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_search_names_the_field(client_mesh: ClientMesh, grpcurl: Grpcurl, case: str, request_: dict,
                                        field: str) -> None:
    messages = set()
    for max_time in MAX_TIMES:
        reply = grpcurl.call(client_mesh.gateway, f"{GW}/Search", request_, max_time=max_time)
        expect(client_mesh, "GatewayService/Search", f"{case}, {max_time_case(max_time)}", reply, "InvalidArgument")
        assert reply.trailers.get("chsr-field") == field, reply.stdout
        assert reply.message.startswith(f"{field}: "), reply.message
        assert reply.rc == 64 + 3, reply.rc   # grpcurl exits 64 + the status code
        messages.add(reply.message)
    assert len(messages) == 1, f"the message depends on the deadline: {messages}"


@pytest.mark.parametrize("case,token", [("missing token", None), ("wrong token", "not-the-token")])
def test_writes_without_the_token_are_unauthenticated(client_mesh: ClientMesh, grpcurl: Grpcurl, case: str,
                                                      token: str | None) -> None:
    headers = () if token is None else auth(client_mesh, token)
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/Delete", {"doc_ids": ["grpcurl-never-stored"]}, headers=headers)
    expect(client_mesh, "GatewayService/Delete", case, reply, "Unauthenticated")
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/IngestWithProgress", json.dumps(batch(8, 1)), headers=headers)
    expect(client_mesh, "GatewayService/IngestWithProgress", case, reply, "Unauthenticated")
    assert not reply.messages, "an unauthenticated ingest was acknowledged"


def test_a_message_over_the_size_limit_is_resource_exhausted(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    huge = json.dumps({"query": "a" * (client_mesh.max_message_bytes + 1024), "k": 3})
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/Search", huge, verbose=False)
    expect(client_mesh, "GatewayService/Search", "message over CHSR_MAX_MESSAGE_BYTES", reply, "ResourceExhausted")
    stream = json.dumps({"documents": [{"id": "grpcurl-huge", "text": "a" * (client_mesh.max_message_bytes + 1024)}]})
    reply = grpcurl.call(client_mesh.gateway, f"{GW}/IngestWithProgress", stream, headers=auth(client_mesh),
                         verbose=False)
    expect(client_mesh, "GatewayService/IngestWithProgress", "message over CHSR_MAX_MESSAGE_BYTES", reply,
           "ResourceExhausted")


# ---- the stage servers, directly, without a deadline ------------------------------------------
def candidates(reply: Reply) -> list[str]:
    return [doc_id(c) for c in reply.messages[0].get("candidates", [])]


@pytest.mark.parametrize("leg", ["sparse", "dense"])
def test_retriever_retrieve_directly_without_a_deadline(client_mesh: ClientMesh, grpcurl: Grpcurl, leg: str) -> None:
    method = "chsr.v1.RetrieverService/Retrieve"
    request = {"query": QUERY, "k": 5, "filter": {"subject": ["physics"]}}
    answers = []
    for max_time in MAX_TIMES:
        reply = grpcurl.call(client_mesh.addr(leg), method, request, max_time=max_time)
        expect(client_mesh, f"{leg}: RetrieverService/Retrieve", max_time_case(max_time), reply, "OK")
        answers.append(candidates(reply))
    assert answers[0] and all(a == answers[0] for a in answers), answers
    bad = grpcurl.call(client_mesh.addr(leg), method, {"query": QUERY, "k": 0})
    expect(client_mesh, f"{leg}: RetrieverService/Retrieve", "k = 0", bad, "InvalidArgument")
    assert bad.trailers.get("chsr-field") == "k", bad.stdout


def test_other_stage_rpcs_directly_without_a_deadline(client_mesh: ClientMesh, grpcurl: Grpcurl) -> None:
    calls = [
        ("gate", "chsr.v1.GateService/Gate", {"query": QUERY, "extract": True}),
        ("fusion", "chsr.v1.FusionService/Fuse",
         {"mode": "rrf", "k": 2, "lists": [{"name": "sparse", "candidates": [{"docId": "a", "score": 2, "rank": 1},
                                                                            {"docId": "b", "score": 1, "rank": 2}]},
                                           {"name": "dense", "candidates": [{"docId": "b", "score": 0.9, "rank": 1}]}]}),
        ("rerank", "chsr.v1.RerankService/Rerank",
         {"query": QUERY, "mode": "none", "k": 1,
          "candidates": [{"docId": "a", "score": 1, "rank": 1, "document": {"id": "a", "text": "a car accelerates"}}]}),
        ("dense", "chsr.v1.EncoderService/Encode", {"texts": ["acceleration"], "is_query": True}),
        ("sparse", "chsr.v1.RetrieverService/Stats", {}),
        ("sparse", "chsr.v1.RetrieverService/GetDocuments", {"doc_ids": ["demo:nfb_phys_2017_p1_q1"]}),
    ]
    for server, method, request in calls:
        reply = grpcurl.call(client_mesh.addr(server), method, request)
        expect(client_mesh, f"{server}: {method.split('.')[-1]}", "no deadline", reply, "OK")
        assert reply.messages and reply.messages[0], reply.stdout
