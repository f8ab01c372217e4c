"""Which parser reads a file: by its bytes first, its media type or extension second.

Magic bytes decide where they exist (``%PDF-``; a ZIP holding ``word/document.xml``),
so a mislabelled file is still read right, and a file whose name promises PDF but whose
bytes are not one is reported as corrupt rather than parsed as text. Everything a
parser raises that is not already an :class:`IngestFileError` becomes one here (the
per-file guarantee of issue 11, "Bad input").
"""

from __future__ import annotations

import io
import logging
import zipfile
from pathlib import PurePosixPath
from typing import Callable

from services.ingest.blocks import ParsedDocument
from services.ingest.errors import FileErrorReason, IngestFileError

log = logging.getLogger(__name__)

KINDS = ("pdf", "docx", "markdown", "html", "text")
_EXTENSIONS = {
    ".pdf": "pdf", ".docx": "docx", ".md": "markdown", ".markdown": "markdown", ".mdown": "markdown",
    ".html": "html", ".htm": "html", ".xhtml": "html", ".txt": "text", ".text": "text",
}
_MEDIA = {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "text/markdown": "markdown", "text/x-markdown": "markdown",
    "text/html": "html", "application/xhtml+xml": "html", "text/plain": "text",
}


def detect_kind(data: bytes, name: str, media_type: str = "") -> str:
    """One of :data:`KINDS`; raises :class:`IngestFileError` (unknown type / corrupt)."""
    claimed = _MEDIA.get(media_type.split(";")[0].strip().lower()) or _EXTENSIONS.get(PurePosixPath(name).suffix.lower())
    if data.startswith(b"%PDF-") or data[:1024].lstrip().startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        if _is_docx(data):
            return "docx"
        raise IngestFileError(name, FileErrorReason.CORRUPT if claimed == "docx" else FileErrorReason.UNKNOWN_TYPE,
                              "a ZIP archive that is not a Word document")
    if claimed in ("pdf", "docx"):
        raise IngestFileError(name, FileErrorReason.CORRUPT, f"named as {claimed.upper()} but its bytes are not one")
    if claimed:
        return claimed
    head = data[:2048].lower()
    if b"<html" in head or b"<!doctype html" in head:
        return "html"
    raise IngestFileError(name, FileErrorReason.UNKNOWN_TYPE,
                          f"unsupported type (extension {PurePosixPath(name).suffix or 'none'!r}, "
                          f"media type {media_type or 'none'!r}); supported: PDF, DOCX, Markdown, HTML, plain text")


def _is_docx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def parser_for(kind: str) -> Callable[[bytes, str], ParsedDocument]:
    if kind == "pdf":
        from services.ingest.parsers.pdf import parse_pdf
        return parse_pdf
    if kind == "docx":
        from services.ingest.parsers.docx import parse_docx
        return parse_docx
    if kind == "markdown":
        from services.ingest.parsers.markdown import parse_markdown
        return parse_markdown
    if kind == "html":
        from services.ingest.parsers.html import parse_html
        return parse_html
    from services.ingest.parsers.text import parse_text
    return parse_text


def parse_bytes(data: bytes, name: str, media_type: str = "") -> ParsedDocument:
    """Parse one file's bytes; every failure is an :class:`IngestFileError` naming ``name``."""
    if not data or not data.strip():
        raise IngestFileError(name, FileErrorReason.EMPTY, "the file is empty")
    kind = detect_kind(data, name, media_type)
    try:
        parsed = parser_for(kind)(data, name)
    except IngestFileError:
        raise
    except Exception as exc:  # a library's own error on a damaged file
        log.warning("parser %s failed on %s", kind, name, exc_info=True)
        raise IngestFileError(name, FileErrorReason.CORRUPT, f"{kind} parser failed: {type(exc).__name__}: {exc}") from exc
    if not any(b.text.strip() for b in parsed.blocks):
        raise IngestFileError(name, FileErrorReason.NO_TEXT, "no text found in it")
    return parsed
