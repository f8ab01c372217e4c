"""The document (chunk) model and its validation at the edges.

Corpus lines follow the BEIR corpus format ``{"_id", "title"?, "text",
"metadata"?}`` with the curriculum fields inside ``metadata``. Chunks of ingested files
also carry a :class:`Citation` (where the chunk comes from) and the digest of the chunking
parameters that cut them; both are part of the content hash, so every backend stores them
and a change of either rewrites the chunk.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from chsr.errors import InvalidArgument
from chsr.v1 import common_pb2

METADATA_STR = ("subject", "level", "session", "paper", "content_type", "source", "exam_board", "language")
METADATA_INT = ("year", "question_number")
METADATA_FIELDS = (
    "subject", "level", "year", "session", "paper", "content_type",
    "question_number", "source", "exam_board", "language",
)
MAX_ID_BYTES = 512
MAX_TEXT_BYTES = 1_000_000
MAX_HEADINGS = 32
MAX_CITATION_CHARS = 1000



def write_metadata(metadata: Mapping[str, Any], msg: common_pb2.Metadata) -> None:
    """Set every curriculum field of ``metadata`` that has a value on ``msg``."""
    for name, value in metadata.items():
        if value is not None and name in METADATA_FIELDS:
            setattr(msg, name, value)


def metadata_from_proto(msg: common_pb2.Metadata) -> dict[str, Any]:
    """Every curriculum field of ``msg``, None where unset (the dict form ``Scope.admits`` and ``Doc`` use)."""
    return {name: getattr(msg, name) if msg.HasField(name) else None for name in METADATA_FIELDS}

class DocumentError(ValueError):
    """A document failed validation; ``field`` names the offending field."""

    def __init__(self, doc_id: str, field_name: str, message: str) -> None:
        super().__init__(f"document {doc_id or '?'}: field '{field_name}': {message}")
        self.doc_id = doc_id
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class Citation:
    """Where a chunk comes from, as a reader would cite it (``chsr.v1.Citation``)."""

    source: str = ""
    title: str = ""
    page_start: int | None = None
    page_end: int | None = None
    heading_path: tuple[str, ...] = ()
    question_number: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stored form (embedded doc store JSON, the engines' citation fields)."""
        return {"source": self.source, "title": self.title, "page_start": self.page_start,
                "page_end": self.page_end, "heading_path": list(self.heading_path),
                "question_number": self.question_number}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any] | None) -> "Citation | None":
        if not raw:
            return None
        return cls(source=raw.get("source") or "", title=raw.get("title") or "", page_start=raw.get("page_start"),
                   page_end=raw.get("page_end"), heading_path=tuple(raw.get("heading_path") or ()),
                   question_number=raw.get("question_number"))

    def to_proto(self) -> common_pb2.Citation:
        msg = common_pb2.Citation(source=self.source, title=self.title, heading_path=list(self.heading_path))
        for name in ("page_start", "page_end", "question_number"):
            if getattr(self, name) is not None:
                setattr(msg, name, getattr(self, name))
        return msg

    @classmethod
    def from_proto(cls, msg: common_pb2.Citation) -> "Citation":
        def opt(name: str) -> int | None:
            return getattr(msg, name) if msg.HasField(name) else None
        return cls(source=msg.source, title=msg.title, page_start=opt("page_start"), page_end=opt("page_end"),
                   heading_path=tuple(msg.heading_path), question_number=opt("question_number"))


