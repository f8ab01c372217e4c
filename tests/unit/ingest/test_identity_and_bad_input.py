"""Stable ids and the ingest plan; every bad-input case is one typed per-file error, never an exception."""

from __future__ import annotations

import io

import pytest

from services.ingest.errors import FileErrorReason
from gateway.file_plan import plan_ingest
from services.ingest.identity import chunk_id
from services.ingest.manifest import parse_manifest
from services.ingest.pipeline import IngestLimits, ingest_file
from tests.unit.ingest.conftest import docx_bytes

pytestmark = pytest.mark.unit

MD = "# AMC 10A 2019\n\n1. What is 2+2?\n\n2. What is 3+3?\n\n3. What is 4+4?\n".encode()


def _ingest(name, data, counter, params, **kw):
    return ingest_file(name, data, counter=counter, params=params, **kw)


def test_ids_are_stable_and_bounded():
    assert chunk_id("papers/a.pdf", "q1") == chunk_id("./papers/a.pdf", "q1") != chunk_id("papers/b.pdf", "q1")
    assert chunk_id("papers/Prüfung 2019 (final).pdf", "q3").startswith("file:prufung-2019-final-")
    assert len(chunk_id("x/" + "é" * 300 + ".pdf", "s" * 600).encode()) <= 512


def test_reingest_unchanged_changed_and_deleted(counter, params):
    first = _ingest("paper.md", MD, counter, params)
    assert first.ok and first.role == "questions" and len(first.docs) == 3
    stored = dict(first.hashes)
    again = _ingest("paper.md", MD, counter, params)
    plan = plan_ingest(stored, [(d, again.hashes[d.id]) for d in again.docs])
    assert plan.is_noop and len(plan.unchanged) == 3
    edited = _ingest("paper.md", MD.replace(b"3. What is 4+4?\n", b"").replace(b"3+3", b"5+5"), counter, params)
    plan = plan_ingest(stored, [(d, edited.hashes[d.id]) for d in edited.docs])
    assert [d.id.rsplit(":", 1)[1] for d in plan.upsert] == ["q2"]
    assert [i.rsplit(":", 1)[1] for i in plan.delete] == ["q3"] and len(plan.unchanged) == 1
    assert plan_ingest(stored, []).delete == sorted(stored)


def test_chunk_metadata_and_provenance(counter, params, gate_reader):
    result = _ingest("amc/2019-amc10a.md", MD, counter, params, read_scope=gate_reader)
    meta = result.docs[0].metadata
    assert meta["question_number"] == 1 and meta["content_type"] == "exam_question" and meta["source"] == "amc/2019-amc10a.md"
    assert meta["paper"] == "AMC 10A" and result.metadata.provenance()["content_type"] in ("structure", "document", "file_name")


def _pdf_with(typst_pdf, source):
    return typst_pdf(source)


@pytest.mark.parametrize("name, data, reason", [
    ("empty.pdf", b"", FileErrorReason.EMPTY),
    ("blank.txt", b"  \n\n ", FileErrorReason.EMPTY),
    ("photo.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64, FileErrorReason.UNKNOWN_TYPE),
    ("paper.doc", b"\xd0\xcf\x11\xe0" + b"\0" * 64, FileErrorReason.UNKNOWN_TYPE),
    ("fake.pdf", b"this is not a pdf at all", FileErrorReason.CORRUPT),
    ("broken.pdf", b"%PDF-1.7\n1 0 obj <<>> garbage", FileErrorReason.CORRUPT),
    ("broken.docx", b"PK\x03\x04 not really a zip", FileErrorReason.CORRUPT),
    ("bad\x00name.md", MD, FileErrorReason.BAD_NAME),
    ("../escape.md", MD, FileErrorReason.BAD_NAME),
    ("x" * 300 + ".md", MD, FileErrorReason.BAD_NAME),
])
def test_bad_input_is_a_per_file_error(name, data, reason, counter, params):
    result = _ingest(name, data, counter, params)
    assert not result.ok and result.error.reason is reason and not result.docs
    assert result.error.file and str(result.error).startswith(result.error.file)


def test_odd_but_safe_names_ingest(counter, params):
    for name in ("Prüfung – Teil 2 (final)!.md", "试卷 2019.md", "with space/and#hash.md"):
        assert _ingest(name, MD, counter, params).ok, name


def test_too_large(counter, params):
    result = _ingest("big.md", MD * 10, counter, params, limits=IngestLimits(max_bytes=100))
    assert result.error.reason is FileErrorReason.TOO_LARGE


def test_scanned_pdf_has_no_text_layer(typst_pdf, counter, params):
    data = typst_pdf('#rect(width: 10cm, height: 14cm, fill: gray)\n#pagebreak()\n#rect(width: 5cm, height: 5cm)')
    result = _ingest("scan.pdf", data, counter, params)
    assert result.error.reason is FileErrorReason.NO_TEXT_LAYER and "OCR" in result.error.detail


def test_encrypted_pdf(typst_pdf, counter, params):
    pypdf = pytest.importorskip("pypdf")
    PdfReader, PdfWriter = pypdf.PdfReader, pypdf.PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(typst_pdf('#"1. A question about forces."'))))
    writer.encrypt(user_password="secret", owner_password="owner")
    buf = io.BytesIO()
    writer.write(buf)
    result = _ingest("locked.pdf", buf.getvalue(), counter, params)
    assert result.error.reason is FileErrorReason.ENCRYPTED


def test_truncated_pdf_is_corrupt_or_partial_but_never_raises(typst_pdf, counter, params):
    data = typst_pdf('#"1. A question about forces."')
    result = _ingest("cut.pdf", data[: len(data) // 3], counter, params)
    assert result.ok or result.error.reason in (FileErrorReason.CORRUPT, FileErrorReason.NO_TEXT_LAYER)


def test_manifest_unknown_field_fails_only_the_files_it_covers(counter, params):
    manifest = parse_manifest("'old/*.md': {colour: blue}\n'new/*.md': {year: 2019}\n", fmt="yaml")
    bad = _ingest("old/a.md", MD, counter, params, manifest=manifest)
    good = _ingest("new/a.md", MD, counter, params, manifest=manifest)
    assert bad.error.reason is FileErrorReason.MANIFEST_UNKNOWN_FIELD and good.ok
    assert good.metadata.fields["year"].source == "manifest"


def test_docx_with_no_text(counter, params):
    result = _ingest("blank.docx", docx_bytes(lambda d: d.add_paragraph("")), counter, params)
    assert result.error.reason is FileErrorReason.NO_TEXT
