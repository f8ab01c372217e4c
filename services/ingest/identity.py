"""Stable chunk ids and source names.

Issue 11, "Identity and updates": an id is derived from (source, locator) only, so
re-ingesting a file maps each chunk onto the id it had. The content hash
(``chsr.documents.Doc.content_hash``) covers what is stored, the citation and the
chunking-parameter digest included, so an unchanged chunk is skipped and a change of chunking
regime rewrites everything; the gateway plans the write (``gateway/file_plan.py``). Locators
are structural (``q12``, ``q12~2``, ``s<section-hash>~3``), so an edit in one question or
section leaves the others' ids alone.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from chsr.documents import MAX_ID_BYTES

_SLUG = re.compile(r"[^a-z0-9]+")


def normalise_source(name: str) -> str:
    """The canonical form of a file's source name: NFC, forward slashes, no leading ``./``."""
    name = unicodedata.normalize("NFC", name).replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return name


def chunk_id(source: str, locator: str) -> str:
    """``file:<slug>-<hash12>:<locator>``: readable, bounded (``chsr.documents.MAX_ID_BYTES``), stable."""
    source = normalise_source(source)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]
    stem = source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    slug = _SLUG.sub("-", unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode().lower()).strip("-")[:40]
    out = f"file:{slug or 'doc'}-{digest}:{locator}"
    if len(out.encode("utf-8")) > MAX_ID_BYTES:
        out = f"file:{digest}:{hashlib.sha256(locator.encode()).hexdigest()[:24]}"
    return out
