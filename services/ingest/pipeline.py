"""One file in, cited and curriculum-labelled chunks out — or one typed error; never an exception.

The pure-logic core that the ingest service (``servicer.py``) wraps: parse
(``parsers``), resolve document metadata (``metadata``, gate reached through the injected
``read_scope``), choose the role, chunk (``chunking``), label every chunk, give it its
stable id (``identity``), its citation and the chunking digest, which its content hash
covers. The gateway then plans the write against what the backends hold for the source
(``gateway/file_plan.py``): the ingest service itself is stateless.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Mapping

from chsr.documents import Citation, Doc, DocumentError, validate_doc
from services.ingest.blocks import BlockKind, ParsedDocument
from services.ingest.chunking import Chunk, ChunkingParams, chunk_document
from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.exam_segments import INSTRUCTION_LABEL, segment_questions
from services.ingest.identity import chunk_id, normalise_source
from services.ingest.linking import ANSWER_TYPES
from services.ingest.manifest import Manifest
from services.ingest.metadata import (COVER_MAX_CHARS, DocumentMetadata, ScopeReader, resolve_metadata,
                                      set_structural_content_type)
from services.ingest.parsers.dispatch import parse_bytes
from services.ingest.questions import find_marker
from services.ingest.tokens import TokenCounter

log = logging.getLogger(__name__)
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
MAX_NAME_BYTES = 1024
MAX_SEGMENT_BYTES = 255
#: Structure rule: a document of unknown type is an exam paper when it has this many numbered
#: questions and they hold at least this share of its text.
MIN_QUESTIONS = 2
MIN_QUESTION_SHARE = 0.3
COVER_LINE_CHARS = 100
MAX_COVER_BLOCKS = 15
_BULLET = re.compile(r"^[•▪◦‣\u2022\u25cf\-–*]\s")


@dataclass(frozen=True)
class IngestLimits:
    max_bytes: int = DEFAULT_MAX_BYTES


@dataclass
class FileResult:
    source: str
    error: IngestFileError | None = None
    docs: list[Doc] = field(default_factory=list)
    hashes: dict[str, str] = field(default_factory=dict)
    chunks: list[Chunk] = field(default_factory=list)
    metadata: DocumentMetadata | None = None
    role: str = ""
    page_count: int | None = None
    warnings: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    title: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None


def check_name(name: str) -> str:
    """The normalised source name, or :class:`IngestFileError` (``bad_name``) for an unsafe one."""
    if not name or not name.strip():
        raise IngestFileError(name or "?", FileErrorReason.BAD_NAME, "empty file name")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise IngestFileError(repr(name), FileErrorReason.BAD_NAME, "control characters in the file name")
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise IngestFileError(repr(name), FileErrorReason.BAD_NAME, "the file name is not valid Unicode") from exc
    source = normalise_source(name)
    parts = PurePosixPath(source).parts
    if ".." in parts:
        raise IngestFileError(name, FileErrorReason.BAD_NAME, "'..' in the path")
    if len(encoded) > MAX_NAME_BYTES or any(len(p.encode("utf-8")) > MAX_SEGMENT_BYTES for p in parts):
        raise IngestFileError(name[:80] + "...", FileErrorReason.BAD_NAME, "the file name is too long")
    return source


def ingest_file(name: str, data: bytes, *, counter: TokenCounter, params: ChunkingParams, media_type: str = "",
                manifest: Manifest | None = None, manifest_fields: Mapping[str, Any] | None = None,
                read_scope: ScopeReader | None = None, limits: IngestLimits = IngestLimits()) -> FileResult:
    """Parse, label and chunk one file; any failure is returned in ``FileResult.error``."""
    try:
        return _ingest(name, data, counter, params, media_type, manifest, manifest_fields, read_scope, limits)
    except IngestFileError as exc:
        return FileResult(source=name, error=exc)
    except Exception as exc:  # the per-file guarantee: one bad file never aborts the others
        log.exception("ingest of %s failed", name)
        return FileResult(source=name, error=IngestFileError(name, FileErrorReason.INTERNAL, f"{type(exc).__name__}: {exc}"))


def _ingest(name: str, data: bytes, counter: TokenCounter, params: ChunkingParams, media_type: str,
            manifest: Manifest | None, manifest_fields: Mapping[str, Any] | None, read_scope: ScopeReader | None,
            limits: IngestLimits) -> FileResult:
    source = check_name(name)
    if len(data) > limits.max_bytes:
        raise IngestFileError(source, FileErrorReason.TOO_LARGE, f"{len(data)} bytes; the limit is {limits.max_bytes}")
    fields = dict(manifest_fields or {})
    if manifest is not None:
        error = manifest.error_for(source)
        if error:
            raise error
        fields = {**manifest.fields_for(source), **fields}
    started = time.perf_counter()
    parsed = parse_bytes(data, source, media_type)
    parsed_at = time.perf_counter()
    preamble, questions = segment_questions(parsed.blocks)
    meta = resolve_metadata(source, cover_text=cover_text(parsed, preamble), body_text=parsed.text(),
                            manifest_fields=fields, read_scope=read_scope)
    role = _role(meta, parsed, questions)
    title = meta.title or parsed.title or _first_heading(parsed) or PurePosixPath(source).stem
    chunks = chunk_document(parsed, counter, params, role=role, doc_title=title)
    result = FileResult(source=source, chunks=chunks, metadata=meta, role=role, page_count=parsed.page_count,
                        warnings=parsed.warnings + meta.warnings)
    result.title = title
    for chunk in chunks:
        doc = _to_doc(source, chunk, meta, title)
        if doc is not None:
            result.docs.append(doc)
            result.hashes[doc.id] = doc.content_hash()
    if not result.docs:
        raise IngestFileError(source, FileErrorReason.NO_TEXT, "no chunk could be made from it")
    result.timings = {"parse_s": parsed_at - started, "chunk_s": time.perf_counter() - parsed_at}
    return result


def cover_text(parsed: ParsedDocument, preamble: list) -> str:
    """What a cover page states: its display lines before the first question and before the
    instructions, on the first page (paged formats) or before the first heading that follows
    text (Markdown, HTML).

    Instructions and long sentences are left out: a cover states board, paper and year in
    short title lines, while its instructions ("...选出每小题答案后...", "write your answers...")
    mention answers and questions without saying what the document is.
    """
    blocks = preamble or parsed.blocks[:3]
    if parsed.page_count:
        blocks = [b for b in blocks if (b.page or 1) <= 1] or blocks[:3]
    kept: list[str] = []
    for k, block in enumerate(blocks[:MAX_COVER_BLOCKS]):
        if INSTRUCTION_LABEL.match(block.text.strip()) or (k and block.kind is BlockKind.HEADING and not parsed.page_count):
            break
        if block.kind is BlockKind.LIST_ITEM:
            continue
        kept += [l for l in block.text.splitlines()
                 if len(l) <= COVER_LINE_CHARS and not find_marker(l) and not _BULLET.match(l)]
    return "\n".join(kept or [b.text for b in blocks[:1]])[:COVER_MAX_CHARS]


def _role(meta: DocumentMetadata, parsed: ParsedDocument, questions: list) -> str:
    content_type = meta.values().get("content_type")
    if content_type == "exam_question":
        return "questions"
    if content_type in ANSWER_TYPES:
        return "answers"
    if content_type:
        return "prose"
    total = sum(len(b.text) for b in parsed.blocks) or 1
    in_questions = sum(len(b.text) for s in questions for b in s.blocks)
    if len(questions) >= MIN_QUESTIONS and in_questions / total >= MIN_QUESTION_SHARE:
        set_structural_content_type(meta, "exam_question", f"{len(questions)} numbered questions")
        return "questions"
    return "prose"


def _first_heading(parsed: ParsedDocument) -> str | None:
    for block in parsed.blocks[:5]:
        if block.kind is BlockKind.HEADING:
            return block.text
    return None


def _to_doc(source: str, chunk: Chunk, meta: DocumentMetadata, doc_title: str) -> Doc | None:
    values = meta.values()
    if chunk.role == "question":
        values["content_type"] = "exam_question"
    values["question_number"] = chunk.question_number
    values["source"] = source
    chunk.metadata = dict(values)
    citation = Citation(source=source, title=doc_title, page_start=chunk.page_start, page_end=chunk.page_end,
                        heading_path=chunk.heading_path, question_number=chunk.question_number)
    try:
        return validate_doc(Doc(id=chunk_id(source, chunk.locator), text=chunk.text, title=chunk.title, metadata=values,
                                citation=citation, chunking=chunk.params_digest))
    except DocumentError as exc:
        log.warning("%s: chunk %s dropped: %s", source, chunk.locator, exc)
        return None
