"""Reading the curriculum corpus (by path) and cleaning item text for typesetting."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.docgen.latex_text import latex_to_text

_LEADING_NUMBER = re.compile(r"^\s*\d{1,3}\s*[.．、]\s*")
_OPTIONS = re.compile(r"\s*\(([A-E])\)\s*")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SUBPARTS = re.compile(r"(?=（[1-9]）)")


@dataclass(frozen=True)
class Item:
    id: str
    text: str
    meta: dict[str, Any]


def load_items(corpus: Path) -> list[Item]:
    items = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            items.append(Item(obj["_id"], obj["text"], obj.get("metadata") or {}))
    return items


def group_by(items: list[Item], *fields: str) -> dict[tuple, list[Item]]:
    out: dict[tuple, list[Item]] = defaultdict(list)
    for item in items:
        out[tuple(item.meta.get(f) for f in fields)].append(item)
    return out


def clean(text: str) -> str:
    """One paragraph of printable text: LaTeX as Unicode, hard line breaks of the source removed."""
    lines = [l.strip() for l in text.replace("\r", "").split("\n") if l.strip()]
    out = ""
    for line in lines:
        if out and not (_CJK.match(out[-1]) and _CJK.match(line[0])):
            out += " "
        out += line
    out = latex_to_text(out) if "$" in out or "\\" in out else out
    out = out.replace("[diagram]", "(diagram omitted)")
    out = _CONTROL.sub("", out)  # a few corpus items carry control characters, which XML (DOCX) refuses
    return " ".join(out.split())


def strip_number(text: str) -> str:
    return _LEADING_NUMBER.sub("", text, count=1)


def split_options(text: str) -> tuple[str, list[str]]:
    """'stem (A) x (B) y' -> ('stem', ['(A) x', '(B) y'])."""
    parts = _OPTIONS.split(text)
    if len(parts) < 5:
        return text, []
    stem, rest = parts[0].strip(), parts[1:]
    return stem, [f"({rest[i]}) {rest[i + 1].strip()}" for i in range(0, len(rest) - 1, 2)]


def split_subparts(text: str) -> tuple[str, list[str]]:
    """'stem （1）a （2）b' -> ('stem', ['（1）a', '（2）b']) when at least two sub-parts exist."""
    pieces = [p.strip() for p in _SUBPARTS.split(text) if p.strip()]
    if len(pieces) < 3:
        return text, []
    return pieces[0], pieces[1:]
