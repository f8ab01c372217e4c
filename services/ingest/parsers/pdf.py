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
SEGMENT_GAP = 1.2    # a horizontal gap wider than this many line heights (and 3x the row's word space)
WIDE_GAP = 2.5       # ... or than this many, whatever the word spaces, starts a new segment
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
    """Glyphs -> rows (PDFium's line breaks, vertical jumps, backward moves) -> segments."""
    out: list[Segment] = []
    for row in _rows(textpage, page_height):
        _split_row(row, out, textpage, page_no)
    return out


def _rows(textpage: pdfium.PdfTextPage, page_height: float) -> list[list[tuple]]:
    """Rows of (char, left, top, right, bottom, index, space_before) in content order."""
    raw = textpage.raw
    rect = pdfium_c.FS_RECTF()
    rows: list[list[tuple]] = []
    row: list[tuple] = []
    space = False
    high = 0
    for i in range(pdfium_c.FPDFText_CountChars(raw)):
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        if 0xD800 <= code <= 0xDBFF:
            high = code  # first half of a non-BMP character (mathematical italic letters)
            continue
        if 0xDC00 <= code <= 0xDFFF:
            code, high = (0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) if high else 0, 0
            if not code:
                continue
        if code in (10, 13):
            if row:
                rows.append(row)
            row, space = [], False
            continue
        if code in (0, 9, 32, 0xA0):
            space = True
            continue
        if not pdfium_c.FPDFText_GetLooseCharBox(raw, i, ctypes.byref(rect)):
            continue
        char = (chr(code), rect.left, page_height - rect.top, rect.right, page_height - rect.bottom, i, space)
        if row:
            last = row[-1]
            height = max(last[4] - last[2], 1.0)
            if abs((char[2] + char[4]) / 2 - (last[2] + last[4]) / 2) > 0.6 * height or char[1] < last[3] - height:
                rows.append(row)
                row = []
        row.append(char)
        space = False
    if row:
        rows.append(row)
    return rows


def _split_row(row: list[tuple], out: list[Segment], textpage: pdfium.PdfTextPage, page_no: int) -> None:
    """Cut a row at gaps much wider than its own word spaces (a table cell, a set-off question
    number, a second column): justified text stretches every space alike, so the threshold is
    relative to the row's median gap, with an absolute floor and ceiling in line heights."""
    height = max(max(c[4] for c in row) - min(c[2] for c in row), 1.0)
    gaps = [max(0.0, row[k][1] - row[k - 1][3]) for k in range(1, len(row))]
    word_gaps = sorted(g for g, c in zip(gaps, row[1:]) if c[6] or g > SPACE_GAP * height)
    typical = word_gaps[len(word_gaps) // 2] if word_gaps else 0.0
    run: _Run | None = None
    for k, char in enumerate(row):
        gap = gaps[k - 1] if k else 0.0
        if run is not None and gap > SEGMENT_GAP * height and (gap > 3 * typical or gap > WIDE_GAP * height):
            _close(run, out, textpage, page_no)
            run = None
        if run is None:
            run = _Run([char[0]], char[1], char[2], char[3], char[4], char[5], char[5])
            continue
        if char[6] or gap > SPACE_GAP * height:
            run.chars.append(" ")
        run.chars.append(char[0])
        run.left, run.right = min(run.left, char[1]), max(run.right, char[3])
        run.top, run.bottom = min(run.top, char[2]), max(run.bottom, char[4])
        run.last = char[5]
    _close(run, out, textpage, page_no)


def _close(run: _Run | None, out: list[Segment], textpage: pdfium.PdfTextPage, page_no: int) -> None:
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
