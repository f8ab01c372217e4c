"""Lines in reading order -> headings, paragraphs, list items and tables (PDF only).

Rules, each a common typographic convention rather than a property of one typesetter:

* a line set clearly larger than the body text (>= 1.15x the character-weighted median
  size), or a short line wholly in bold that does not read as a sentence, is a heading;
  heading levels rank the distinct heading sizes (largest = 1);
* a new paragraph starts after vertical space (gap > 0.8 line heights), at an indented
  first line, after a short line ending a sentence, and at any line that begins with a
  question, sub-part or bullet marker (so question boundaries stay block starts);
* a paragraph continues across a column or page break when its last line does not end a
  sentence (or ends in a hyphen);
* two or more consecutive lines split by wide gaps into the same number (>= 2) of cells
  form a table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median

from services.ingest.blocks import Block, BlockKind, table_text
from services.ingest.normalise import HYPHEN_MARKERS, hyphenated_words, join_lines, normalise_text
from services.ingest.parsers.pdf_layout import Line
from services.ingest.questions import find_marker, find_subpart

HEADING_RATIO = 1.15
PARAGRAPH_GAP = 0.8
_BULLET = re.compile(r"^[•▪◦‣\u2022\u25cf\u25a0\-–*]\s")
_OPTION_ROW = re.compile(r"^\(?[A-Ea-e][).]\s")
_SENTENCE_END = tuple(".!?:;。！？；")


@dataclass
class _Para:
    lines: list[Line] = field(default_factory=list)
    kind: BlockKind = BlockKind.PARAGRAPH
    level: int = 0


def build_blocks(lines: list[Line]) -> list[Block]:
    if not lines:
        return []
    body = _body_size(lines)
    levels = _heading_levels(lines, body)
    lexicon = hyphenated_words("\n".join(line.text for line in lines))
    paras: list[_Para] = []
    i = 0
    while i < len(lines):
        table = _table_run(lines, i)
        if table:
            paras.append(_Para(lines[i:i + table], BlockKind.TABLE))
            i += table
            continue
        line = lines[i]
        level = _heading_level(line, body, levels)
        if level:
            prev = paras[-1] if paras else None
            if prev and prev.kind is BlockKind.HEADING and prev.level == level and _adjacent(prev.lines[-1], line):
                prev.lines.append(line)
            else:
                paras.append(_Para([line], BlockKind.HEADING, level))
        elif paras and paras[-1].kind is BlockKind.PARAGRAPH or (paras and paras[-1].kind is BlockKind.LIST_ITEM):
            if _continues(paras[-1], line):
                paras[-1].lines.append(line)
            else:
                paras.append(_new_para(line))
        else:
            paras.append(_new_para(line))
        i += 1
    return [b for b in (_to_block(p, lexicon) for p in paras) if b.text]


def _body_size(lines: list[Line]) -> float:
    sizes: list[float] = []
    for line in lines:
        sizes += [round(line.size, 1)] * max(1, len(line.text) // 10)
    return median(sizes)


def _is_heading_candidate(line: Line, body: float) -> bool:
    text = line.text.strip()
    if not text or len(text) > 200:
        return False
    if line.size >= HEADING_RATIO * body:
        return any(ch.isalpha() for ch in text)
    return line.bold and len(text) <= 100 and not text.endswith(_SENTENCE_END[:3]) and any(ch.isalpha() for ch in text)


def _heading_levels(lines: list[Line], body: float) -> dict[float, int]:
    sizes = sorted({round(l.size * 2) / 2 for l in lines if _is_heading_candidate(l, body) and l.size >= HEADING_RATIO * body},
                   reverse=True)
    return {size: rank + 1 for rank, size in enumerate(sizes)}


def _heading_level(line: Line, body: float, levels: dict[float, int]) -> int:
    if not _is_heading_candidate(line, body):
        return 0
    return levels.get(round(line.size * 2) / 2, len(levels) + 1)


def _starts_block(text: str, prev_text: str = "") -> bool:
    """A question marker or bullet always starts a block; a sub-part label only after a line that
    ends a sentence or a clause (a line starting "(5)" after "-(3)/" is a wrapped formula)."""
    text = normalise_text(text)
    if find_marker(text) or _BULLET.match(text):
        return True
    return bool(find_subpart(text)) and (not prev_text or normalise_text(prev_text).endswith(_SENTENCE_END + ("?", ")")))


def _new_para(line: Line) -> _Para:
    kind = BlockKind.LIST_ITEM if _BULLET.match(line.text.strip()) else BlockKind.PARAGRAPH
    return _Para([line], kind)


def _adjacent(prev: Line, line: Line) -> bool:
    return prev.page == line.page and 0 <= line.top - prev.bottom <= 0.8 * prev.size


def _continues(para: _Para, line: Line) -> bool:
    """Whether ``line`` carries on the paragraph that ``para`` holds so far."""
    prev = para.lines[-1]
    text = line.text.strip()
    prev_text = prev.text.rstrip()
    if _starts_block(text, prev_text):
        return False
    ends_sentence = prev_text.endswith(_SENTENCE_END) and not prev_text.endswith(tuple(HYPHEN_MARKERS) + ("-",))
    em = max(prev.size, 1.0)
    same_flow = prev.page == line.page and line.top >= prev.top - 0.5 and abs(line.left - prev.left) < 0.45 * (prev.right - prev.left + 1)
    if not same_flow:  # column or page break
        return not ends_sentence
    gap = line.top - prev.bottom
    if gap > PARAGRAPH_GAP * (prev.bottom - prev.top):
        return False
    if len(para.lines) >= 2 and abs(prev.left - para.lines[-2].left) < 1.0 and line.left > prev.left + 0.8 * em:
        return False  # indented first line of a new paragraph
    widest = max(l.right for l in para.lines)
    if len(para.lines) >= 2 and ends_sentence and prev.right < widest - 3 * em:
        return False  # the previous line was a paragraph's short last line
    return True


def _table_run(lines: list[Line], start: int) -> int:
    """Number of lines from ``start`` that form a table (0 if none)."""
    def cells(line: Line) -> int:
        text = line.text.strip()
        if len(line.segments) < 2 or _OPTION_ROW.match(text) or find_subpart(text):
            return 0
        return len(line.segments)

    width = cells(lines[start])
    if not width:
        return 0
    end = start + 1
    while end < len(lines) and cells(lines[end]) == width and lines[end].page == lines[start].page:
        end += 1
    return end - start if end - start >= 2 else 0


def _to_block(para: _Para, lexicon: set[str]) -> Block:
    pages = [l.page for l in para.lines]
    page, page_end = pages[0], pages[-1]
    if para.kind is BlockKind.TABLE:
        rows = tuple(tuple(normalise_text(s.text) for s in l.segments) for l in para.lines)
        return Block(table_text(rows), BlockKind.TABLE, page=page, page_end=page_end, rows=rows)
    raw = [l.text.replace("\t", " ") for l in para.lines]
    first = para.lines[0].segments
    if len(first) > 1 and first[0].text.strip().isdigit():
        raw[0] = first[0].text.strip() + "\t" + " ".join(s.text for s in first[1:])  # "1<TAB>Explain"
    text = normalise_text(join_lines(raw, lexicon))
    return Block(text, para.kind, para.level, page=page, page_end=page_end)
