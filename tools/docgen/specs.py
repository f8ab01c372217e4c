"""What a generated document is, independent of its format; the ground truth comes from here."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Question:
    number: int
    corpus_id: str
    stem: str
    parts: list[str] = field(default_factory=list)     # sub-parts, each starting with its label
    options: list[str] = field(default_factory=list)   # MCQ options, each starting with its letter


@dataclass
class Section:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[list[list[str]]] = field(default_factory=list)
    corpus_ids: list[str] = field(default_factory=list)


@dataclass
class DocSpec:
    """One document. ``cover_lines`` are printed on the cover; ``cover_fields`` is what they state."""

    doc_id: str
    kind: str                        # exam | mark_scheme | textbook | worksheet
    language: str
    cover_lines: list[str]
    cover_fields: dict[str, Any]
    header_left: str
    header_right: str
    instructions: list[str] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    marker: str = "{n}."             # how question numbers are printed
    style: dict[str, Any] = field(default_factory=dict)

    def ground_truth(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id, "kind": self.kind, "language": self.language,
            "cover_fields": self.cover_fields, "marker": self.marker,
            "questions": [{"number": q.number, "corpus_id": q.corpus_id, "stem": q.stem[:200]} for q in self.questions],
            "sections": [{"heading": s.heading, "corpus_ids": s.corpus_ids} for s in self.sections],
            "style": self.style,
        }


def to_dict(spec: DocSpec) -> dict[str, Any]:
    return asdict(spec)