@dataclass(frozen=True)
class Doc:
    id: str
    text: str
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    citation: Citation | None = None
    chunking: str = ""   # digest of the chunking parameters (ingested files only)

    def content_hash(self) -> str:
        """Stable hash of everything that is stored; equal hash = nothing to redo. Documents
        without a citation or chunking digest hash as they did before those existed."""
        parts: list[Any] = [self.title, self.text, self.metadata]
        if self.citation is not None or self.chunking:
            parts += [self.citation.to_dict() if self.citation else None, self.chunking]
        payload = json.dumps(parts, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    @property
    def full_text(self) -> str:
        return f"{self.title}\n{self.text}" if self.title else self.text

    def cited(self) -> Citation:
        """The stored citation, or one made from the metadata for corpus lines that carry none."""
        if self.citation is not None:
            return self.citation
        return Citation(source=self.metadata.get("source") or "", title=self.title,
                        question_number=self.metadata.get("question_number"))

    # ---- conversions ---------------------------------------------------
    def to_proto(self) -> common_pb2.Document:
        msg = common_pb2.Document()
        self.write_proto(msg)
        return msg

    def write_proto(self, msg: common_pb2.Document, metadata_only: bool = False) -> None:
        """Fill ``msg`` in place (no message built and copied per field); ``metadata_only``: the id and
        the metadata, the form the legs' metadata hits take."""
        msg.id = self.id
        write_metadata(self.metadata, msg.metadata)
        if metadata_only:
            return
        msg.title, msg.text, msg.chunking = self.title, self.text, self.chunking
        if self.citation is not None:
            msg.citation.CopyFrom(self.citation.to_proto())

    @classmethod
    def from_proto(cls, msg: common_pb2.Document) -> "Doc":
        meta = metadata_from_proto(msg.metadata)
        citation = Citation.from_proto(msg.citation) if msg.HasField("citation") else None
        return cls(id=msg.id, text=msg.text, title=msg.title, metadata=meta, citation=citation, chunking=msg.chunking)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Doc":
        """Parse and validate one corpus object; raises :class:`DocumentError`."""
        if not isinstance(obj, Mapping):
            raise DocumentError("", "_id", "corpus line is not a JSON object")
        doc_id = obj.get("_id")
        if not isinstance(doc_id, str) or not doc_id.strip():
            raise DocumentError("", "_id", "missing or empty")
        text = obj.get("text")
        if not isinstance(text, str) or not text.strip():
            raise DocumentError(doc_id, "text", "missing or empty")
        title = obj.get("title") or ""
        if not isinstance(title, str):
            raise DocumentError(doc_id, "title", "must be a string")
        raw_meta = obj.get("metadata") or {}
        if not isinstance(raw_meta, Mapping):
            raise DocumentError(doc_id, "metadata", "must be an object")
        return validate_doc(cls(id=doc_id, text=text, title=title, metadata=normalise_metadata(doc_id, raw_meta)))


def normalise_metadata(doc_id: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {name: None for name in METADATA_FIELDS}
    for name, value in raw.items():
        if name not in METADATA_FIELDS:
            continue  # extra metadata is carried by the corpus but not indexed
        if value is None:
            continue
        if name in METADATA_INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise DocumentError(doc_id, f"metadata.{name}", f"expected integer or null, got {value!r}")
        elif not isinstance(value, str):
            raise DocumentError(doc_id, f"metadata.{name}", f"expected string or null, got {value!r}")
        meta[name] = value
    return meta


def validate_doc(doc: Doc) -> Doc:
    """Checks shared by the CLI and the gateway's Ingest RPC."""
    if not doc.id or not doc.id.strip():
        raise DocumentError("", "_id", "missing or empty")
    if len(doc.id.encode("utf-8")) > MAX_ID_BYTES:
        raise DocumentError(doc.id[:40], "_id", f"longer than {MAX_ID_BYTES} bytes")
    if not doc.text or not doc.text.strip():
        raise DocumentError(doc.id, "text", "missing or empty")
    if len(doc.text.encode("utf-8")) > MAX_TEXT_BYTES:
        raise DocumentError(doc.id, "text", f"longer than {MAX_TEXT_BYTES} bytes")
    if doc.citation is not None:
        _validate_citation(doc.id, doc.citation)
    return doc


def _validate_citation(doc_id: str, c: Citation) -> None:
    if len(c.heading_path) > MAX_HEADINGS:
        raise DocumentError(doc_id, "citation.heading_path", f"more than {MAX_HEADINGS} headings")
    for name, value in (("source", c.source), ("title", c.title), *(("heading_path", h) for h in c.heading_path)):
        if len(value) > MAX_CITATION_CHARS:
            raise DocumentError(doc_id, f"citation.{name}", f"longer than {MAX_CITATION_CHARS} characters")
    for name in ("page_start", "page_end", "question_number"):
        value = getattr(c, name)
        if value is not None and value < 1:
            raise DocumentError(doc_id, f"citation.{name}", f"must be >= 1, got {value}")
    if c.page_start is not None and c.page_end is not None and c.page_end < c.page_start:
        raise DocumentError(doc_id, "citation.page_end", f"before page_start ({c.page_end} < {c.page_start})")


def validate_batch(messages: Sequence[common_pb2.Document], field: str = "documents") -> list[Doc]:
    """Every document valid and ids unique, or InvalidArgument naming the first bad one (and how
    many are bad): a batch is written whole or not at all."""
    docs: list[Doc] = []
    bad: list[InvalidArgument] = []
    seen: set[str] = set()
    for i, msg in enumerate(messages):
        try:
            doc = validate_doc(Doc.from_proto(msg))
        except DocumentError as exc:
            bad.append(InvalidArgument(f"{field}[{i}] ({exc.doc_id or '?'}).{exc.field}", exc.message))
            continue
        if doc.id in seen:
            bad.append(InvalidArgument(f"{field}[{i}] ({doc.id})._id", "duplicate id in batch"))
            continue
        seen.add(doc.id)
        docs.append(doc)
    if bad:
        first = bad[0]
        raise InvalidArgument(first.field, first.message + (f" ({len(bad)} invalid documents)" if len(bad) > 1 else ""))
    return docs
