"""Enums parsed from strings with an error that names the field and the valid values.

Haystack's pattern: modes are an Enum with a ``from_str`` that lists
the valid values in its error.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from chsr.errors import InvalidArgument

E = TypeVar("E", bound="NamedEnum")


class NamedEnum(Enum):
    """Subclasses may override ``field_name()`` (the request field named in errors) and ``kind()``."""

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def field_name(cls) -> str:
        return "mode"

    @classmethod
    def kind(cls) -> str:
        """Noun used in errors, e.g. "rerank stage" -> "mode: unknown rerank stage 'x'"."""
        return ""

    @classmethod
    def from_str(cls: type[E], value: str) -> E:
        by_value = {m.value: m for m in cls}
        member = by_value.get(str(value).strip().lower())
        if member is None:
            noun = f"{cls.kind()} " if cls.kind() else ""
            raise InvalidArgument(cls.field_name(), f"unknown {noun}'{value}'; valid: {', '.join(by_value)}")
        return member
