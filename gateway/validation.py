"""Request validation at the edge: every error names the field (issue 2, "Bad input")."""

from __future__ import annotations

from chsr.config import Settings
from chsr.scope import Scope
from chsr.v1 import gateway_pb2
from gateway.pipelines import get_pipeline


def validate_search(request: gateway_pb2.SearchRequest, settings: Settings) -> None:
    if not request.query or not request.query.strip():
        raise ValueError("query: must not be empty or whitespace")
    if len(request.query) > settings.max_query_chars:
        raise ValueError(f"query: longer than {settings.max_query_chars} characters ({len(request.query)})")
    if "\x00" in request.query:
        raise ValueError("query: must not contain NUL characters")
    if request.k <= 0 or request.k > settings.max_k:
        raise ValueError(f"k: must be in 1..{settings.max_k}, got {request.k}")
    get_pipeline(request.pipeline or settings.default_pipeline)
    hints = Scope.from_proto(request.hints)
    for name, values in hints.items():
        for value in values:
            if isinstance(value, str) and (not value.strip() or len(value) > 200):
                raise ValueError(f"hints.{name}: invalid value {value[:40]!r}")
            if name == "year" and not 1900 <= int(value) <= 2100:
                raise ValueError(f"hints.year: out of range: {value}")
            if name == "question_number" and not 0 < int(value) < 10_000:
                raise ValueError(f"hints.question_number: out of range: {value}")
