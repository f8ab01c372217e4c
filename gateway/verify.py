"""`chsr index verify`: compare the id sets of every backend."""

from __future__ import annotations

from chsr.deadline import HasTimeRemaining, bounded_timeout
from chsr.v1 import gateway_pb2, retriever_pb2
from gateway.stubs import StageStubs

SAMPLE = 100
LIST_IDS_TIMEOUT_S = 120.0


def _ids(stub, timeout_s: float) -> set[str]:  # type: ignore[no-untyped-def]
    ids: set[str] = set()
    for page in stub.ListIds(retriever_pb2.ListIdsRequest(page_size=5000), timeout=timeout_s):
        ids.update(page.doc_ids)
    return ids


def verify_index(stubs: StageStubs, expected: list[str],
                 context: HasTimeRemaining | None = None) -> gateway_pb2.VerifyIndexResponse:
    timeout = bounded_timeout(context, LIST_IDS_TIMEOUT_S)
    sets = {name: _ids(stub, timeout) for name, stub in stubs.servers.items()}
    reference = set(expected) if expected else set().union(*sets.values())
    resp = gateway_pb2.VerifyIndexResponse(consistent=True)
    for name, ids in sets.items():
        missing = sorted(reference - ids)
        extra = sorted(ids - reference)
        resp.backends.add(backend=name, count=len(ids), missing=missing[:SAMPLE], extra=extra[:SAMPLE],
                          missing_count=len(missing), extra_count=len(extra))
        if missing or extra:
            resp.consistent = False
    return resp
