"""An answer's first result followed by its versions in other languages (``chsr.versions``, decision 78).

"VWL Multiple Choice: die Steigung einer linearen Konsumfunktion ...": the German item answers first, and its French
version, the same question, is relevant too (curriculum README: "the same item in another language = 1"), but the
query's German words do not find it. The gateway's :class:`chsr.versions.VersionIndex` links such versions by their
text; this puts the first result's versions right after it, in the answer's own rung, and the rest of the answer
moves down (the last results drop out of the top k). Only versions the scope admits as it admits the first result
are added, so the answer leaks nothing it did not already. Each is labelled with what it is a version of.
"""

from __future__ import annotations

from collections.abc import Sequence

from chsr.documents import Doc
from chsr.scope import Scope
from chsr.versions import VersionIndex
from chsr.v1 import common_pb2

#: The most versions added after the first result.
MAX_VERSIONS = 4


def versions_to_add(first_id: str, present: Sequence[str], index: VersionIndex) -> list[str]:
    """The first result's linked versions that are not in the answer yet, best first (to be fetched)."""
    held = set(present)
    return [v for v in index.versions_of(first_id)[:MAX_VERSIONS] if v not in held]


def after_first(candidates: list[common_pb2.Candidate], notes: list[list[str]], scope: Scope,
                versions: Sequence[str], fetched: list[common_pb2.Candidate],
                k: int) -> tuple[list[common_pb2.Candidate], list[list[str]]]:
    """``candidates`` with the first one's ``versions`` (ids, best first) right after it, cut to ``k``: those
    already in the answer move up, the others come from ``fetched`` (documents filled). A version the scope admits
    less than the first result (another violated field) is left out."""
    if not candidates or not versions:
        return candidates, notes
    first = candidates[0]
    allowed = set(scope.violations(_metadata(first)))
    pool = {c.doc_id: (c, n) for c, n in zip(candidates[1:], notes[1:])}
    new = {c.doc_id: c for c in fetched if set(scope.violations(_metadata(c))) <= allowed}
    moved: list[tuple[common_pb2.Candidate, list[str]]] = []
    for doc_id in versions:
        if doc_id in pool:
            moved.append(pool.pop(doc_id))
        elif doc_id in new:
            cand = new[doc_id]
            cand.score = first.score
            moved.append((cand, []))
    if not moved:
        return candidates, notes
    label = f"version of {first.doc_id} in another language (linked by its text)"
    ordered = [(first, notes[0]), *((c, [*n, label]) for c, n in moved), *pool.values()][:k]
    return [c for c, _ in ordered], [n for _, n in ordered]


def _metadata(cand: common_pb2.Candidate) -> dict:
    return Doc.from_proto(cand.document).metadata
