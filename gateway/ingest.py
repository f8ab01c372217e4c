"""Ingest fan-out: validate a batch, then upsert it into every retrieval backend.

A batch with any invalid document is rejected whole (INVALID_ARGUMENT naming the
document and field) before anything of it is written, so nothing already ingested is
lost and no half-batch lands. Upserts are idempotent by id, so an interrupted ingest is
simply rerun.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Sequence

import grpc

from chsr.deadline import HasTimeRemaining, bounded_timeout
from chsr.errors import DeadlineExceeded, Unavailable
from chsr.v1 import common_pb2, retriever_pb2
from gateway.stubs import StageStubs

UPSERT_TIMEOUT_S = 600.0
RECONNECT_WAIT_S = 10.0


@dataclass
class IngestTotals:
    received: int = 0
    indexed: int = 0
    unchanged: int = 0
    per_backend: dict[str, int] = field(default_factory=dict)


def upsert_with_reconnect(stub, req: retriever_pb2.UpsertRequest, metadata: tuple,  # type: ignore[no-untyped-def]
            context: HasTimeRemaining | None) -> retriever_pb2.UpsertResponse:
    """Upsert once; on UNAVAILABLE wait up to ``RECONNECT_WAIT_S`` for the backend and try again.

    A backend that just restarted is still reconnecting for ~1 s, so one bounded wait saves the
    ingest; a backend that stays down fails the batch within seconds instead of holding the stream
    for the whole upsert timeout. Upsert is idempotent (content hashes), so the second attempt is
    safe. Neither call outlives the client's deadline."""
    try:
        return stub.Upsert(req, timeout=bounded_timeout(context, UPSERT_TIMEOUT_S), metadata=metadata)
    except grpc.RpcError as exc:
        if exc.code() != grpc.StatusCode.UNAVAILABLE:
            raise
        first = exc
    try:
        return stub.Upsert(req, timeout=bounded_timeout(context, RECONNECT_WAIT_S), wait_for_ready=True,
                           metadata=metadata)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            raise first from exc  # still down after the wait: report why it was unavailable
        raise


def upsert_batch(stubs: StageStubs, executor: ThreadPoolExecutor, docs: Sequence[common_pb2.Document],
                 totals: IngestTotals, context: HasTimeRemaining | None = None) -> None:
    """Write one validated batch to every retrieval server in parallel; any failure fails the stream
    (UNAVAILABLE; the batch may be in some servers already, a rerun makes them consistent)."""
    req = retriever_pb2.UpsertRequest(documents=docs)
    futures = {name: executor.submit(upsert_with_reconnect, stub, req, stubs.write_metadata, context)
               for name, stub in stubs.servers.items()}
    results: dict[str, retriever_pb2.UpsertResponse] = {}
    failures: list[str] = []
    codes: set[grpc.StatusCode] = set()
    for leg, fut in futures.items():
        try:
            results[leg] = fut.result()
        except grpc.RpcError as exc:
            failures.append(f"{leg}: {exc.code().name} {exc.details()}")
            codes.add(exc.code())
    if failures:
        message = f"ingest backend failed: {'; '.join(failures)}; rerun ingest (idempotent)"
        if codes == {grpc.StatusCode.DEADLINE_EXCEEDED}:
            # the forwarded upserts ran out of the client's time (or their own ceiling): the same
            # status the client's own deadline gives, never an UNAVAILABLE that depends on the race
            raise DeadlineExceeded(message)
        raise Unavailable(message)
    totals.received += len(docs)
    for leg, resp in results.items():
        totals.per_backend[leg] = totals.per_backend.get(leg, 0) + resp.indexed
    totals.indexed += max(r.indexed for r in results.values())
    totals.unchanged += min(r.unchanged for r in results.values())
