"""HTML via lxml: block elements in document order; page furniture elements skipped.

``<header>``, ``<footer>``, ``<nav>``, ``<aside>``, scripts and styles are the HTML form
of running headers and footers and are dropped. ``<ol>`` numbers (``start``, ``value``,
``type``) are put back into the item text so an exam's numbering survives. Tables keep
their cells. A block element's text excludes nested blocks, which are visited on their own.
"""

from __future__ import annotations

from lxml import etree, html as lxml_html

from services.ingest.blocks import Block, BlockKind, ParsedDocument, table_text
from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.normalise import normalise_text
from services.ingest.questions import BARE_LABEL
from services.ingest.parsers.text import decode_text

MEDIA_TYPE = "text/html"
_SKIP = {"script", "style", "noscript", "header", "footer", "nav", "aside", "template", "head", "svg", "button", "form"}
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = {"p", "li", "pre", "blockquote", "dd", "dt", "figcaption", "caption", "div", "section", "article", "main",
           "td", "th", "address", "center", "body", "ol", "ul", "dl", "table", "tr", "tbody", "thead", "tfoot"} | set(_HEADINGS)
_ALPHA = "abcdefghijklmnopqrstuvwxyz"
_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]


def parse_html(data: bytes, source: str) -> ParsedDocument:
    text, warnings = decode_text(data)
    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise IngestFileError(source, FileErrorReason.CORRUPT, f"not parseable as HTML ({exc})") from exc
    title_el = root.find(".//title")
    body = root.find("body")
    blocks: list[Block] = []
    _walk(body if body is not None else root, blocks, "", 0)
    title = normalise_text(title_el.text_content()) if title_el is not None else None
    return ParsedDocument(source=source, media_type=MEDIA_TYPE, blocks=blocks, title=title or None, warnings=warnings)


def _walk(el: etree._Element, out: list[Block], prefix: str, depth: int) -> None:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag in _SKIP:
        return
    if tag in _HEADINGS:
        text = normalise_text(el.text_content())
        if text:
            out.append(Block(text, BlockKind.HEADING, _HEADINGS[tag]))
        return
    if tag == "table":
        rows = tuple(tuple(normalise_text(c.text_content()) for c in tr if c.tag in ("td", "th"))
                     for tr in el.iter("tr"))
        rows = tuple(r for r in rows if any(r))
        if rows:
            out.append(Block(table_text(rows), BlockKind.TABLE, rows=rows))
        return
    own = _own_text(el)
    if own:
        kind = BlockKind.LIST_ITEM if tag == "li" and not prefix else BlockKind.PARAGRAPH
        out.append(Block(normalise_text(prefix + own), kind, level=depth if tag == "li" else 0))
        prefix = ""
    if tag == "ol":
        _walk_ordered(el, out, depth)
        return
    for child in el:
        if _is_block(child):
            _walk(child, out, prefix, depth + (1 if tag in ("ul", "ol") else 0))
            prefix = ""


def _walk_ordered(el: etree._Element, out: list[Block], depth: int) -> None:
    number = int(el.get("start") or 1)
    style = el.get("type") or "1"
    for child in el:
        if child.tag != "li":
            _walk(child, out, "", depth + 1)
            continue
        number = int(child.get("value") or number)
        _walk(child, out, f"{_label(number, style)}. " if style == "1" else f"({_label(number, style)}) ", depth + 1)
        number += 1


def _label(number: int, style: str) -> str:
    if style == "a" and number <= 26:
        return _ALPHA[number - 1]
    if style == "i" and number <= len(_ROMAN):
        return _ROMAN[number - 1]
    return str(number)


def _is_block(el: etree._Element) -> bool:
    """A block element, or an inline one wrapping blocks (inline text is already in the parent's block)."""
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag in _BLOCKS or any(isinstance(d.tag, str) and d.tag in _BLOCKS for d in el.iterdescendants())


def _own_text(el: etree._Element) -> str:
    """Text of ``el`` and its inline descendants, stopping at nested block elements.

    A leading ``<b>3</b>`` (a bold bare number before any text) is kept set off by a tab."""
    parts = [el.text or ""]
    first = el[0] if len(el) else None
    if (first is not None and not (el.text or "").strip() and first.tag in ("b", "strong")
            and BARE_LABEL.match(first.text_content().strip())):
        rest = _own_text_from(el, 1)
        return first.text_content().strip() + "\t" + " ".join(((first.tail or "") + " " + rest).split())
    for child in el:
        ctag = child.tag if isinstance(child.tag, str) else ""
        if ctag in _BLOCKS or ctag in _SKIP:
            pass
        elif ctag == "br":
            parts.append("\n")
        else:
            parts.append(_own_text(child))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def _own_text_from(el: etree._Element, start: int) -> str:
    parts: list[str] = []
    for child in list(el)[start:]:
        ctag = child.tag if isinstance(child.tag, str) else ""
        if ctag == "br":
            parts.append("\n")
        elif ctag not in _BLOCKS and ctag not in _SKIP:
            parts.append(_own_text(child))
        parts.append(child.tail or "")
    return "".join(parts)
