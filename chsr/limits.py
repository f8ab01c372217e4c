"""Request limits and the checks that enforce them, defined once for gateway and services.

Each check raises :class:`chsr.errors.InvalidArgument` naming the field and the limit.
Settings-dependent limits (``CHSR_MAX_K``, ``CHSR_MAX_QUERY_CHARS``) are passed in; the
fixed ones are constants here.
"""

from __future__ import annotations

from chsr.errors import InvalidArgument
from chsr.scope import INT_FIELDS, Scope

#: Plausible years for a scope constraint (hints and filters).
YEAR_RANGE = (1900, 2100)
#: Question numbers a scope may name (1-based).
QUESTION_NUMBER_RANGE = (1, 10_000)
#: Longest string value of a scope field.
MAX_SCOPE_VALUE_CHARS = 200
#: Deepest list a retriever returns (deep lists are used offline, e.g. CDF calibration).
MAX_RETRIEVE_K = 10_000


def check_query(query: str, max_chars: int, field: str = "query") -> None:
    if not query or not query.strip():
        raise InvalidArgument(field, "must not be empty or whitespace")
    if len(query) > max_chars:
        raise InvalidArgument(field, f"longer than {max_chars} characters ({len(query)})")
    if "\x00" in query:
        raise InvalidArgument(field, "must not contain NUL characters")


def check_k(k: int, max_k: int, field: str = "k") -> None:
    if not 1 <= k <= max_k:
        raise InvalidArgument(field, f"must be in 1..{max_k}, got {k}")


def check_scope(scope: Scope, field: str = "hints") -> None:
    """Structural checks of a scope: non-blank, bounded strings; years and question numbers in range."""
    for name, values in scope.items():
        if name in INT_FIELDS:
            low, high = YEAR_RANGE if name == "year" else QUESTION_NUMBER_RANGE
            bad = [v for v in values if not low <= v <= high]
            if bad:
                raise InvalidArgument(f"{field}.{name}", f"must be in {low}..{high}, got {bad}")
            continue
        for value in values:
            if not value.strip() or len(value) > MAX_SCOPE_VALUE_CHARS:
                raise InvalidArgument(f"{field}.{name}",
                                      f"must be 1..{MAX_SCOPE_VALUE_CHARS} non-blank characters, got {value[:40]!r}")
