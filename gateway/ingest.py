"""Ingest fan-out: validate a batch, then upsert it into every retrieval backend.

A batch with any invalid document is rejected whole (INVALID_ARGUMENT naming
the document and field) before anything of it is written, so nothing already
ingested is lost and no half-batch lands. Upserts are idempotent by id, so an
interrupted ingest is simply rerun (issue 7).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable

import grpc

from chsr.deadline import HasTimeRemaining, bounded_timeout
from chsr.docs import Doc, DocumentError, validate_doc
from chsr.v1 import common_pb2
from gateway.stages import StageStubs

LEGS = ("sparse", "dense")
UPSERT_TIMEOUT_S = 600.0
RECONNECT_WAIT_S = 10.0


class BatchInvalid(ValueError):
    pass


@dataclass
class IngestTotals:
    received: int = 0
    indexed: int = 0
    unchanged: int = 0
    per_backend: dict[str, int] = field(default_factory=lambda: {leg: 0 for leg in LEGS})


def validate_batch(documents: Iterable[common_pb2.Document]) -> list[common_pb2.Document]:
    seen: set[str] = set()
    valid: list[common_pb2.Document] = []
    for i, msg in enumerate(documents):
        try:
            doc = validate_doc(Doc.from_proto(msg))
        except DocumentError as exc:
            raise BatchInvalid(f"documents[{i}] ({exc.doc_id or '?'}).{exc.field}: {exc.message}") from exc
        if doc.id in seen:
            raise BatchInvalid(f"documents[{i}] ({doc.id})._id: duplicate id in batch")
        seen.add(doc.id)
        valid.append(msg)
    return valid


def _upsert(stub, req: common_pb2.UpsertRequest,  # type: ignore[no-untyped-def]
            context: HasTimeRemaining | None = None) -> common_pb2.UpsertResponse:
    """Upsert once; on UNAVAILABLE wait up to ``RECONNECT_WAIT_S`` for the backend and try again.

    A backend that just restarted is still reconnecting for ~1 s, so one bounded wait saves the
    ingest; a backend that stays down fails the batch within seconds instead of holding the stream
    for the whole upsert timeout (``wait_for_ready`` on every call did that). Upsert is idempotent
    (content hashes), so the second attempt is safe. Neither call outlives the client's deadline."""
    try:
        return stub.Upsert(req, timeout=bounded_timeout(context, UPSERT_TIMEOUT_S))
    except grpc.RpcError as exc:
        if exc.code() != grpc.StatusCode.UNAVAILABLE:
            raise
        first = exc
    try:
        return stub.Upsert(req, timeout=bounded_timeout(context, RECONNECT_WAIT_S), wait_for_ready=True)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            raise first from exc  # still down after the wait: report why it was unavailable
        raise


def upsert_batch(stubs: StageStubs, executor: ThreadPoolExecutor, docs: list[common_pb2.Document],
                 totals: IngestTotals, context: HasTimeRemaining | None = None) -> None:
    """Write one validated batch to both backends in parallel; any leg failure aborts the stream."""
    req = common_pb2.UpsertRequest(documents=docs)
    futures = {leg: executor.submit(_upsert, stubs.retriever(leg), req, context) for leg in LEGS}
    results: dict[str, common_pb2.UpsertResponse] = {}
    failures: list[str] = []
    for leg, fut in futures.items():
        try:
            results[leg] = fut.result()
        except grpc.RpcError as exc:
            failures.append(f"{leg}: {exc.code().name} {exc.details()}")
    if failures:
        raise ConnectionError("; ".join(failures))
    totals.received += len(docs)
    for leg, resp in results.items():
        totals.per_backend[leg] += resp.indexed
    totals.indexed += max(r.indexed for r in results.values())
    totals.unchanged += min(r.unchanged for r in results.values())
