"""Curriculum metadata with provenance (manifest > document > file name > structure) and the manifest."""

from __future__ import annotations

import pytest

from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.manifest import check_manifest, parse_manifest
from services.ingest.metadata import ScopeReading, name_text, resolve_metadata

pytestmark = pytest.mark.unit

COVER = "Mathematical Association of America\n2019 AMC 10 A\nThursday, February 7, 2019"


def test_cover_page_read_by_the_gate(gate_reader):
    meta = resolve_metadata("papers/x.pdf", cover_text=COVER, body_text="What is the value of the sum of the digits?",
                            read_scope=gate_reader)
    values = meta.values()
    assert (values["paper"], values["year"], values["session"], values["level"]) == ("AMC 10A", 2019, "A", "grade_10")
    assert meta.provenance()["paper"] == "document" and values["language"] == "en"


def test_precedence_manifest_over_document_over_file_name(gate_reader):
    meta = resolve_metadata("amc10b_2020_ms.pdf", cover_text="2019 AMC 10 A", body_text="The answer follows. " * 5,
                            manifest_fields={"year": 2018, "title": "My paper"}, read_scope=gate_reader)
    assert meta.fields["year"].value == 2018 and meta.fields["year"].source == "manifest"
    assert meta.fields["paper"].value == "AMC 10A" and meta.fields["paper"].source == "document"
    assert meta.fields["content_type"].source == "file_name" and meta.fields["content_type"].value == "mark_scheme"
    assert meta.title == "My paper"


def test_unresolved_fields_are_listed_and_low_confidence_ignored():
    def reader(text):
        return {"subject": ScopeReading(("physics",), 0.95), "content_type": ScopeReading(("exam_question",), 0.5),
                "level": ScopeReading(("high_school", "college"), 0.85)}
    meta = resolve_metadata("notes.md", cover_text="Physics notes", body_text="Kurz.", read_scope=reader)
    assert meta.values()["subject"] == "physics"
    assert {"content_type", "level", "year", "paper", "language"} <= set(meta.unresolved)
    assert any("several values" in w for w in meta.warnings)


def test_reader_failure_degrades_to_a_warning():
    def broken(text):
        raise ConnectionError("gate unavailable")
    meta = resolve_metadata("x.pdf", cover_text="Cover", body_text="", read_scope=broken)
    assert meta.fields == {} and any("gate unavailable" in w for w in meta.warnings)


def test_language_detected_per_document():
    text = "Dans une matière radioactive le nombre des noyaux radioactifs diminue à la fin de chaque heure."
    meta = resolve_metadata("fiche.md", cover_text="", body_text=text)
    assert meta.fields["language"].value == "fr" and meta.fields["language"].source == "document"


def test_file_name_words():
    assert name_text("papers/AMC_10A-2019_ms.pdf") == "AMC 10A 2019 mark scheme"


def test_manifest_yaml_csv_precedence_and_errors():
    manifest = parse_manifest(
        "files:\n  - path: 'papers/*.pdf'\n    year: 2019\n    subject: mathematics\n"
        "  - path: papers/amc10a.pdf\n    year: 2020\n  - path: papers/missing.pdf\n    year: 2000\n"
        "  - path: 'old/*.pdf'\n    colour: blue\n", fmt="yaml")
    assert manifest.fields_for("papers/amc10a.pdf") == {"year": 2020, "subject": "mathematics"}
    assert manifest.fields_for("papers/other.pdf") == {"year": 2019, "subject": "mathematics"}
    missing = check_manifest(manifest, ["papers/amc10a.pdf", "papers/other.pdf"])
    assert [(e.file, e.reason) for e in missing] == [("papers/missing.pdf", FileErrorReason.MANIFEST_MISSING_FILE)]
    error = manifest.error_for("old/a.pdf")
    assert error.reason is FileErrorReason.MANIFEST_UNKNOWN_FIELD and "colour" in error.detail and error.file == "old/a.pdf"
    assert manifest.error_for("papers/other.pdf") is None
    csv = parse_manifest("path,subject,year\nws/*.docx,physics,\n", fmt="csv")
    assert csv.fields_for("ws/a.docx") == {"subject": "physics"}
    assert parse_manifest("'*.md': {level: grade_12}", fmt="yaml").fields_for("notes/a.md") == {"level": "grade_12"}


def test_malformed_manifest_is_a_typed_error():
    with pytest.raises(IngestFileError) as err:
        parse_manifest("files: [unclosed", fmt="yaml", source="m.yaml")
    assert err.value.reason is FileErrorReason.MANIFEST_INVALID and err.value.file == "m.yaml"
    with pytest.raises(IngestFileError):
        parse_manifest("files:\n  - path: a.pdf\n    year: soon\n", fmt="yaml")
