"""Reading a BEIR-format corpus file (``{"_id", "title"?, "text", "metadata"?}`` per line).

The whole file is validated first; errors name the line and the field. By default nothing
is sent when any line is bad (``chsr ingest``); ``chsr ingest --skip-invalid`` sends the valid
lines and lists the skipped ones (a public corpus with a few empty documents is still usable).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from chsr.documents import Doc, DocumentError

MAX_LISTED = 20


class CorpusError(ValueError):
    """A corpus file has bad lines; the message lists the first 20 (file:line: field: problem)."""


@dataclass
class ParsedCorpus:
    """The valid documents of a corpus file and, for each bad line, ``file:line: problem``."""

    docs: list[Doc] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def parse_corpus(path: Path) -> ParsedCorpus:
    """Parse every line; bad ones are listed in ``errors`` (a later duplicate id is bad, the first kept)."""
    out = ParsedCorpus()
    seen: dict[str, int] = {}
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
                doc = Doc.from_json(obj)
            except UnicodeDecodeError:
                out.errors.append(f"{path}:{line_no}: invalid UTF-8")
                continue
            except json.JSONDecodeError as exc:
                out.errors.append(f"{path}:{line_no}: invalid JSON ({exc.msg})")
                continue
            except DocumentError as exc:
                out.errors.append(f"{path}:{line_no}: field '{exc.field}': {exc.message}")
                continue
            if doc.id in seen:
                out.errors.append(f"{path}:{line_no}: field '_id': duplicate of line {seen[doc.id]} ({doc.id})")
                continue
            seen[doc.id] = line_no
            out.docs.append(doc)
    return out


def list_errors(errors: list[str]) -> str:
    more = f"\n... and {len(errors) - MAX_LISTED} more" if len(errors) > MAX_LISTED else ""
    return "\n".join(errors[:MAX_LISTED]) + more


def read_corpus(path: Path) -> list[Doc]:
    """Parse and validate a whole BEIR corpus file; any bad line raises :class:`CorpusError`."""
    parsed = parse_corpus(path)
    if parsed.errors:
        raise CorpusError(list_errors(parsed.errors))
    return parsed.docs
