"""What re-ingesting one file must do to the backends: write, keep, delete.

Issue 11, "Identity and updates". The ingest server is stateless, so the plan is made here,
against what the retrieval servers hold for the file's source (``ListIds`` with
``source`` and ``include_details``). Every server is asked, not one: a chunk counts as
unchanged only when every server holds it with the new content hash, so a write that
reached some servers only is repaired by the next ingest of the same file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from chsr.documents import Doc


@dataclass
class IngestPlan:
    """What a re-ingest of one source must do to the backends."""

    upsert: list[Doc] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)

    @property
    def is_noop(self) -> bool:
        return not self.upsert and not self.delete


def agreed_hashes(per_server: Mapping[str, Mapping[str, str]]) -> dict[str, str | None]:
    """id -> the content hash every server holds for it, or ``None`` where they disagree (or
    one lacks it): the union of the servers' ids, each trusted only when all agree."""
    ids = set().union(*(h.keys() for h in per_server.values())) if per_server else set()
    out: dict[str, str | None] = {}
    for doc_id in ids:
        seen = {h.get(doc_id) for h in per_server.values()}
        out[doc_id] = seen.pop() if len(seen) == 1 else None
    return out


def plan_ingest(previous: Mapping[str, str | None], new: Iterable[tuple[Doc, str]]) -> IngestPlan:
    """``previous``: id -> content hash stored for this source (``None`` = not the same
    everywhere); ``new``: (doc, content hash) now. Deleting a source is
    ``plan_ingest(previous, [])``: every stored id is stale."""
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
