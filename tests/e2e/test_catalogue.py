"""The gate's catalogue follows ingest and delete through the real mesh (issue 21): a paper the gate has
never heard of is recognised once its chunks are ingested through the gateway, and forgotten once deleted."""

from __future__ import annotations

import time

import grpc
import pytest

from chsr.client import GatewayClient
from chsr.documents import Doc
from chsr.v1 import gate_pb2, gate_pb2_grpc

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PAPER = "Quillfield Chemistry Paper 3"
QUERY = "Quillfield Chemistry Paper 3 question about titration"
WAIT_S = 30.0


def _docs() -> list[Doc]:
    return [Doc(id=f"quill:{i}", text=f"Titration question {i}: the burette reading is ...", metadata={
        "subject": "chemistry", "level": "grade_11", "year": 2021, "paper": PAPER, "content_type": "exam_question",
        "question_number": i, "language": "en", "source": "quillfield"}) for i in (1, 2, 3)]


def _gate_papers(mesh) -> tuple[tuple[str, ...], str]:  # type: ignore[no-untyped-def]
    with grpc.insecure_channel(mesh.layout.addr("gate")) as channel:
        resp = gate_pb2_grpc.GateServiceStub(channel).Gate(gate_pb2.GateRequest(query=QUERY, extract=True), timeout=10)
    return tuple(resp.scope.paper), resp.catalogue_version


def _wait_for(mesh, known: bool) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WAIT_S
    while True:
        papers, version = _gate_papers(mesh)
        if (PAPER in papers) == known:
            return version
        assert time.monotonic() < deadline, f"gate still {'lacks' if known else 'holds'} {PAPER} after {WAIT_S}s"
        time.sleep(0.5)


def test_the_gate_knows_a_paper_after_its_ingest_and_not_after_its_delete(mesh):
    client = GatewayClient(mesh.gateway)
    assert PAPER not in _gate_papers(mesh)[0]
    client.ingest(_docs())
    with_paper = _wait_for(mesh, known=True)
    assert with_paper
    resp = client.search(QUERY, k=5, pipeline="C", no_cache=True)
    assert PAPER in resp.scope.paper and all(r.metadata.paper == PAPER for r in resp.results)
    client.delete([d.id for d in _docs()])
    without = _wait_for(mesh, known=False)
    assert without and without != with_paper
