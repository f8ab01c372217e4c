"""PDF text extraction with pypdfium2 (PDFium): glyphs -> segments -> reading order -> blocks.

Why PDFium: fastest of the permissively licensed extractors measured here and the most
tolerant of damaged files (docs/decisions/ingest-parsers.md). We read each glyph's
Unicode value and loose box through the raw PDFium API (two calls per glyph; font size
and weight once per segment) and do layout ourselves (``pdf_layout``, ``pdf_furniture``,
``pdf_blocks``), so the same rules apply whatever produced the file.
"""

from __future__ import annotations

import ctypes
import logging
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from services.ingest.blocks import ParsedDocument
from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.normalise import normalise_text
from services.ingest.parsers.pdf_blocks import build_blocks
from services.ingest.parsers.pdf_furniture import find_furniture
from services.ingest.parsers.pdf_layout import Segment, reading_order

log = logging.getLogger(__name__)
MEDIA_TYPE = "application/pdf"
SEGMENT_GAP = 1.2    # a horizontal gap wider than this many line heights starts a new segment
SPACE_GAP = 0.18     # ... and one wider than this is a word space PDFium did not report
BOLD_WEIGHT = 600
MIN_CHARS_PER_PAGE = 8


@dataclass
class _Run:
    chars: list[str]
    left: float
    top: float
    right: float
    bottom: float
    first: int
    last: int


def parse_pdf(data: bytes, source: str) -> ParsedDocument:
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise IngestFileError(source, FileErrorReason.ENCRYPTED, "the PDF is password-protected") from exc
        raise IngestFileError(source, FileErrorReason.CORRUPT, f"PDFium cannot open it ({message})") from exc
    try:
        return _parse(doc, source)
    finally:
        doc.close()


def _parse(doc: pdfium.PdfDocument, source: str) -> ParsedDocument:
    pages: list[list[Segment]] = []
    heights: list[float] = []
    warnings: list[str] = []
    for index in range(len(doc)):
        page = doc[index]
        try:
            width, height = page.get_size()
            textpage = page.get_textpage()
            segments = _segments(textpage, height, index + 1)
            textpage.close()
        except pdfium.PdfiumError as exc:
            warnings.append(f"page {index + 1}: unreadable ({exc})")
            segments, height = [], 842.0
        finally:
            page.close()
        if sum(len(s.text) for s in segments) < MIN_CHARS_PER_PAGE:
            warnings.append(f"page {index + 1}: no text layer (scanned or image-only page)")
        pages.append(segments)
        heights.append(height)
    if not pages or all(sum(len(s.text) for s in p) < MIN_CHARS_PER_PAGE for p in pages):
        raise IngestFileError(source, FileErrorReason.NO_TEXT_LAYER,
                              f"none of its {len(pages)} page(s) has a text layer (a scan needs OCR first)")
    furniture = find_furniture(pages, heights)
    lines = []
    cover = ""
    for number, segments in enumerate(pages, start=1):
        body = [s for s in segments if id(s) not in furniture]
        ordered = reading_order(body)
        if number == 1:
            cover = "\n".join(normalise_text(l.text.replace("\t", " ")) for l in ordered)
        lines += ordered
    blocks = build_blocks(lines)
    return ParsedDocument(source=source, media_type=MEDIA_TYPE, blocks=blocks, page_count=len(pages),
                          cover_text=cover, title=_title(doc), warnings=warnings)


def _title(doc: pdfium.PdfDocument) -> str | None:
    try:
        title = (doc.get_metadata_dict() or {}).get("Title") or ""
    except pdfium.PdfiumError:
        return None
    return normalise_text(title) or None


def _segments(textpage: pdfium.PdfTextPage, page_height: float, page_no: int) -> list[Segment]:
    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    rect = pdfium_c.FS_RECTF()
    out: list[Segment] = []
    run: _Run | None = None
    space = False
    high = 0
    for i in range(count):
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        if 0xD800 <= code <= 0xDBFF:
            high = code  # first half of a non-BMP character (mathematical italic letters)
            continue
        if 0xDC00 <= code <= 0xDFFF:
            code, high = (0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) if high else 0, 0
            if not code:
                continue
        if code in (10, 13):
            run = _close(run, out, textpage, page_height, page_no)
            space = False
            continue
        if code in (32, 9, 0xA0) or code == 0:
            space = True
            continue
        if not pdfium_c.FPDFText_GetLooseCharBox(raw, i, ctypes.byref(rect)):
            continue
        left, right = rect.left, rect.right
        top, bottom = page_height - rect.top, page_height - rect.bottom
        ch = chr(code)
        if run is not None:
            height = max(run.bottom - run.top, 1.0)
            gap = left - run.right
            middle = (top + bottom) / 2
            if abs(middle - (run.top + run.bottom) / 2) > 0.6 * height or gap > SEGMENT_GAP * height or gap < -height:
                run = _close(run, out, textpage, page_height, page_no)
            elif space or gap > SPACE_GAP * height:
                run.chars.append(" ")
        if run is None:
            run = _Run([ch], left, top, right, bottom, i, i)
        else:
            run.chars.append(ch)
            run.left, run.right = min(run.left, left), max(run.right, right)
            run.top, run.bottom = min(run.top, top), max(run.bottom, bottom)
            run.last = i
        space = False
    _close(run, out, textpage, page_height, page_no)
    return out


def _close(run: _Run | None, out: list[Segment], textpage: pdfium.PdfTextPage, page_height: float,
           page_no: int) -> None:
    if run is None:
        return None
    text = "".join(run.chars).strip()
    if not text:
        return None
    raw = textpage.raw
    probes = {run.first, (run.first + run.last) // 2, run.last}
    size = pdfium_c.FPDFText_GetFontSize(raw, run.first) or (run.bottom - run.top)
    bold = all(pdfium_c.FPDFText_GetFontWeight(raw, i) >= BOLD_WEIGHT for i in probes)
    out.append(Segment(text, run.left, run.top, run.right, run.bottom, float(size), bold, page_no))
    return None
