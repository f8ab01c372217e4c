"""Packing text into windows that fit the encoder: whole blocks first, then sentences, with overlap.

Why: seed 003 groups sentences into windows with one sentence of overlap so that a
fact cut by a window edge is still whole in one of them; here the window is the dense
encoder's limit counted in its own word-pieces (``tokens.py``), title included, because
the dense service embeds ``title + text`` (``chsr.documents.Doc.full_text``). A table is kept
whole when it fits, else split by rows with its header row repeated.

Word-piece counts add up across whitespace-separated pieces (BERT's pre-tokenizer splits
on whitespace and punctuation, and CJK characters are single pieces), so a window is
sized by summing its pieces' counts; the assembled window is counted once more as a guard.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.ingest.normalise import is_cjk
from chsr.text import split_sentences
from services.ingest.tokens import TokenCounter

SPECIAL_TOKENS = 2


@dataclass(frozen=True)
class Piece:
    """A sentence (or a whole block) with where it came from."""

    text: str
    page: int | None
    block: int          # index of the block it came from (pieces of one block join with a space)


@dataclass
class Window:
    pieces: list[Piece]

    @property
    def text(self) -> str:
        out = ""
        for i, piece in enumerate(self.pieces):
            if i == 0:
                out = piece.text
            elif piece.block != self.pieces[i - 1].block:
                out += "\n" + piece.text
            elif is_cjk(out[-1]) or is_cjk(piece.text[0]):
                out += piece.text
            else:
                out += " " + piece.text
        return out

    @property
    def pages(self) -> tuple[int | None, int | None]:
        pages = [p.page for p in self.pieces if p.page is not None]
        return (min(pages), max(pages)) if pages else (None, None)


def body_budget(counter: TokenCounter, title: str, max_tokens: int) -> int:
    """Word-pieces left for the text once the title, its newline and the special tokens are in."""
    title_tokens = counter.count(title) - SPECIAL_TOKENS if title else 0
    return max(16, max_tokens - SPECIAL_TOKENS - title_tokens)


def pack(pieces: list[Piece], counter: TokenCounter, budget: int, *, overlap: int = 1,
         max_overlap_tokens: int = 64) -> list[Window]:
    """Greedy windows of whole pieces within ``budget``; a new window repeats the last
    ``overlap`` pieces of the previous one when they are short enough."""
    pieces = [p for piece in pieces for p in _fit(piece, counter, budget)]
    sizes = counter.count_many([p.text for p in pieces])
    sizes = [s - SPECIAL_TOKENS for s in sizes]
    windows: list[Window] = []
    current: list[int] = []
    used = 0
    for i, size in enumerate(sizes):
        if current and used + size > budget:
            windows.append(Window([pieces[k] for k in current]))
            carried = current[-overlap:] if overlap else []
            carried_size = sum(sizes[k] for k in carried)
            if carried_size > max_overlap_tokens or carried_size + size > budget:
                carried, carried_size = [], 0
            current, used = list(carried), carried_size
        current.append(i)
        used += size
    if current:
        windows.append(Window([pieces[k] for k in current]))
    return windows


def block_pieces(text: str, page: int | None, block: int, counter: TokenCounter, budget: int) -> list[Piece]:
    """A block as one piece when it fits, else as its sentences."""
    if counter.count(text) - SPECIAL_TOKENS <= budget:
        return [Piece(text, page, block)]
    return [Piece(s, page, block) for s in split_sentences(text)] or [Piece(text, page, block)]


def _fit(piece: Piece, counter: TokenCounter, budget: int) -> list[Piece]:
    """Split a piece that alone exceeds the budget at word (or character, for CJK) boundaries."""
    if counter.count(piece.text) - SPECIAL_TOKENS <= budget:
        return [piece]
    words = piece.text.split(" ") if " " in piece.text else list(piece.text)
    joiner = " " if " " in piece.text else ""
    out: list[Piece] = []
    lo = 0
    while lo < len(words):
        hi = min(len(words), lo + max(1, budget // 2))
        while hi > lo + 1 and counter.count(joiner.join(words[lo:hi])) - SPECIAL_TOKENS > budget:
            hi = lo + max(1, (hi - lo) * 3 // 4)
        while hi < len(words) and counter.count(joiner.join(words[lo:hi + 1])) - SPECIAL_TOKENS <= budget:
            hi += 1
        out.append(Piece(joiner.join(words[lo:hi]), piece.page, piece.block))
        lo = hi
    return out


def split_table(rows: tuple[tuple[str, ...], ...], counter: TokenCounter, budget: int) -> list[tuple[tuple[str, ...], ...]]:
    """The table whole if it fits, else runs of rows each under the header row."""
    from services.ingest.blocks import table_text

    if counter.count(table_text(rows)) - SPECIAL_TOKENS <= budget or len(rows) < 3:
        return [rows]
    header, body = rows[0], rows[1:]
    parts: list[tuple[tuple[str, ...], ...]] = []
    current: list[tuple[str, ...]] = []
    for row in body:
        trial = (header, *current, row)
        if current and counter.count(table_text(trial)) - SPECIAL_TOKENS > budget:
            parts.append((header, *current))
            current = []
        current.append(row)
    if current:
        parts.append((header, *current))
    return parts
