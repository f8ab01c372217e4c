"""The one per-file error type of the ingest service (issue 11, "Bad input").

A bad file must never abort the other files of a request: every parser and the
pipeline raise :class:`IngestFileError` for a file they cannot take, and
:func:`services.ingest.pipeline.ingest_file` turns any exception into one (so the
gRPC layer maps it once, at the edge; weaviate-python-client ``exceptions.py``
style: one error class carrying structured context).
"""

from __future__ import annotations

from enum import Enum


class FileErrorReason(Enum):
    """Why a file was refused; the value is the stable machine-readable code."""

    EMPTY = "empty"
    TOO_LARGE = "too_large"
    UNKNOWN_TYPE = "unknown_type"
    ENCRYPTED = "encrypted"
    CORRUPT = "corrupt"
    NO_TEXT_LAYER = "no_text_layer"
    NO_TEXT = "no_text"
    BAD_NAME = "bad_name"
    MANIFEST_MISSING_FILE = "manifest_missing_file"
    MANIFEST_UNKNOWN_FIELD = "manifest_unknown_field"
    MANIFEST_INVALID = "manifest_invalid"
    INTERNAL = "internal"
    DUPLICATE_NAME = "duplicate_name"

    def __str__(self) -> str:
        return self.value


class IngestFileError(Exception):
    """One file could not be ingested; ``file`` names it and ``reason`` says why."""

    def __init__(self, file: str, reason: FileErrorReason, detail: str) -> None:
        super().__init__(f"{file}: {reason.value}: {detail}")
        self.file = file
        self.reason = reason
        self.detail = detail

    def to_dict(self) -> dict[str, str]:
        return {"file": self.file, "reason": self.reason.value, "detail": self.detail}
