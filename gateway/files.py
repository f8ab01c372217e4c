"""IngestFiles and DeleteSource: files through the ingest server into every retrieval backend.

One file at a time, in request order (issue 11, "Identity and updates" and "Bad input"):

1. the request stream is forwarded to ``IngestService.ParseFiles`` as it arrives (the two
   request messages are wire-identical), so the ingest server parses file k+1 while this
   writes file k;
2. a file's chunks are collected until its ``ParsedFile``; a refused file writes nothing;
3. what the servers hold for the file's source is listed (``ListIds`` by source, with
   content hashes) and the write is planned (:mod:`gateway.file_plan`): unchanged chunks are
   not sent (no re-embedding), new and changed ones are upserted to every server, and only
   then the stale ones are deleted from every server;
4. a failed upsert is rolled back: the file's new chunks are deleted again and the previous
   versions of its changed chunks (read before the write) are written back, so nothing is
   half-written and nothing already indexed is lost; the file's result says WRITE_FAILED
   and the next file goes on.

Upserts, deletes and the rollback are idempotent, so a rerun repairs what a failed rollback
(a backend down for good) left behind; ``chsr index verify`` names such a source.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import grpc

from chsr.deadline import HasTimeRemaining, bounded_timeout
from chsr.documents import Doc, DocumentError, validate_doc
from chsr.errors import InvalidArgument, Unavailable, from_rpc_error
from chsr.limits import MAX_RETRIEVE_K
from chsr.v1 import common_pb2, gateway_pb2, ingest_pb2, retriever_pb2
from gateway.file_plan import agreed_hashes, plan_ingest
from gateway.ingest import upsert_with_reconnect
from gateway.stubs import StageStubs

log = logging.getLogger(__name__)
PARSE_TIMEOUT_S = 3600.0     # the whole ParseFiles stream
LIST_TIMEOUT_S = 60.0
DELETE_TIMEOUT_S = 60.0
UPSERT_BATCH_DOCS = 64
UPSERT_BATCH_SHARE = 0.5     # of the message limit
DELETE_BATCH = 1000
FETCH_BATCH = 1000
WRITE_FAILED = ingest_pb2.FILE_ERROR_REASON_WRITE_FAILED


class WriteFailed(Exception):
    """A backend refused or could not take part of a file's write."""


@dataclass
class FileTotals:
    files: int = 0
    failed: int = 0
    chunks: int = 0
    written: int = 0
    unchanged: int = 0
    deleted: int = 0
    changed_index: bool = False

    def add(self, result: gateway_pb2.FileResult) -> None:
        self.files += 1
        self.failed += result.HasField("error")
        self.chunks += result.chunks
        self.written += result.written
        self.unchanged += result.unchanged
        self.deleted += result.deleted
        self.changed_index |= bool(result.written or result.deleted)


