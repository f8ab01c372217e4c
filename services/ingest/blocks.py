"""The format-independent parse result: an ordered list of typed blocks.

Every parser (PDF, DOCX, Markdown, HTML, text) produces the same structure, so
chunking never looks at the file format (issue 11, "Structure-aware chunking").
Pages are 1-based and ``None`` where a format has no pages (Markdown, HTML).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class BlockKind(Enum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE = "table"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Block:
    """One unit of text in reading order.

    ``level`` is the heading level (1 = top) for headings and the nesting depth for
    list items; ``rows`` holds a table's cells (``text`` is then the rows joined with
    `` | ``, the corpus's table convention, curriculum SOURCES.md, openstax).
    """

    text: str
    kind: BlockKind = BlockKind.PARAGRAPH
    level: int = 0
    page: int | None = None
    page_end: int | None = None
    rows: tuple[tuple[str, ...], ...] = ()

    @property
    def last_page(self) -> int | None:
        return self.page_end if self.page_end is not None else self.page


@dataclass
class ParsedDocument:
    """What a parser returns: blocks plus what metadata extraction needs.

    ``cover_text`` is the text of the first page (paged formats), the place where a
    real paper states board, subject, level, year, session and paper name; for
    formats without pages the metadata step takes the leading blocks instead.
    """

    source: str
    media_type: str
    blocks: list[Block]
    page_count: int | None = None
    cover_text: str | None = None
    title: str | None = None
    warnings: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(b.text for b in self.blocks)


def table_text(rows: tuple[tuple[str, ...], ...]) -> str:
    """Rows as ``| a | b |`` lines (the corpus's own table rendering)."""
    return "\n".join("| " + " | ".join(cell.strip() for cell in row) + " |" for row in rows)
