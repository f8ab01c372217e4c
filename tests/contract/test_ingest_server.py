"""The IngestService contract on the ingest server's own wiring, with a real gate behind it.

Message limit 256 KiB and file limit 1 MiB here, so streaming past the message limit, chunk
batches under it, RESOURCE_EXHAUSTED and too_large are cheap to show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2

from chsr.config import Settings
from chsr.server import start_server
from chsr.v1 import ingest_pb2, ingest_pb2_grpc
from tests.conftest import DEMO_CORPUS
from tests.contract.helpers import health_status, reflected_services, serving
from tests.ingest_docs import TEXTBOOK_MD, bad_files, docx_bytes, exam_markdown, exam_typst, mark_scheme_docx, typst_pdf

pytestmark = pytest.mark.contract

MESSAGE_LIMIT = 256 * 1024
FILE_LIMIT = 1024 * 1024
PIECE = 64 * 1024


@pytest.fixture(scope="module")
def gate_addr() -> Iterator[str]:
    from services.gate import server

    settings = Settings(vocabulary_path=str(DEMO_CORPUS))
    register, _ = server.build(settings)
    running = start_server("gate", register, settings, port=0, metrics_port=0)
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


@pytest.fixture(scope="module")
def channel(gate_addr: str) -> Iterator[grpc.Channel]:
    from services.ingest import server

    settings = Settings(gate_addr=gate_addr, max_message_bytes=MESSAGE_LIMIT, ingest_max_bytes=FILE_LIMIT)
    with serving("ingest", server.build, settings) as ch:
        yield ch


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> ingest_pb2_grpc.IngestServiceStub:
    return ingest_pb2_grpc.IngestServiceStub(channel)


def stream(files: Iterable[tuple[str, bytes]], manifest: str = "", fields: dict | None = None,
           piece: int = PIECE) -> Iterator[ingest_pb2.ParseFilesRequest]:
    if manifest:
        yield ingest_pb2.ParseFilesRequest(options=ingest_pb2.IngestOptions(manifest=manifest, manifest_name="m.yaml"))
    for name, data in files:
        yield ingest_pb2.ParseFilesRequest(header=ingest_pb2.FileHeader(name=name, fields=(fields or {}).get(name, {})))
        for start in range(0, len(data), piece):
            yield ingest_pb2.ParseFilesRequest(data=data[start:start + piece])
        yield ingest_pb2.ParseFilesRequest(end=ingest_pb2.FileEnd())


def parse(stub, requests) -> tuple[dict[str, ingest_pb2.ParsedFile], dict[str, list], list]:  # type: ignore[no-untyped-def]
    """file -> ParsedFile, file -> its chunk documents, and every response in order."""
    files, chunks, events = {}, {}, []
    for resp in stub.ParseFiles(requests, timeout=120):
        events.append(resp)
        kind = resp.WhichOneof("event")
        if kind == "chunks":
            chunks.setdefault(resp.chunks.file, []).extend(resp.chunks.documents)
        elif kind == "file":
            files[resp.file.file] = resp.file
    return files, chunks, events


def test_health_and_reflection(channel: grpc.Channel) -> None:
    assert health_status(channel) == health_pb2.HealthCheckResponse.SERVING
    assert health_status(channel, "chsr.v1.IngestService") == health_pb2.HealthCheckResponse.SERVING
    assert {"chsr.v1.IngestService", "grpc.health.v1.Health"} <= reflected_services(channel)


def test_files_become_cited_labelled_chunks(stub, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pdf = typst_pdf(exam_typst(), tmp_path)
    files, chunks, events = parse(stub, stream([("papers/northfield_physics_2019.pdf", pdf),
                                               ("papers/northfield_physics_2019_ms.docx", mark_scheme_docx()),
                                               ("books/forces.md", TEXTBOOK_MD.encode())]))
    paper = files["papers/northfield_physics_2019.pdf"]
    assert not paper.HasField("error") and paper.role == "questions" and paper.pages == 2
    fields = {f.field: (f.value, f.source) for f in paper.fields}
    assert fields["exam_board"] == ("Northfield Examinations Board", "document")
    assert fields["paper"] == ("Northfield Physics Paper 1", "document") and fields["year"] == ("2019", "document")
    assert fields["content_type"][0] == "exam_question"
    questions = [c for c in chunks[paper.file] if c.metadata.HasField("question_number")]
    assert [c.metadata.question_number for c in questions] == [1, 2, 3, 4]
    q1 = questions[0]
    assert q1.metadata.source == paper.file and q1.citation.source == paper.file
    assert q1.citation.page_start == 2 and q1.citation.question_number == 1 and q1.chunking
    assert q1.citation.title == "Northfield Physics Paper 1" or "Northfield" in q1.citation.title
    scheme = files["papers/northfield_physics_2019_ms.docx"]
    assert scheme.role == "answers" and {c.metadata.content_type for c in chunks[scheme.file]} == {"mark_scheme"}
    book = chunks["books/forces.md"]
    assert any("Terminal velocity" in c.citation.heading_path for c in book)
    # per file: progress first, then its chunks, then its result, in request order
    order = [(r.WhichOneof("event"), getattr(r, r.WhichOneof("event")).file) for r in events]
    assert [f for kind, f in order if kind == "file"] == list(files)
    first_chunks = next(i for i, (k, f) in enumerate(order) if k == "chunks" and f == paper.file)
    assert order.index(("file", paper.file)) > first_chunks


def test_every_bad_file_is_its_own_error_and_the_others_parse(stub, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = bad_files(tmp_path, FILE_LIMIT)
    good = ("ok/paper.md", exam_markdown().encode())
    requests = [good, *((name, data) for name, (data, _) in bad.items())]
    files, chunks, _ = parse(stub, stream(requests))
    assert not files["ok/paper.md"].HasField("error") and len(chunks["ok/paper.md"]) >= 4
    for name, (_, reason) in bad.items():
        result = next(f for f in files.values() if f.file in (name, repr(name)))
        assert ingest_pb2.FileErrorReason.Name(result.error.reason) == f"FILE_ERROR_REASON_{reason}", name
        assert result.error.detail and result.error.file
        assert result.file not in chunks, f"{name}: chunks sent for a refused file"
    assert len(files) == len(bad) + 1


def test_duplicate_name_is_refused(stub) -> None:  # type: ignore[no-untyped-def]
    events = list(stub.ParseFiles(stream([("a.md", b"# A\n\nOne.\n"), ("./a.md", b"# A\n\nTwo.\n")]), timeout=60))
    results = [e.file for e in events if e.WhichOneof("event") == "file"]
    assert not results[0].HasField("error")
    assert results[1].error.reason == ingest_pb2.FILE_ERROR_REASON_DUPLICATE_NAME


def test_manifest_wins_unknown_fields_and_missing_files_are_per_file_errors(stub) -> None:  # type: ignore[no-untyped-def]
    manifest = ("files:\n  - path: 'old/*.md'\n    colour: blue\n  - path: new/paper.md\n    year: 2021\n"
                "    level: grade_11\n  - path: gone/paper.pdf\n    year: 2019\n")
    files, _, _ = parse(stub, stream([("old/paper.md", exam_markdown().encode()),
                                      ("new/paper.md", exam_markdown().encode()),
                                      ("own/paper.md", exam_markdown().encode())],
                                     manifest=manifest, fields={"own/paper.md": {"subject": "physics", "tint": "x"}}))
    assert files["old/paper.md"].error.reason == ingest_pb2.FILE_ERROR_REASON_MANIFEST_UNKNOWN_FIELD
    assert "colour" in files["old/paper.md"].error.detail
    new = {f.field: (f.value, f.source) for f in files["new/paper.md"].fields}
    assert new["year"] == ("2021", "manifest") and new["level"] == ("grade_11", "manifest")
    assert files["own/paper.md"].error.reason == ingest_pb2.FILE_ERROR_REASON_MANIFEST_UNKNOWN_FIELD
    missing = files["gone/paper.pdf"]
    assert missing.error.reason == ingest_pb2.FILE_ERROR_REASON_MANIFEST_MISSING_FILE and "m.yaml" in missing.error.detail


def test_a_file_larger_than_the_message_limit_streams_in_pieces(stub) -> None:  # type: ignore[no-untyped-def]
    data = docx_bytes([("Heading1", "Worksheet"), ("Normal", "1. Why does ice float on water?"),
                       ("Normal", "2. Why do metals conduct heat?")], padding=3 * MESSAGE_LIMIT)
    assert MESSAGE_LIMIT < len(data) < FILE_LIMIT
    files, chunks, events = parse(stub, stream([("sheets/big.docx", data)], piece=PIECE))
    assert not files["sheets/big.docx"].HasField("error") and chunks["sheets/big.docx"]
    received = [e.progress.bytes for e in events if e.WhichOneof("event") == "progress"
                and e.progress.stage == ingest_pb2.FILE_STAGE_RECEIVING]
    assert received[-1] == len(data) and received == sorted(received)


def test_many_chunks_come_in_batches_under_the_message_limit(stub) -> None:  # type: ignore[no-untyped-def]
    body = "\n\n".join(f"## Section {i}\n\n" + " ".join(f"Sentence {i}.{k} about forces and motion." for k in range(40))
                       for i in range(150))
    data = f"# Long chapter\n\n{body}\n".encode()
    _, chunks, events = parse(stub, stream([("books/long.md", data)]))
    batches = [e for e in events if e.WhichOneof("event") == "chunks"]
    assert len(batches) > 1 and all(b.ByteSize() < MESSAGE_LIMIT for b in batches)
    assert len({c.id for c in chunks["books/long.md"]}) == len(chunks["books/long.md"])


def test_a_message_over_the_limit_is_resource_exhausted(stub) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as err:
        list(stub.ParseFiles(stream([("x.md", b"a" * (MESSAGE_LIMIT + 10))], piece=MESSAGE_LIMIT + 10), timeout=30))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.parametrize("requests,field", [
    ([ingest_pb2.ParseFilesRequest(data=b"abc")], "data"),
    ([ingest_pb2.ParseFilesRequest(header=ingest_pb2.FileHeader(name="a.md")),
      ingest_pb2.ParseFilesRequest(header=ingest_pb2.FileHeader(name="b.md"))], "header"),
    ([ingest_pb2.ParseFilesRequest(header=ingest_pb2.FileHeader(name="a.md"))], "end"),
    ([ingest_pb2.ParseFilesRequest(options=ingest_pb2.IngestOptions(manifest="files: [1, 2"))], "options.manifest"),
    ([ingest_pb2.ParseFilesRequest()], "part"),
])
def test_a_malformed_stream_is_invalid_argument(stub, requests, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as err:
        list(stub.ParseFiles(iter(requests), timeout=30))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and err.value.details().startswith(field)


def test_checksum_mismatch_is_corrupt(stub) -> None:  # type: ignore[no-untyped-def]
    requests = [ingest_pb2.ParseFilesRequest(header=ingest_pb2.FileHeader(name="a.md")),
                ingest_pb2.ParseFilesRequest(data=b"# A\n\nText.\n"),
                ingest_pb2.ParseFilesRequest(end=ingest_pb2.FileEnd(sha256="0" * 64))]
    (result,) = [e.file for e in stub.ParseFiles(iter(requests), timeout=30) if e.WhichOneof("event") == "file"]
    assert result.error.reason == ingest_pb2.FILE_ERROR_REASON_CORRUPT


def test_gate_down_degrades_metadata_to_a_warning() -> None:
    from services.ingest import server

    settings = Settings(gate_addr="127.0.0.1:9", max_message_bytes=MESSAGE_LIMIT, ingest_max_bytes=FILE_LIMIT)
    with serving("ingest", server.build, settings) as ch:
        files, chunks, _ = parse(ingest_pb2_grpc.IngestServiceStub(ch), stream([("p/n_2019.md", exam_markdown().encode())]))
    result = files["p/n_2019.md"]
    assert not result.HasField("error") and chunks[result.file]
    assert any("scope reader failed" in w and "gate" in w for w in result.warnings)
    assert "paper" in result.unresolved
