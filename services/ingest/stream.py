"""Reassembling files from a stream of pieces, bounded by the configured size.

A file arrives as a ``FileHeader``, its bytes in pieces (each under the gRPC message limit,
so files larger than that limit work) and a ``FileEnd``. Memory per open file is bounded by
``CHSR_INGEST_MAX_BYTES``: a file announced or found larger is refused and its remaining
pieces are counted, not kept. Protocol mistakes (bytes before a header, a second header while
a file is open) are the caller's bug and fail the stream (INVALID_ARGUMENT); everything about
one file's content is that file's error.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping

from services.ingest.errors import FileErrorReason, IngestFileError
from services.ingest.manifest import FIELDS, INT_FIELDS
from services.ingest.pipeline import check_name


@dataclass
class OpenFile:
    """One file being received."""

    name: str
    source: str           # the normalised name (the name as given when it is unusable)
    media_type: str
    fields: dict[str, Any]
    max_bytes: int
    buffer: bytearray = field(default_factory=bytearray)
    received: int = 0
    refused: IngestFileError | None = None

    @classmethod
    def start(cls, name: str, media_type: str, size: int, raw_fields: Mapping[str, str], max_bytes: int,
              seen: set[str]) -> "OpenFile":
        opened = cls(name=name, source=name, media_type=media_type, fields={}, max_bytes=max_bytes)
        try:
            source = opened.source = check_name(name)
            if source in seen:
                raise IngestFileError(source, FileErrorReason.DUPLICATE_NAME,
                                      "the same file name came earlier in this request; it was ingested once")
            if size > max_bytes:
                raise IngestFileError(source, FileErrorReason.TOO_LARGE,
                                      f"{size} bytes announced; the limit is {max_bytes} (CHSR_INGEST_MAX_BYTES)")
            opened.fields = header_fields(source, raw_fields)
        except IngestFileError as exc:
            opened.refused = exc
        return opened

    def add(self, piece: bytes) -> None:
        self.received += len(piece)
        if self.refused is not None:
            return
        if self.received > self.max_bytes:
            self.refused = IngestFileError(self.name, FileErrorReason.TOO_LARGE,
                                           f"more than {self.max_bytes} bytes (CHSR_INGEST_MAX_BYTES)")
            self.buffer = bytearray()
            return
        self.buffer += piece

    def finish(self, sha256: str) -> bytes:
        """The file's bytes; raises the file's error (refused earlier, or a checksum mismatch)."""
        if self.refused is not None:
            raise self.refused
        data = bytes(self.buffer)
        self.buffer = bytearray()
        if sha256 and hashlib.sha256(data).hexdigest() != sha256.strip().lower():
            raise IngestFileError(self.name, FileErrorReason.CORRUPT,
                                  f"the {len(data)} bytes received do not match the sha256 sent with the file")
        return data


def header_fields(source: str, raw: Mapping[str, str]) -> dict[str, Any]:
    """A file's own curriculum fields (``FileHeader.fields``): known names, typed values."""
    unknown = sorted(k for k in raw if k not in FIELDS)
    if unknown:
        raise IngestFileError(source, FileErrorReason.MANIFEST_UNKNOWN_FIELD,
                              f"fields {unknown} are not curriculum fields; valid: {list(FIELDS)}")
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if not value.strip():
            continue
        if name in INT_FIELDS:
            try:
                out[name] = int(value)
            except ValueError:
                raise IngestFileError(source, FileErrorReason.MANIFEST_INVALID,
                                      f"{name} must be an integer, got {value!r}") from None
        else:
            out[name] = value.strip()
    return out
