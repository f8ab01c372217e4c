"""DOCX via python-docx: body paragraphs and tables in order, Word numbering put back.

Heading styles (``Heading N``, ``Title``) give headings; list styles and ``w:numPr`` give
list items. Word stores automatic numbers ("1.", "(a)") outside the text, so a question
paper typed with automatic numbering would lose its question numbers; ``docx_numbering``
recomputes them from ``numbering.xml``. Explicit page breaks (``w:br w:type="page"``) and
Word's ``lastRenderedPageBreak`` marks advance the page counter, so blocks carry the page
numbers Word last laid out where the file has them. Headers and footers live in other
parts of the package and are not read (they are running furniture).
"""

from __future__ import annotations

import io
import zipfile

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from services.ingest.blocks import Block, BlockKind, ParsedDocument, table_text
from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.normalise import normalise_text
from services.ingest.parsers.docx_numbering import Numbering
from services.ingest.questions import BARE_LABEL

MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def parse_docx(data: bytes, source: str) -> ParsedDocument:
    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise IngestFileError(source, FileErrorReason.CORRUPT, f"not a readable DOCX package ({exc})") from exc
    except Exception as exc:  # lxml errors inside a damaged part
        raise IngestFileError(source, FileErrorReason.CORRUPT, f"damaged DOCX ({type(exc).__name__}: {exc})") from exc
    numbering = Numbering.from_document(document)
    styles = {style.style_id: style for style in document.styles}  # python-docx's paragraph.style is O(styles)
    blocks: list[Block] = []
    page = 1
    breaks_seen = False
    for child in document.element.body.iterchildren():
        if child.tag == qn("w:p"):
            para = Paragraph(child, document)
            breaks = _page_breaks(child)
            breaks_seen = breaks_seen or breaks > 0
            block = _paragraph(para, numbering, page, _style(child, styles))
            if block:
                blocks.append(block)
            page += breaks
        elif child.tag == qn("w:tbl"):
            rows = _table_rows(Table(child, document))
            if rows:
                blocks.append(Block(table_text(rows), BlockKind.TABLE, page=page, rows=rows))
    if not breaks_seen:
        blocks = [Block(b.text, b.kind, b.level, rows=b.rows) for b in blocks]
    title = normalise_text(document.core_properties.title or "") or None
    return ParsedDocument(source=source, media_type=MEDIA_TYPE, blocks=blocks,
                          page_count=page if breaks_seen else None, title=title)


def _style(p_element, styles: dict):  # type: ignore[no-untyped-def]
    p_pr = p_element.pPr
    style_id = p_pr.pStyle.val if p_pr is not None and p_pr.pStyle is not None else None
    return styles.get(style_id) if style_id else None


def _paragraph(para: Paragraph, numbering: Numbering, page: int, style_obj) -> Block | None:  # type: ignore[no-untyped-def]
    text = normalise_text(para.text)
    runs = para.runs
    first = next((k for k, r in enumerate(runs) if r.text.strip()), None)
    if first is not None and runs[first].bold and BARE_LABEL.match(runs[first].text.strip()) and first + 1 < len(runs):
        text = runs[first].text.strip() + "\t" + normalise_text("".join(r.text for r in runs[first + 1:]))
    style = (style_obj.name if style_obj is not None else "") or ""
    label = numbering.label(para, style_obj)
    if label:
        text = f"{label}\t{text}" if label[-1].isdigit() else f"{label} {text}"
    if not text:
        return None
    lowered = style.lower()
    if lowered.startswith("heading") or lowered == "title":
        digits = "".join(ch for ch in style if ch.isdigit())
        return Block(text, BlockKind.HEADING, int(digits) if digits else 1, page=page)
    if "list" in lowered and not label:
        return Block(text, BlockKind.LIST_ITEM, 1, page=page)
    return Block(text, BlockKind.PARAGRAPH, page=page)


def _page_breaks(p_element) -> int:
    explicit = sum(1 for br in p_element.iter(qn("w:br")) if br.get(qn("w:type")) == "page")
    rendered = sum(1 for _ in p_element.iter(qn("w:lastRenderedPageBreak")))
    return max(explicit, rendered)


def _table_rows(table: Table) -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # merged cells repeat
                continue
            seen.add(id(cell._tc))
            cells.append(normalise_text(cell.text))
        if any(cells):
            rows.append(tuple(cells))
    return tuple(rows)
