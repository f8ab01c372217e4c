"""The catalogue: what the index holds, as counts of chunks per metadata cell (issue 21).

A cell is one combination of (exam board, paper, subject, level, year, session, content type,
language); it carries its chunk count and the highest question number among its chunks. The
gateway keeps a catalogue in step with the index (``gateway.catalogue_sync``:
it lists the sparse server's ids and content hashes and fetches only what changed) and sends
it to the gate (``GateService.UpdateCatalogue``), which resolves named series, papers and
boards against it and measures what is absent and what is nearest
(``services.gate.series``). The doc id -> cell map is what makes a delete exact.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from chsr.v1 import gate_pb2

#: The metadata fields a cell is keyed by, in key order.
CATALOGUE_FIELDS: tuple[str, ...] = ("exam_board", "paper", "subject", "level", "year", "session", "content_type",
                                     "language")
Cell = tuple[Any, ...]


def cell_of(metadata: Mapping[str, Any], fields: tuple[str, ...] = CATALOGUE_FIELDS) -> Cell:
    """The cell of one chunk's metadata over ``fields`` (missing or empty values are ``None``)."""
    return tuple(metadata.get(name) if metadata.get(name) not in ("", None) else None for name in fields)


def question_number_of(metadata: Mapping[str, Any]) -> int | None:
    """A chunk's question number when it is a positive integer (else None: not an item of a numbered paper)."""
    value = metadata.get("question_number")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


@dataclass(frozen=True)
class CatalogueEntry:
    """One cell, its chunk count and the highest question number its chunks carry (None: none carries one)."""

    cell: Cell
    count: int
    max_question_number: int | None = None

    def metadata(self) -> dict[str, Any]:
        return dict(zip(CATALOGUE_FIELDS, self.cell))


class Catalogue:
    """Chunk counts per cell, with each chunk's cell and content hash (for exact updates)."""

    def __init__(self) -> None:
        self._counts: Counter[Cell] = Counter()
        self._questions: dict[Cell, Counter[int]] = {}   # cell -> chunks per question number
        self._docs: dict[str, tuple[Cell, str, int | None]] = {}   # doc id -> (cell, content hash, question number)
        self._version: str | None = None

    def __len__(self) -> int:
        return len(self._docs)

    def upsert(self, doc_id: str, metadata: Mapping[str, Any], content_hash: str = "") -> None:
        """Count ``doc_id`` in its cell (replacing what it counted before)."""
        self.delete(doc_id)
        cell = cell_of(metadata)
        number = question_number_of(metadata)
        self._docs[doc_id] = (cell, content_hash, number)
        self._counts[cell] += 1
        if number is not None:
            self._questions.setdefault(cell, Counter())[number] += 1
        self._version = None

    def delete(self, doc_id: str) -> bool:
        """Stop counting ``doc_id``; False when it was not counted."""
        known = self._docs.pop(doc_id, None)
        if known is None:
            return False
        cell, _, number = known
        self._counts[cell] -= 1
        if self._counts[cell] <= 0:
            del self._counts[cell]
        if number is not None:
            numbers = self._questions[cell]
            numbers[number] -= 1
            if numbers[number] <= 0:
                del numbers[number]
            if not numbers:
                del self._questions[cell]
        self._version = None
        return True

    def content_hash(self, doc_id: str) -> str | None:
        known = self._docs.get(doc_id)
        return known[1] if known else None

    def doc_ids(self) -> set[str]:
        return set(self._docs)

    def entries(self) -> list[CatalogueEntry]:
        """Every non-empty cell, in a stable order."""
        return [CatalogueEntry(cell, n, max(self._questions[cell]) if cell in self._questions else None)
                for cell, n in sorted(self._counts.items(), key=lambda kv: _sort_key(kv[0]))]

    @property
    def version(self) -> str:
        """A content hash of the entries: equal catalogues have equal versions."""
        if self._version is None:
            digest = hashlib.sha256()
            for entry in self.entries():
                digest.update(repr((entry.cell, entry.count, entry.max_question_number)).encode("utf-8"))
            self._version = digest.hexdigest()[:16]
        return self._version

    def to_request(self) -> gate_pb2.UpdateCatalogueRequest:
        return gate_pb2.UpdateCatalogueRequest(version=self.version, entries=[entry_to_proto(e) for e in self.entries()])


def entry_to_proto(entry: CatalogueEntry) -> gate_pb2.CatalogueEntry:
    values = {k: v for k, v in entry.metadata().items() if v is not None}
    if entry.max_question_number is not None:
        values["max_question_number"] = entry.max_question_number
    return gate_pb2.CatalogueEntry(count=entry.count, **values)


def entries_from_proto(entries: Iterable[gate_pb2.CatalogueEntry]) -> list[CatalogueEntry]:
    out = []
    for msg in entries:
        cell = tuple(getattr(msg, name) if msg.HasField(name) else None for name in CATALOGUE_FIELDS)
        top = int(msg.max_question_number) if msg.HasField("max_question_number") else None
        out.append(CatalogueEntry(cell, int(msg.count), top))
    return out


def _sort_key(cell: Cell) -> tuple:
    return tuple((v is not None, str(v) if v is not None else "") for v in cell)