@dataclass
class _Writer:
    """Fan-out of one file's writes to every retrieval server."""

    stubs: StageStubs
    executor: ThreadPoolExecutor
    context: HasTimeRemaining | None
    batch_bytes: int
    log_lines: list[str] = field(default_factory=list)

    def each_server(self, call: Callable[[str, object], object]) -> dict[str, object]:
        """Run ``call(name, stub)`` on every server in parallel; WriteFailed naming each failure."""
        futures = {name: self.executor.submit(call, name, stub) for name, stub in self.stubs.servers.items()}
        results, failures = {}, []
        for name, fut in futures.items():
            try:
                results[name] = fut.result()
            except grpc.RpcError as exc:
                failures.append(f"{name}: {exc.code().name} {exc.details()}")
            except WriteFailed as exc:
                failures.append(f"{name}: {exc}")
        if failures:
            raise WriteFailed("; ".join(failures))
        return results

    def listing(self, source: str) -> dict[str, dict[str, str]]:
        """server -> {id: content hash} of ``source``'s chunks."""
        def one(name: str, stub) -> dict[str, str]:  # type: ignore[no-untyped-def]
            out: dict[str, str] = {}
            req = retriever_pb2.ListIdsRequest(page_size=5000, source=source, include_details=True)
            for page in stub.ListIds(req, timeout=bounded_timeout(self.context, LIST_TIMEOUT_S)):
                out.update(zip(page.doc_ids, page.content_hashes))
            return out
        return self.each_server(one)  # type: ignore[return-value]

    def batches(self, docs: Sequence[common_pb2.Document]) -> Iterator[list[common_pb2.Document]]:
        batch: list[common_pb2.Document] = []
        size = 0
        for doc in docs:
            n = doc.ByteSize() + 8
            if batch and (len(batch) >= UPSERT_BATCH_DOCS or size + n > self.batch_bytes):
                yield batch
                batch, size = [], 0
            batch.append(doc)
            size += n
        if batch:
            yield batch

    def upsert(self, docs: Sequence[common_pb2.Document]) -> None:
        for batch in self.batches(docs):
            req = retriever_pb2.UpsertRequest(documents=batch)

            def one(name: str, stub) -> None:  # type: ignore[no-untyped-def]
                resp = upsert_with_reconnect(stub, req, self.stubs.write_metadata, self.context)
                if resp.errors:
                    first = resp.errors[0]
                    raise WriteFailed(f"{len(resp.errors)} chunk(s) refused, e.g. {first.doc_id}: "
                                      f"{first.field}: {first.message}")
            self.each_server(one)

    def delete(self, ids: Sequence[str]) -> int:
        deleted = 0
        for start in range(0, len(ids), DELETE_BATCH):
            req = retriever_pb2.DeleteDocumentsRequest(doc_ids=ids[start:start + DELETE_BATCH])

            def one(name: str, stub) -> int:  # type: ignore[no-untyped-def]
                return stub.DeleteDocuments(req, timeout=bounded_timeout(self.context, DELETE_TIMEOUT_S),
                                            metadata=self.stubs.write_metadata).deleted
            deleted += max(self.each_server(one).values(), default=0)  # type: ignore[type-var]
        return deleted

    def fetch(self, ids: Sequence[str]) -> list[common_pb2.Document]:
        """The stored versions of ``ids``, from the first server that answers."""
        errors = []
        for name, stub in self.stubs.servers.items():
            try:
                out: list[common_pb2.Document] = []
                for start in range(0, len(ids), FETCH_BATCH):
                    req = retriever_pb2.GetDocumentsRequest(doc_ids=ids[start:start + min(FETCH_BATCH, MAX_RETRIEVE_K)])
                    out.extend(stub.GetDocuments(req, timeout=bounded_timeout(self.context, LIST_TIMEOUT_S)).documents)
                return out
            except grpc.RpcError as exc:
                errors.append(f"{name}: {exc.code().name}")
        raise WriteFailed(f"could not read the previous version ({'; '.join(errors)})")


