"""`chsr index verify`: compare what every backend holds, id by id and content hash by content hash.

Each server lists its documents with their stored content hash and source (``ListIds`` with
``include_details``; only one source's when asked). A document one server lacks, an extra
one, or one stored with a different content hash somewhere (a write that reached some
servers only) makes the index inconsistent, and its source is named: a re-ingest of that
file, or a rerun of the corpus ingest, repairs it.
"""

from __future__ import annotations

from chsr.deadline import HasTimeRemaining, bounded_timeout
from chsr.v1 import gateway_pb2, retriever_pb2
from gateway.stubs import StageStubs

SAMPLE = 100
LIST_IDS_TIMEOUT_S = 120.0


def _entries(stub, source: str, timeout_s: float) -> dict[str, tuple[str, str]]:  # type: ignore[no-untyped-def]
    """id -> (content hash, source)."""
    out: dict[str, tuple[str, str]] = {}
    req = retriever_pb2.ListIdsRequest(page_size=5000, source=source, include_details=True)
    for page in stub.ListIds(req, timeout=timeout_s):
        out.update(zip(page.doc_ids, zip(page.content_hashes, page.sources)))
    return out


def verify_index(stubs: StageStubs, expected: list[str], context: HasTimeRemaining | None = None,
                 source: str = "") -> gateway_pb2.VerifyIndexResponse:
    timeout = bounded_timeout(context, LIST_IDS_TIMEOUT_S)
    held = {name: _entries(stub, source, timeout) for name, stub in stubs.servers.items()}
    union = set().union(*(h.keys() for h in held.values())) if held else set()
    reference = set(expected) if expected else union
    differing = {i for i in union if len({h[i][0] for h in held.values() if i in h}) > 1}
    resp = gateway_pb2.VerifyIndexResponse(consistent=True)
    bad: set[str] = set(differing)
    for name, entries in held.items():
        ids = set(entries)
        missing = sorted(reference - ids)
        extra = sorted(ids - reference)
        here = sorted(differing & ids)
        resp.backends.add(backend=name, count=len(ids), missing=missing[:SAMPLE], extra=extra[:SAMPLE],
                          missing_count=len(missing), extra_count=len(extra), differing=here[:SAMPLE],
                          differing_count=len(here))
        bad.update(missing, extra)
        if missing or extra or here:
            resp.consistent = False
    sources = sorted({h[i][1] for i in bad for h in held.values() if i in h and h[i][1]})
    resp.inconsistent_sources.extend(sources[:SAMPLE])
    resp.inconsistent_source_count = len(sources)
    return resp
