"""Stable chunk ids, content hashes, and the ingest plan (what to write, keep and delete).

Issue 11, "Identity and updates": an id is derived from (source, locator) only, so
re-ingesting a file maps each chunk onto the id it had; the content hash covers what is
indexed plus the chunking-parameter digest, so an unchanged chunk is skipped and a change
of chunking regime rewrites everything. Locators are structural (``q12``, ``q12~2``,
``s<section-hash>~3``), so an edit in one question or section leaves the others' ids alone.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from chsr.documents import MAX_ID_BYTES, Doc

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


def content_hash(doc: Doc, params_digest: str) -> str:
    """Hash of what is indexed (``Doc.content_hash``) and of the chunking regime."""
    return hashlib.sha256(f"{doc.content_hash()}:{params_digest}".encode("utf-8")).hexdigest()


@dataclass
class IngestPlan:
    """What a re-ingest of one source must do to the backends."""

    upsert: list[Doc] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)

    @property
    def is_noop(self) -> bool:
        return not self.upsert and not self.delete


def plan_ingest(previous: Mapping[str, str], new: Iterable[tuple[Doc, str]]) -> IngestPlan:
    """``previous``: id -> content hash stored for this source; ``new``: (doc, content hash) now.

    Deleting a source is ``plan_ingest(previous, [])``: every stored id is stale.
    """
    plan = IngestPlan()
    seen: set[str] = set()
    for doc, digest in new:
        if doc.id in seen:
            raise ValueError(f"duplicate chunk id {doc.id!r} in one source")
        seen.add(doc.id)
        if previous.get(doc.id) == digest:
            plan.unchanged.append(doc.id)
        else:
            plan.upsert.append(doc)
    plan.delete = sorted(i for i in previous if i not in seen)
    return plan