class FileIngest:
    """The IngestFiles flow for one request."""

    def __init__(self, stubs: StageStubs, executor: ThreadPoolExecutor, max_message_bytes: int,
                 on_index_change: Callable[[], None]) -> None:
        if stubs.ingest is None:
            raise Unavailable("ingest: no ingest server is configured (CHSR_INGEST_ADDR)")
        self._stubs = stubs
        self._executor = executor
        self._batch_bytes = int(max_message_bytes * UPSERT_BATCH_SHARE)
        self._on_index_change = on_index_change

    def run(self, requests: Iterator[gateway_pb2.IngestFilesRequest], context: grpc.ServicerContext,
            totals: FileTotals) -> Iterator[gateway_pb2.IngestFilesResponse]:
        writer = _Writer(self._stubs, self._executor, context, self._batch_bytes)
        # IngestFilesRequest and ParseFilesRequest have the same fields and numbers: re-parsing the
        # bytes is an exact copy without unpacking the oneof.
        forward = (ingest_pb2.ParseFilesRequest.FromString(r.SerializeToString()) for r in requests)
        pending: list[common_pb2.Document] = []
        try:
            for resp in self._stubs.ingest.ParseFiles(forward, timeout=bounded_timeout(context, PARSE_TIMEOUT_S)):
                event = resp.WhichOneof("event")
                if event == "progress":
                    yield gateway_pb2.IngestFilesResponse(progress=resp.progress)
                elif event == "chunks":
                    pending.extend(resp.chunks.documents)
                elif event == "file":
                    result = self.store(resp.file, pending, writer)
                    pending = []
                    totals.add(result)
                    if result.written or result.deleted:
                        self._on_index_change()
                    if not result.HasField("error"):
                        yield gateway_pb2.IngestFilesResponse(progress=ingest_pb2.FileProgress(
                            file=result.file, stage=ingest_pb2.FILE_STAGE_STORED, chunks=result.chunks))
                    yield gateway_pb2.IngestFilesResponse(file=result)
        except grpc.RpcError as exc:
            raise from_rpc_error(exc, "ingest") from exc

    def store(self, parsed: ingest_pb2.ParsedFile, chunks: Sequence[common_pb2.Document],
              writer: _Writer) -> gateway_pb2.FileResult:
        result = gateway_pb2.FileResult(file=parsed.file, fields=parsed.fields, unresolved=parsed.unresolved,
                                        warnings=parsed.warnings, role=parsed.role, pages=parsed.pages,
                                        title=parsed.title)
        if parsed.HasField("error"):
            result.error.CopyFrom(parsed.error)
            return result
        try:
            docs = [validate_doc(Doc.from_proto(c)) for c in chunks]
        except DocumentError as exc:  # the ingest server made a chunk the backends would refuse: a bug there
            return self._failed(result, ingest_pb2.FILE_ERROR_REASON_INTERNAL, f"invalid chunk from the ingest server: {exc}")
        if len(docs) != parsed.chunks or any(d.metadata.get("source") != parsed.file for d in docs):
            return self._failed(result, ingest_pb2.FILE_ERROR_REASON_INTERNAL,
                                f"the ingest server sent {len(docs)} chunks for {parsed.chunks} (or of another source)")
        try:
            previous = agreed_hashes(writer.listing(parsed.file))
            plan = plan_ingest(previous, [(d, d.content_hash()) for d in docs])
        except (WriteFailed, ValueError) as exc:
            return self._failed(result, WRITE_FAILED, f"could not read what the backends hold for it: {exc}; "
                                                      "nothing was written")
        by_id = {c.id: c for c in chunks}
        upsert = [by_id[d.id] for d in plan.upsert]
        if upsert:
            changed = [d.id for d in plan.upsert if d.id in previous]
            try:
                backup = writer.fetch(changed) if changed else []
            except WriteFailed as exc:
                return self._failed(result, WRITE_FAILED, f"{exc}; nothing was written")
            try:
                writer.upsert(upsert)
            except WriteFailed as exc:
                undo = self._rollback(writer, [d.id for d in plan.upsert if d.id not in previous], backup)
                return self._failed(result, WRITE_FAILED, f"a backend failed while its chunks were written ({exc}); "
                                                          f"{undo}. Rerun ingest when the backend is back")
        deleted = 0
        if plan.delete:
            try:
                writer.delete(plan.delete)
                deleted = len(plan.delete)
            except WriteFailed as exc:
                result.warnings.append(f"the new version is stored, but {len(plan.delete)} stale chunk(s) of the "
                                       f"previous one could not be deleted everywhere ({exc}); rerun ingest")
        result.chunks = len(docs)
        result.written = len(plan.upsert)
        result.unchanged = len(plan.unchanged)
        result.deleted = deleted
        result.chunk_ids.extend(d.id for d in docs)
        return result

    @staticmethod
    def _failed(result: gateway_pb2.FileResult, reason: int, detail: str) -> gateway_pb2.FileResult:
        result.error.CopyFrom(ingest_pb2.FileError(file=result.file, reason=reason, detail=detail))  # type: ignore[arg-type]
        log.warning("file not ingested", extra={"file": result.file, "detail": detail[:300]})
        return result

    @staticmethod
    def _rollback(writer: _Writer, new_ids: list[str], backup: list[common_pb2.Document]) -> str:
        """Undo a partial write: delete the file's new chunks, write back the previous versions."""
        problems = []
        if new_ids:
            try:
                writer.delete(new_ids)
            except WriteFailed as exc:
                problems.append(f"new chunks not removed everywhere ({exc})")
        if backup:
            try:
                writer.upsert(backup)
            except WriteFailed as exc:
                problems.append(f"previous version not restored everywhere ({exc})")
        if problems:
            return "rolling back was incomplete: " + "; ".join(problems) + " (chsr index verify names the source)"
        return "what was written was rolled back and the previous version is kept"


def delete_sources(stubs: StageStubs, executor: ThreadPoolExecutor, sources: Sequence[str],
                   context: HasTimeRemaining | None) -> list[tuple[str, int]]:
    """Delete every chunk of each source from every server; (source, chunks deleted) in order."""
    if not sources:
        raise InvalidArgument("sources", "must not be empty")
    for i, source in enumerate(sources):
        if not source.strip():
            raise InvalidArgument(f"sources[{i}]", "must not be blank")
    writer = _Writer(stubs, executor, context, 0)
    out = []
    try:
        for source in sources:
            ids = sorted(set().union(*(h.keys() for h in writer.listing(source).values())))
            out.append((source, writer.delete(ids) if ids else 0))
    except WriteFailed as exc:
        raise Unavailable(f"delete: {exc}; rerun (deletes are idempotent)") from exc
    return out

