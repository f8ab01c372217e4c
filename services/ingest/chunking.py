"""Structure-aware chunking: headings into every chunk, exam papers at question boundaries.

Issue 11, "Structure-aware chunking". A document is read in one of three roles:

* ``questions`` (exam papers, worksheets) and ``answers`` (mark schemes, solutions): split
  at the question boundaries chosen by :func:`services.ingest.questions.select_chain`; a
  question is one chunk when it fits, else its stem and as many sub-parts as fit, then the
  remaining sub-parts (never a sub-part without its question number in the title);
* ``prose`` (textbook chapters, anything else): split per section, whole blocks first,
  sentence-aware inside a long block, with one sentence of overlap (seed 003);
* tables stay whole where they fit (``chunk_windows.split_table``).

Every chunk's title is ``document title › heading path [› Question n]`` and counts against
the encoder's window with the text. The chunking parameters (and the tokenizer's
fingerprint) are hashed into every chunk (seed 003: "SHA-256 parameter-hash caching to
detect chunking-regime drift"), so a change of regime changes every chunk's content hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from services.ingest.blocks import Block, BlockKind, ParsedDocument, table_text
from services.ingest.chunk_windows import Piece, block_pieces, body_budget, pack, split_table
from services.ingest.exam_segments import Segment, segment_questions
from services.ingest.tokens import TokenCounter

ROLES = ("questions", "answers", "prose")
CHUNKER_VERSION = "1"
SEPARATOR = " › "


@dataclass(frozen=True)
class ChunkingParams:
    """Everything that changes how a file is cut (hashed into every chunk)."""

    max_tokens: int = 256            # all-MiniLM-L6-v2 max_seq_length (issue 4)
    overlap_sentences: int = 1       # seed 003: overlap_sentences = 1
    max_overlap_tokens: int = 64
    tokenizer: str = ""
    version: str = CHUNKER_VERSION

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode("utf-8")).hexdigest()


@dataclass
class Chunk:
    """One chunk and its citation; metadata is attached later (``metadata.py``)."""

    locator: str
    text: str
    title: str
    heading_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    role: str                       # "question" | "answer" | "preamble" | "prose" | "table"
    question_number: int | None = None
    part: str | None = None
    params_digest: str = ""
    metadata: dict = field(default_factory=dict)


def chunk_document(parsed: ParsedDocument, counter: TokenCounter, params: ChunkingParams, *, role: str,
                   doc_title: str = "") -> list[Chunk]:
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; valid: {', '.join(ROLES)}")
    builder = _Builder(counter, params, doc_title or parsed.title or "")
    if role == "prose":
        builder.prose(parsed.blocks, "s")
        return builder.chunks
    preamble, questions = segment_questions(parsed.blocks)
    builder.prose(preamble, "pre", role_name="preamble")
    for segment in questions:
        builder.question(segment, "answer" if role == "answers" else "question")
    return builder.chunks


class _Builder:
    def __init__(self, counter: TokenCounter, params: ChunkingParams, doc_title: str) -> None:
        self.counter, self.params, self.doc_title = counter, params, doc_title
        self.digest = params.digest()
        self.chunks: list[Chunk] = []
        self.path: list[tuple[int, str]] = []

    def title(self, extra: str = "") -> str:
        parts = [self.doc_title] if self.doc_title else []
        parts += [text for _, text in self.path if text != self.doc_title]
        if extra:
            parts.append(extra)
        return SEPARATOR.join(p for p in parts if p)

    def heading(self, block: Block) -> None:
        while self.path and self.path[-1][0] >= block.level:
            self.path.pop()
        self.path.append((block.level, block.text))

    def emit(self, locator: str, text: str, title: str, pages: tuple[int | None, int | None], role: str,
             number: int | None = None, part: str | None = None) -> None:
        self.chunks.append(Chunk(
            locator=locator, text=text, title=title, heading_path=tuple(t for _, t in self.path),
            page_start=pages[0], page_end=pages[1], role=role, question_number=number, part=part,
            params_digest=self.digest,
        ))

    def prose(self, blocks: list[Block], prefix: str, role_name: str = "prose") -> None:
        """Sections of prose: whole blocks, sentences inside long ones, tables apart."""
        pending: list[Block] = []
        for block in blocks + [Block("", BlockKind.HEADING, 1)]:
            if block.kind in (BlockKind.HEADING, BlockKind.TABLE):
                self._flush_prose(pending, prefix, role_name)
                pending = []
                if block.kind is BlockKind.TABLE:
                    self._table(block, prefix)
                elif block.text:
                    self.heading(block)
            else:
                pending.append(block)

    def _locator(self, prefix: str) -> str:
        path = "/".join(t for _, t in self.path)
        section = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
        k = sum(1 for c in self.chunks if c.locator.startswith(f"{prefix}{section}~")) + 1
        return f"{prefix}{section}~{k}"

    def _flush_prose(self, blocks: list[Block], prefix: str, role_name: str) -> None:
        if not blocks:
            return
        title = self.title()
        budget = body_budget(self.counter, title, self.params.max_tokens)
        pieces = [p for i, b in enumerate(blocks) for p in block_pieces(b.text, b.page, i, self.counter, budget)]
        for window in pack(pieces, self.counter, budget, overlap=self.params.overlap_sentences,
                           max_overlap_tokens=self.params.max_overlap_tokens):
            self.emit(self._locator(prefix), window.text, title, window.pages, role_name)

    def _table(self, block: Block, prefix: str) -> None:
        title = self.title()
        budget = body_budget(self.counter, title, self.params.max_tokens)
        rows = block.rows or tuple((line,) for line in block.text.splitlines())
        for part in split_table(rows, self.counter, budget):
            self.emit(self._locator(prefix), table_text(part), title, (block.page, block.last_page), "table")

    def question(self, segment: Segment, role: str) -> None:
        for heading in segment.headings_before:
            self.heading(heading)
        label = f"Question {segment.number}"
        title = self.title(label)
        budget = body_budget(self.counter, title, self.params.max_tokens)
        units = segment.units()
        whole = "\n".join(b.text for unit in units for b in unit)
        pages = segment.pages()
        if self.counter.count(whole) - 2 <= budget:
            self.emit(f"q{segment.number}", whole, title, pages, role, segment.number)
            return
        pieces: list[Piece] = []
        for u, unit in enumerate(units):
            text = "\n".join(b.text for b in unit)
            pieces += block_pieces(text, unit[0].page, u, self.counter, budget)
        cont_title = self.title(f"{label} (continued)")
        windows = pack(pieces, self.counter, body_budget(self.counter, cont_title, self.params.max_tokens),
                       overlap=0)
        for k, window in enumerate(windows, start=1):
            locator = f"q{segment.number}" if k == 1 else f"q{segment.number}~{k}"
            self.emit(locator, window.text, title if k == 1 else cont_title, window.pages, role, segment.number,
                      part=f"{k}/{len(windows)}")
