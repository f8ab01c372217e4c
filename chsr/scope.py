"""The curriculum scope and admissibility filter shared by every service.

A :class:`Scope` is a conjunction of "field IN values" constraints over the
curriculum tuple (docs/ARCHITECTURE.md). An empty field is
unconstrained. The same object is the neutral filter model that each backend
translates (ES ``bool.filter``, Weaviate ``where``, embedded mask), so gating
happens inside the engines before top-k (seed 000, section 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Iterable, Mapping

from chsr.v1 import common_pb2

STR_FIELDS: tuple[str, ...] = (
    "subject", "level", "session", "paper", "content_type", "exam_board", "language",
)
INT_FIELDS: tuple[str, ...] = ("year", "question_number")
#: Content types of marking material (a question's mark scheme or worked solution): it answers its question
#: and need not repeat the question's words; an item may have none.
MARKING_TYPES: tuple[str, ...] = ("mark_scheme", "solution")
#: Content types of reference material (what the student asked to read, not a question to answer): a request keeps
#: them when it relaxes, and several asked together stay together.
REFERENCE_MATERIAL: tuple[str, ...] = ("textbook", "syllabus")
SCOPE_FIELDS: tuple[str, ...] = (
    "subject", "level", "year", "session", "paper", "content_type",
    "question_number", "exam_board", "language",
)
#: The fields of the curriculum tuple used for the headline leakage figure.
CURRICULUM_TUPLE: tuple[str, ...] = ("subject", "level", "year", "session", "paper")


def _as_tuple(name: str, value: Any) -> tuple:
    """Normalise a scalar / list / None into a tuple of typed values."""
    if value is None:
        return ()
    items = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
    out: list = []
    for item in items:
        if item is None or item == "":
            continue
        if name in INT_FIELDS:
            if isinstance(item, bool):
                raise ValueError(f"scope.{name}: expected an integer, got {item!r}")
            try:
                out.append(int(item))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"scope.{name}: expected an integer, got {item!r}") from exc
        else:
            if not isinstance(item, str):
                raise ValueError(f"scope.{name}: expected a string, got {item!r}")
            out.append(item)
    return tuple(dict.fromkeys(out))  # de-duplicate, keep order


@dataclass(frozen=True)
class Scope:
    """Admissible curriculum scope; also the pre-retrieval filter."""

    subject: tuple[str, ...] = ()
    level: tuple[str, ...] = ()
    year: tuple[int, ...] = ()
    session: tuple[str, ...] = ()
    paper: tuple[str, ...] = ()
    content_type: tuple[str, ...] = ()
    question_number: tuple[int, ...] = ()
    exam_board: tuple[str, ...] = ()
    language: tuple[str, ...] = ()

    # ---- construction -------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Scope":
        """Build from a JSON-like mapping; scalars and lists are both accepted.

        Unknown keys raise ``ValueError`` naming the field.
        """
        if not data:
            return cls()
        unknown = set(data) - set(SCOPE_FIELDS)
        if unknown:
            raise ValueError(f"scope: unknown field(s) {sorted(unknown)}; valid: {list(SCOPE_FIELDS)}")
        return cls(**{name: _as_tuple(name, data.get(name)) for name in SCOPE_FIELDS})

    @classmethod
    def from_proto(cls, msg: common_pb2.Scope | None) -> "Scope":
        if msg is None:
            return cls()
        return cls(**{name: tuple(dict.fromkeys(getattr(msg, name))) for name in SCOPE_FIELDS})

    def to_proto(self) -> common_pb2.Scope:
        return common_pb2.Scope(**{name: list(getattr(self, name)) for name in SCOPE_FIELDS})

    def to_dict(self) -> dict[str, Any]:
        """Non-empty fields only; single values stay lists for round-tripping."""
        return {name: list(vals) for name, vals in self.items()}

    # ---- queries -------------------------------------------------------
    def items(self) -> Iterable[tuple[str, tuple]]:
        for f in fields(self):
            vals = getattr(self, f.name)
            if vals:
                yield f.name, vals

    def is_empty(self) -> bool:
        return not any(vals for _, vals in self.items())

    def constrained_fields(self) -> list[str]:
        return [name for name, _ in self.items()]

    def violations(self, metadata: Mapping[str, Any]) -> list[str]:
        """Fields whose metadata value is outside the scope.

        A null metadata value under a constrained field is a violation: it cannot
        be shown to be in scope (curriculum README, "Leakage").
        """
        bad: list[str] = []
        for name, vals in self.items():
            value = metadata.get(name)
            if value is None or value not in vals:
                bad.append(name)
        return bad

    def admits(self, metadata: Mapping[str, Any]) -> bool:
        return not self.violations(metadata)

    def without(self, *names: str) -> "Scope":
        return replace(self, **{name: () for name in names})

    def merged_with(self, hints: "Scope") -> "Scope":
        """Hints win field by field over this (extracted) scope."""
        return replace(self, **{name: vals for name, vals in hints.items()})

    def cache_key(self) -> str:
        return "|".join(f"{k}={','.join(map(str, sorted(v, key=str)))}" for k, v in self.items())


EMPTY_SCOPE = Scope()


def names_marking_of_a_question(scope: Scope) -> bool:
    """The scope asks for the marking material (and nothing else) of a numbered question of a named paper:
    a look-up its scope words identify."""
    return bool(scope.question_number and scope.paper and scope.content_type
                and set(scope.content_type) <= set(MARKING_TYPES))


def scope_field_names() -> list[str]:
    return list(SCOPE_FIELDS)


__all__ = [
    "Scope", "EMPTY_SCOPE", "SCOPE_FIELDS", "STR_FIELDS", "INT_FIELDS", "CURRICULUM_TUPLE", "MARKING_TYPES",
    "REFERENCE_MATERIAL",
    "names_marking_of_a_question", "scope_field_names", "field",
]
