"""Plain text: paragraphs at blank lines, form feeds as page breaks, markers start blocks.

Form feeds are how ``pdftotext`` and many exporters separate pages, so a text file
keeps page numbers where it has them. A short line standing alone between blank lines
that does not end like a sentence is taken as a heading (the plain-text convention).
"""

from __future__ import annotations

import re

from services.ingest.blocks import Block, BlockKind, ParsedDocument
from services.ingest.normalise import hyphenated_words, join_lines, normalise_text
from services.ingest.questions import find_marker, find_subpart

MEDIA_TYPE = "text/plain"
_BULLET = re.compile(r"^\s*[•▪◦\u2022*\-–]\s+")
_HEADING_MAX = 80


def decode_text(data: bytes) -> tuple[str, list[str]]:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Latin-1 with a warning."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), []
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        return data.decode("latin-1"), ["not UTF-8: decoded as Latin-1"]


def parse_text(data: bytes, source: str) -> ParsedDocument:
    text, warnings = decode_text(data)
    pages = text.split("\f")
    blocks: list[Block] = []
    lexicon = hyphenated_words(text)
    for number, page in enumerate(pages, start=1):
        page_no = number if len(pages) > 1 else None
        for para in re.split(r"\n\s*\n", page):
            blocks += _paragraph_blocks(para.splitlines(), page_no, lexicon)
    cover = normalise_text(pages[0][:2000]) if len(pages) > 1 else None
    return ParsedDocument(source=source, media_type=MEDIA_TYPE, blocks=blocks,
                          page_count=len(pages) if len(pages) > 1 else None, cover_text=cover, warnings=warnings)


def _paragraph_blocks(lines: list[str], page: int | None, lexicon: set[str]) -> list[Block]:
    lines = [l.rstrip() for l in lines if l.strip()]
    if not lines:
        return []
    if len(lines) == 1 and _looks_like_heading(lines[0]):
        return [Block(normalise_text(lines[0].lstrip("# ")), BlockKind.HEADING, _heading_level(lines[0]), page=page)]
    groups: list[list[str]] = []
    for line in lines:
        stripped = line.strip()
        if not groups or find_marker(stripped) or find_subpart(stripped) or _BULLET.match(stripped):
            groups.append([stripped])
        else:
            groups[-1].append(stripped)
    out = []
    for group in groups:
        kind = BlockKind.LIST_ITEM if _BULLET.match(group[0]) else BlockKind.PARAGRAPH
        text = normalise_text(join_lines(group, lexicon))
        if kind is BlockKind.LIST_ITEM:
            text = _BULLET.sub("", text)
        if text:
            out.append(Block(text, kind, page=page))
    return out


def _looks_like_heading(line: str) -> bool:
    s = line.strip()
    if s.startswith("#"):
        return True
    return len(s) <= _HEADING_MAX and not s.endswith((".", ",", ";", ":", "?", "!", "。")) and any(c.isalpha() for c in s) \
        and not find_marker(s) and not find_subpart(s)


def _heading_level(line: str) -> int:
    s = line.strip()
    return min(6, len(s) - len(s.lstrip("#"))) or 2
