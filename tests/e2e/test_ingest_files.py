"""Files through the mesh (seven servers, embedded default): IngestFiles, updates, deletes, bad input,
citations in search results and run records, GetContext, and the CLI.

The mesh runs with a 2 MiB message limit, a 4 MiB file limit and a write token, so streaming past
the message limit, too_large and UNAUTHENTICATED are cheap to show. The write-failure test stops
the dense server and runs last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import grpc
import pytest

from chsr.client import GatewayClient, UnauthenticatedError, file_requests
from chsr.config import Settings
from chsr.v1 import gateway_pb2, gateway_pb2_grpc, ingest_pb2, retriever_pb2, retriever_pb2_grpc
from tests.conftest import Mesh, start_mesh
from tests.ingest_docs import (QUESTIONS_2019, TEXTBOOK_MD, bad_files, docx_bytes, exam_markdown, exam_typst,
                               mark_scheme_docx, typst_pdf)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TOKEN = "e2e-ingest-token"
MESSAGE_LIMIT = 2 * 1024 * 1024
FILE_LIMIT = 4 * 1024 * 1024
PAPER = "papers/northfield_physics_2019.pdf"
SCHEME = "papers/northfield_physics_2019_ms.docx"
BOOK = "books/forces.md"
MANIFEST = "files:\n  - path: 'books/*.md'\n    subject: physics\n    level: grade_10\n    content_type: textbook\n"


@pytest.fixture(scope="module")
def files_mesh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mesh]:
    m = start_mesh(tmp_path_factory.mktemp("files-mesh"), extra_env={
        "CHSR_MAX_MESSAGE_BYTES": str(MESSAGE_LIMIT), "CHSR_INGEST_MAX_BYTES": str(FILE_LIMIT),
        "CHSR_INGEST_TOKEN": TOKEN})
    try:
        yield m
    finally:
        m.supervisor.stop_all()  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def client(files_mesh: Mesh) -> GatewayClient:
    return GatewayClient(files_mesh.gateway, token=TOKEN, timeout=60)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    (root / "papers").mkdir()
    (root / "books").mkdir()
    (root / PAPER).write_bytes(typst_pdf(exam_typst(), root / ".typst"))
    (root / SCHEME).write_bytes(mark_scheme_docx())
    (root / BOOK).write_text(TEXTBOOK_MD, encoding="utf-8")
    (root / "manifest.yaml").write_text(MANIFEST)
    return root


def retriever(mesh: Mesh, name: str) -> retriever_pb2_grpc.RetrieverServiceStub:
    return retriever_pb2_grpc.RetrieverServiceStub(grpc.insecure_channel(mesh.layout.addr(name)))  # type: ignore[attr-defined]


def held(mesh: Mesh, source: str) -> dict[str, dict[str, str]]:
    """server -> {id: content hash} of ``source``'s chunks."""
    out = {}
    for name in ("sparse", "dense"):
        req = retriever_pb2.ListIdsRequest(source=source, include_details=True)
        out[name] = {i: h for page in retriever(mesh, name).ListIds(req, timeout=30)
                     for i, h in zip(page.doc_ids, page.content_hashes)}
    return out


def results(events) -> dict[str, gateway_pb2.FileResult]:  # type: ignore[no-untyped-def]
    return {e.file.file: e.file for e in events if e.WhichOneof("event") == "file"}


