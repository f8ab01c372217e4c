"""Curriculum metadata for a document, field by field, with where each value came from.

Precedence (issue 11; DESIGN.md "Ingestion flow"): the manifest, then the document itself
(its cover or first page, read by the gate's scope extractor; the language detected from
its text), then the file name (read by the same extractor), then the document's structure
(a paper cut into numbered questions is an exam paper). The gate is reached through an
injected ``read_scope(text)`` callable — over gRPC in the service, because services do not
import each other (docs/decisions.md, 1) — which returns, per field, a value, a list of
values, or a :class:`ScopeReading` with a confidence. Only readings at or above the gate's
hard-constraint tier (0.7, ``services/gate/extract.py``) are taken: a cover page is not a
query, and a guess ("implied by the exam board", 0.5) must not become indexed metadata.
A field that no source resolves stays null and is listed in ``unresolved``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Callable, Mapping

from services.ingest.language import detect_language

#: Fields resolved per document (question_number is per chunk; source is the file).
DOCUMENT_FIELDS = ("subject", "level", "year", "session", "paper", "exam_board", "language", "content_type")
MIN_CONFIDENCE = 0.7
COVER_MAX_CHARS = 1500
_NAME_WORDS = {"ms": "mark scheme", "qp": "question paper", "ans": "answers"}


@dataclass(frozen=True)
class ScopeReading:
    """One field as the gate read it: candidate values, confidence (``None`` = not given), evidence."""

    values: tuple[Any, ...]
    confidence: float | None = None
    evidence: str = ""


ScopeReader = Callable[[str], Mapping[str, Any]]


@dataclass(frozen=True)
class FieldValue:
    value: Any
    source: str          # "manifest" | "document" | "file_name" | "structure"
    evidence: str = ""


@dataclass
class DocumentMetadata:
    fields: dict[str, FieldValue] = field(default_factory=dict)
    unresolved: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    title: str = ""

    def values(self) -> dict[str, Any]:
        return {name: (self.fields[name].value if name in self.fields else None) for name in DOCUMENT_FIELDS}

    def provenance(self) -> dict[str, str]:
        return {name: fv.source for name, fv in self.fields.items()}


def reading_from(value: Any) -> ScopeReading | None:
    """Normalise what a ``read_scope`` callable returned for one field."""
    if value is None:
        return None
    if isinstance(value, ScopeReading):
        return value if value.values else None
    if isinstance(value, Mapping):
        values = value.get("values", value.get("value"))
        values = tuple(values) if isinstance(values, (list, tuple)) else ((values,) if values is not None else ())
        return ScopeReading(values, value.get("confidence"), str(value.get("evidence", ""))) if values else None
    if isinstance(value, (list, tuple, set, frozenset)):
        return ScopeReading(tuple(value)) if value else None
    return ScopeReading((value,))


def name_text(source: str) -> str:
    """A file name as words the extractor can read: ``amc10a_2019_ms.pdf`` -> ``amc10a 2019 mark scheme``."""
    stem = PurePosixPath(source).stem
    words = [w for w in re.split(r"[\s_\-.+,]+", stem) if w]
    return " ".join(_NAME_WORDS.get(w.lower(), w) for w in words)


def _from_reader(reader: ScopeReader | None, text: str, source: str, out: dict[str, FieldValue],
                 warnings: list[str], min_confidence: float) -> None:
    if reader is None or not text.strip():
        return
    try:
        readings = reader(text)
    except Exception as exc:  # the gate unreachable, or a bug in it: metadata degrades, the file still ingests
        warnings.append(f"scope reader failed on the {source.replace('_', ' ')}: {type(exc).__name__}: {exc}")
        return
    for name in DOCUMENT_FIELDS:
        if name in out or name == "language":
            continue
        reading = reading_from(readings.get(name))
        if reading is None:
            continue
        if reading.confidence is not None and reading.confidence < min_confidence:
            continue
        if len(reading.values) != 1:
            warnings.append(f"{name}: the {source.replace('_', ' ')} names several values {list(reading.values)}; not used")
            continue
        out[name] = FieldValue(reading.values[0], source, reading.evidence)


def resolve_metadata(source: str, *, cover_text: str, body_text: str, manifest_fields: Mapping[str, Any] | None = None,
                     read_scope: ScopeReader | None = None, min_confidence: float = MIN_CONFIDENCE) -> DocumentMetadata:
    """Document-level fields by precedence; ``content_type`` may still be decided later by structure."""
    out: dict[str, FieldValue] = {}
    warnings: list[str] = []
    title = ""
    for name, value in (manifest_fields or {}).items():
        if name == "title":
            title = str(value)
        elif name in DOCUMENT_FIELDS:
            out[name] = FieldValue(value, "manifest")
    _from_reader(read_scope, cover_text[:COVER_MAX_CHARS], "document", out, warnings, min_confidence)
    if "language" not in out:
        detected = detect_language(body_text)
        if detected:
            out["language"] = FieldValue(detected[0], "document", f"detected ({detected[1]:.2f})")
    _from_reader(read_scope, name_text(source), "file_name", out, warnings, min_confidence)
    meta = DocumentMetadata(out, [], warnings, title)
    meta.unresolved = [n for n in DOCUMENT_FIELDS if n not in out]
    return meta


def set_structural_content_type(meta: DocumentMetadata, content_type: str, evidence: str) -> None:
    """The last resort for ``content_type``: what the document's structure shows."""
    if "content_type" not in meta.fields:
        meta.fields["content_type"] = FieldValue(content_type, "structure", evidence)
        meta.unresolved = [n for n in meta.unresolved if n != "content_type"]
