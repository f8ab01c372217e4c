"""Cutting an exam paper's blocks into questions, and each question into stem and sub-parts.

Candidates are the markers at block starts (``questions.find_marker``; for tables, the
first cell of each row, the usual layout of a mark scheme: ``| 1(a) | answer | 2 |``); the
paper's numbering is the chain :func:`questions.select_chain` picks. Headings between
questions (``Section B``) are not question text: they extend the heading path of the
questions that follow. A numbered list right under an instructions label (``INSTRUCTIONS``,
``注意事项``, ``Consignes``...) is the paper's instructions, not its first questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from services.ingest.blocks import Block, BlockKind, table_text
from services.ingest.questions import Marker, find_cell_marker, find_marker, find_subpart, select_chain


@dataclass
class Segment:
    number: int
    blocks: list[Block] = field(default_factory=list)
    headings_before: list[Block] = field(default_factory=list)

    def units(self) -> list[list[Block]]:
        """Stem first, then one unit per sub-part (a block that starts with ``(a)``, ``(ii)``...)."""
        units: list[list[Block]] = []
        for block in self.blocks:
            if not units or (block.kind is not BlockKind.TABLE and find_subpart(block.text)):
                units.append([block])
            else:
                units[-1].append(block)
        return units

    def pages(self) -> tuple[int | None, int | None]:
        pages = [p for b in self.blocks for p in (b.page, b.last_page) if p is not None]
        return (min(pages), max(pages)) if pages else (None, None)


def explode_tables(blocks: list[Block]) -> list[Block]:
    """Split tables whose rows are numbered by question into one table block per question."""
    out: list[Block] = []
    for block in blocks:
        if block.kind is not BlockKind.TABLE or not block.rows:
            out.append(block)
            continue
        numbered = [i for i, row in enumerate(block.rows) if row and find_cell_marker(row[0])]
        if len(numbered) < 2:
            out.append(block)
            continue
        header = block.rows[:numbered[0]]
        bounds = numbered + [len(block.rows)]
        for start, end in zip(bounds, bounds[1:]):
            rows = header + block.rows[start:end]
            out.append(Block(table_text(rows), BlockKind.TABLE, page=block.page, page_end=block.page_end, rows=rows))
    return out


def _marker(block: Block) -> Marker | None:
    if block.kind is BlockKind.TABLE:
        first = next((row for row in block.rows if row and find_cell_marker(row[0])), None)
        return find_cell_marker(first[0]) if first else None
    return find_marker(block.text)


#: Labels of a paper's instructions list ("INSTRUCTIONS", "Information for candidates", 注意事项...):
#: the numbered list under one is not the questions.
INSTRUCTION_LABEL = re.compile(
    r"^(?:instructions?|information|notes?|directions|rubric|instructions? (?:to|for) candidates|"
    r"information (?:to|for) candidates|注意事项|考生须知|说明|consignes?|instructions aux candidats|hinweise|"
    r"hinweise für (?:die )?prüflinge|arbeitshinweise|instrucciones|indicaciones|instrucciones generales)\s*[:：]?$",
    re.IGNORECASE,
)


MAX_INSTRUCTION_CHARS = 300


def instruction_blocks(blocks: list[Block]) -> set[int]:
    """Indices of the numbered items right under an instructions label: 1, 2, 3... on the label's
    page, each short (instructions are one-line rules); the list ends at anything else."""
    out: set[int] = set()
    for i, block in enumerate(blocks):
        if len(block.text) > 60 or not INSTRUCTION_LABEL.match(block.text.strip()):
            continue
        expected, j = 1, i + 1
        while j < len(blocks) and blocks[j].kind is not BlockKind.HEADING and blocks[j].page == block.page:
            marker = find_marker(blocks[j].text)
            if marker is None or marker.number != expected or len(blocks[j].text) > MAX_INSTRUCTION_CHARS:
                break
            out.add(j)
            expected, j = expected + 1, j + 1
    return out


def segment_questions(blocks: list[Block]) -> tuple[list[Block], list[Segment]]:
    """(preamble blocks, questions in order)."""
    blocks = explode_tables(blocks)
    skip = instruction_blocks(blocks)
    found = [(i, m) for i, b in enumerate(blocks) if i not in skip and (m := _marker(b)) is not None]
    chain = select_chain([m for _, m in found])
    starts = {found[k][0]: found[k][1].number for k in chain}
    preamble: list[Block] = []
    segments: list[Segment] = []
    headings: list[Block] = []
    for i, block in enumerate(blocks):
        if i in starts:
            segments.append(Segment(starts[i], [block], headings))
            headings = []
        elif not segments:
            preamble.append(block)
        elif block.kind is BlockKind.HEADING:
            headings.append(block)
        else:
            if headings:  # text after a heading inside a question: keep both in the question
                segments[-1].blocks += headings
                headings = []
            segments[-1].blocks.append(block)
    if headings and segments:
        segments[-1].blocks += headings
    return preamble, segments
