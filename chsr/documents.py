"""The document (chunk) model and its validation at the edges.

Corpus lines follow the BEIR corpus format ``{"_id", "title"?, "text",
"metadata"?}`` with the curriculum fields inside ``metadata``.
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


class DocumentError(ValueError):
    """A document failed validation; ``field`` names the offending field."""

    def __init__(self, doc_id: str, field_name: str, message: str) -> None:
        super().__init__(f"document {doc_id or '?'}: field '{field_name}': {message}")
        self.doc_id = doc_id
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class Doc:
    id: str
    text: str
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    def content_hash(self) -> str:
        """Stable hash of everything that is indexed; equal hash = nothing to redo."""
        payload = json.dumps([self.title, self.text, self.metadata], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    @property
    def full_text(self) -> str:
        return f"{self.title}\n{self.text}" if self.title else self.text

    # ---- conversions ---------------------------------------------------
    def to_proto(self) -> common_pb2.Document:
        meta = common_pb2.Metadata(**{k: v for k, v in self.metadata.items() if v is not None and k in METADATA_FIELDS})
        return common_pb2.Document(id=self.id, title=self.title, text=self.text, metadata=meta)

    @classmethod
    def from_proto(cls, msg: common_pb2.Document) -> "Doc":
        meta: dict[str, Any] = {}
        for name in METADATA_FIELDS:
            meta[name] = getattr(msg.metadata, name) if msg.metadata.HasField(name) else None
        return cls(id=msg.id, text=msg.text, title=msg.title, metadata=meta)

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
    return doc


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
