"""Reading a BEIR-format corpus file (``{"_id", "title"?, "text", "metadata"?}`` per line).

The whole file is validated first; errors name the line and the field, so nothing is
sent when any line is bad (``chsr ingest``).
"""

from __future__ import annotations

import json
from pathlib import Path

from chsr.documents import Doc, DocumentError


class CorpusError(ValueError):
    """A corpus file has bad lines; the message lists the first 20 (file:line: field: problem)."""


def read_corpus(path: Path) -> list[Doc]:
    """Parse and validate a whole BEIR corpus file; errors name the line and field."""
    docs: list[Doc] = []
    errors: list[str] = []
    seen: dict[str, int] = {}
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
                doc = Doc.from_json(obj)
            except UnicodeDecodeError:
                errors.append(f"{path}:{line_no}: invalid UTF-8")
                continue
            except json.JSONDecodeError as exc:
                errors.append(f"{path}:{line_no}: invalid JSON ({exc.msg})")
                continue
            except DocumentError as exc:
                errors.append(f"{path}:{line_no}: field '{exc.field}': {exc.message}")
                continue
            if doc.id in seen:
                errors.append(f"{path}:{line_no}: field '_id': duplicate of line {seen[doc.id]} ({doc.id})")
                continue
            seen[doc.id] = line_no
            docs.append(doc)
    if errors:
        more = f"\n... and {len(errors) - 20} more" if len(errors) > 20 else ""
        raise CorpusError("\n".join(errors[:20]) + more)
    return docs
