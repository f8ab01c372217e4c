"""`chsr index verify`: compare the id sets of every backend (issue 7)."""

from __future__ import annotations

from chsr.v1 import common_pb2, gateway_pb2
from gateway.stages import StageStubs

SAMPLE = 100


def _ids(stub) -> set[str]:  # type: ignore[no-untyped-def]
    ids: set[str] = set()
    for page in stub.ListIds(common_pb2.ListIdsRequest(page_size=5000), timeout=120):
        ids.update(page.doc_ids)
    return ids


def verify_index(stubs: StageStubs, expected: list[str]) -> gateway_pb2.VerifyIndexResponse:
    sets = {leg: _ids(stubs.retriever(leg)) for leg in ("sparse", "dense")}
    reference = set(expected) if expected else set().union(*sets.values())
    resp = gateway_pb2.VerifyIndexResponse(consistent=True)
    for leg, ids in sets.items():
        missing = sorted(reference - ids)
        extra = sorted(ids - reference)
        resp.backends.add(backend=leg, count=len(ids), missing=missing[:SAMPLE], extra=extra[:SAMPLE],
                          missing_count=len(missing), extra_count=len(extra))
        if missing or extra:
            resp.consistent = False
    return resp