def cli(mesh: Mesh, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, CHSR_INGEST_TOKEN=TOKEN)
    return subprocess.run([sys.executable, "-m", "tools.cli.main", *args, "--gateway", mesh.gateway],
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_the_ingest_server_runs_in_the_mesh(files_mesh: Mesh) -> None:
    from tests.contract.helpers import health_status

    channel = grpc.insecure_channel(files_mesh.layout.addr("ingest"))  # type: ignore[attr-defined]
    assert health_status(channel, "chsr.v1.IngestService") == 1


def test_writes_need_the_token(files_mesh: Mesh) -> None:
    anonymous = GatewayClient(files_mesh.gateway, token="")
    with pytest.raises(UnauthenticatedError):
        list(anonymous.ingest_files([("a.md", b"# A\n\nText.\n")]))
    with pytest.raises(UnauthenticatedError):
        anonymous.delete_sources(["a.md"])


def test_cli_ingests_a_folder_with_a_manifest(files_mesh: Mesh, folder: Path, client: GatewayClient) -> None:
    proc = cli(files_mesh, "ingest", str(folder / "papers"), str(folder / "books"), "--root", str(folder),
               "--manifest", str(folder / "manifest.yaml"), "--no-progress")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    table = proc.stdout
    for name in (PAPER, SCHEME, BOOK):
        assert name in table
    assert "3 files, 0 failed" in table and "level=grade_10 (manifest)" in table
    assert "year=2019 (document)" in table, table
    stored = held(files_mesh, PAPER)
    assert stored["sparse"] == stored["dense"] and len(stored["sparse"]) >= 4
    assert client.verify().consistent


def test_search_results_carry_citations(client: GatewayClient) -> None:
    resp = client.search("a ball is dropped from 2.5 m, conservation of energy, speed before it lands", k=3,
                         pipeline="E", no_cache=True)
    top = resp.results[0]
    assert top.metadata.source == PAPER and top.metadata.question_number == 2
    assert top.citation.source == PAPER and top.citation.page_start == 2 and top.citation.question_number == 2
    book = client.search("why does a parachute lower the terminal velocity", k=5, pipeline="C", no_cache=True,
                         hints={"content_type": "textbook"})
    assert book.results and book.results[0].citation.source == BOOK
    assert "Terminal velocity" in book.results[0].citation.heading_path


def test_reingesting_an_unchanged_file_writes_nothing(files_mesh: Mesh, folder: Path, client: GatewayClient) -> None:
    before = held(files_mesh, PAPER)
    generation = client.stats().generation
    got = results(client.ingest_files([(PAPER, folder / PAPER)]))[PAPER]
    assert not got.HasField("error") and got.written == 0 and got.deleted == 0 and got.unchanged == got.chunks
    assert held(files_mesh, PAPER) == before and client.stats().generation == generation


def test_a_changed_file_replaces_its_chunks_and_stale_ones_go_everywhere(files_mesh: Mesh, client: GatewayClient,
                                                                       tmp_path: Path) -> None:
    before = held(files_mesh, PAPER)["sparse"]
    edited = QUESTIONS_2019[:1] + ["A ball is thrown upwards at 8 m/s. How high does it rise?"] + QUESTIONS_2019[2:3]
    got = results(client.ingest_files([(PAPER, typst_pdf(exam_typst(questions=edited), tmp_path))]))[PAPER]
    assert not got.HasField("error") and got.deleted == 1 and got.written >= 1 and got.unchanged >= 1
    after = held(files_mesh, PAPER)
    assert after["sparse"] == after["dense"] and set(after["sparse"]) == set(got.chunk_ids)
    assert len(set(before) - set(after["sparse"])) == 1  # question 4's chunk is gone
    assert client.verify(source=PAPER).consistent and client.verify().consistent
    resp = client.search("a ball is thrown upwards at 8 m/s, how high does it rise", k=1, pipeline="C", no_cache=True)
    assert resp.results[0].citation.source == PAPER and "thrown upwards" in resp.results[0].text


def test_bad_input_through_the_mesh(files_mesh: Mesh, client: GatewayClient, tmp_path: Path) -> None:
    """Every bad file is its own error naming it; the good file ingests; nothing is written for the
    failed ones; a corrupt new version of an indexed file loses nothing."""
    bad = bad_files(tmp_path, FILE_LIMIT)
    kept = held(files_mesh, SCHEME)
    manifest = MANIFEST + "  - path: gone/missing.pdf\n    year: 2019\n  - path: 'odd/*.md'\n    colour: red\n"
    files = [("good/northfield_2019.md", exam_markdown().encode()), *((n, d) for n, (d, _) in bad.items()),
             ("odd/paper.md", exam_markdown().encode()), ("Prüfung – Teil 2 (final)!.md", exam_markdown().encode()),
             (SCHEME, b"PK\x03\x04 not a docx any more")]
    events = list(client.ingest_files(files, manifest=manifest, manifest_name="m.yaml"))
    got = results(events)
    assert not got["good/northfield_2019.md"].HasField("error") and got["good/northfield_2019.md"].written >= 4
    assert not got["Prüfung – Teil 2 (final)!.md"].HasField("error")
    expected = {name: reason for name, (_, reason) in bad.items()} | {
        "odd/paper.md": "MANIFEST_UNKNOWN_FIELD", "gone/missing.pdf": "MANIFEST_MISSING_FILE", SCHEME: "CORRUPT"}
    for name, reason in expected.items():
        result = got.get(name) or got[repr(name)]
        assert ingest_pb2.FileErrorReason.Name(result.error.reason) == f"FILE_ERROR_REASON_{reason}", name
        assert result.written == 0 and result.error.detail
        if name not in ("gone/missing.pdf", SCHEME):
            assert held(files_mesh, result.file) == {"sparse": {}, "dense": {}}, name
    assert held(files_mesh, SCHEME) == kept  # the indexed version survives its corrupt re-ingest
    summary = events[-1].summary
    assert summary.files == len(files) + 1 and summary.failed == len(expected)
    assert client.verify().consistent


def test_a_message_over_the_limit_is_resource_exhausted(files_mesh: Mesh, client: GatewayClient) -> None:
    stub = gateway_pb2_grpc.GatewayServiceStub(grpc.insecure_channel(
        files_mesh.gateway, options=[("grpc.max_send_message_length", 4 * MESSAGE_LIMIT)]))
    requests = [gateway_pb2.IngestFilesRequest(header=ingest_pb2.FileHeader(name="one-piece.md")),
                gateway_pb2.IngestFilesRequest(data=b"a" * (MESSAGE_LIMIT + 1024)),
                gateway_pb2.IngestFilesRequest(end=ingest_pb2.FileEnd())]
    with pytest.raises(grpc.RpcError) as err:
        list(stub.IngestFiles(iter(requests), metadata=(("authorization", f"Bearer {TOKEN}"),), timeout=60))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert held(files_mesh, "one-piece.md") == {"sparse": {}, "dense": {}}


def test_a_file_larger_than_the_message_limit_ingests_in_pieces(files_mesh: Mesh, client: GatewayClient) -> None:
    data = docx_bytes([("Heading1", "Lakeside Grade 8 Science worksheet"),
                       ("Normal", "1. Why does ice float on water?"), ("Normal", "2. Why do metals feel cold?")],
                      padding=MESSAGE_LIMIT + MESSAGE_LIMIT // 2)
    assert MESSAGE_LIMIT < len(data) < FILE_LIMIT
    got = results(client.ingest_files([("sheets/big.docx", data)]))["sheets/big.docx"]
    assert not got.HasField("error") and got.written >= 2


def test_delete_source_removes_its_chunks_everywhere(files_mesh: Mesh, client: GatewayClient) -> None:
    name = "good/northfield_2019.md"
    assert held(files_mesh, name)["sparse"]
    resp = client.delete_sources([name, "never/ingested.md"])
    assert [(s.source, s.deleted > 0) for s in resp.sources] == [(name, True), ("never/ingested.md", False)]
    assert held(files_mesh, name) == {"sparse": {}, "dense": {}}
    assert client.verify().consistent


def test_context_is_cited_deduplicated_and_within_budget(client: GatewayClient) -> None:
    ctx = client.context("why does a skydiver reach a terminal velocity", budget_tokens=160)
    assert ctx.passages and ctx.tokens <= 160 and ctx.budget_tokens == 160
    assert len({p.doc_id for p in ctx.passages}) == len(ctx.passages)
    first = ctx.passages[0]
    assert first.citation.source and f"[1] " in ctx.context and first.citation.source in ctx.context
    assert ctx.answer and all(1 <= a.passage <= len(ctx.passages) for a in ctx.answer)
    assert any("terminal" in a.text.lower() for a in ctx.answer) and ctx.answer[0].citation.source
    other_year = client.context("Northfield Physics Paper 1 a car of mass 1200 kg accelerates from rest",
                                budget_tokens=400, hints={"year": [2018]})
    noted = [p for p in other_year.passages if p.violations]
    assert noted and "another year's paper: asked 2018, this is 2019" in noted[0].scope_note
    with pytest.raises(grpc.RpcError) as err:
        client.context("terminal velocity", budget_tokens=100_000)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and err.value.details().startswith("budget_tokens")


def test_cli_context_and_run_records(files_mesh: Mesh, tmp_path: Path) -> None:
    proc = cli(files_mesh, "context", "why does a skydiver reach a terminal velocity", "--budget", "200")
    assert proc.returncode == 0, proc.stderr
    assert "[1] " in proc.stdout and "Answer (extractive):" in proc.stdout
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"_id": "q1", "text": "a ball is thrown upwards at 8 m/s, how high does it rise"}) + "\n")
    out = tmp_path / "run.jsonl"
    proc = cli(files_mesh, "run", str(queries), "-p", "E", "-k", "3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    citation = record["results"][0]["citation"]
    assert set(citation) == {"source", "page_start", "page_end", "heading_path"}
    assert citation["source"] == PAPER and citation["page_start"] == 2


def test_cli_skip_invalid_jsonl(files_mesh: Mesh, tmp_path: Path, client: GatewayClient) -> None:
    corpus = tmp_path / "beir.jsonl"
    lines = [{"_id": "beir-1", "title": "Kinetic energy", "text": "Kinetic energy is half the mass times speed squared."},
             {"_id": "beir-2", "title": "", "text": ""},
             {"_id": "beir-3", "text": "Potential energy grows with height."},
             {"_id": "beir-4", "title": "", "text": "   "}]
    corpus.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    refused = cli(files_mesh, "ingest", str(corpus), "--no-progress")
    assert refused.returncode == 2 and "nothing was sent" in refused.stderr and "beir.jsonl:2" in refused.stderr
    assert "--skip-invalid" in refused.stderr
    proc = cli(files_mesh, "ingest", str(corpus), "--skip-invalid", "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert "skipped 2 invalid line(s)" in proc.stdout and "beir.jsonl:2" in proc.stdout and "beir.jsonl:4" in proc.stdout
    assert "received 2" in proc.stdout


def test_a_backend_failing_mid_write_rolls_the_file_back(files_mesh: Mesh, client: GatewayClient,
                                                         tmp_path: Path) -> None:
    """Dense down while a changed paper is written: WRITE_FAILED, the previous version intact in the
    sparse server, a new file of the same request not half-written; after dense is back, a rerun
    ingests and the index is consistent. Runs last (it restarts dense)."""
    from tools.cli.up_cmd import wait_serving

    before = held(files_mesh, PAPER)
    sup = files_mesh.supervisor
    sup.procs["dense"].terminate()  # type: ignore[attr-defined]
    sup.procs["dense"].wait(30)  # type: ignore[attr-defined]
    changed = typst_pdf(exam_typst(questions=["A kettle of 2 kW runs for 3 minutes. How much energy does it use?"]),
                        tmp_path)
    got = results(client.ingest_files([(PAPER, changed), ("new/sheet.md", exam_markdown().encode())],
                                      timeout=120))
    for name in (PAPER, "new/sheet.md"):
        assert got[name].error.reason == ingest_pb2.FILE_ERROR_REASON_WRITE_FAILED, got[name]
        assert "dense" in got[name].error.detail
    sparse = retriever(files_mesh, "sparse")
    listing = {i: h for page in sparse.ListIds(retriever_pb2.ListIdsRequest(source=PAPER, include_details=True),
                                               timeout=30) for i, h in zip(page.doc_ids, page.content_hashes)}
    assert listing == before["sparse"]
    new = list(sparse.ListIds(retriever_pb2.ListIdsRequest(source="new/sheet.md"), timeout=30))
    assert not any(p.doc_ids for p in new)
    sup.start_service("dense")  # type: ignore[attr-defined]
    assert wait_serving(files_mesh.layout.addr("dense"), 240)  # type: ignore[attr-defined]
    time.sleep(1)
    assert client.verify().consistent
    again = results(client.ingest_files([(PAPER, changed)], timeout=300))[PAPER]
    assert not again.HasField("error") and again.written >= 1
    assert client.verify().consistent
