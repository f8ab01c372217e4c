"""``chsr.v1.IngestService``: a stream of files in, per-file progress, chunks and results out.

Proto <-> :func:`services.ingest.pipeline.ingest_file`; the per-file guarantee lives there
(a bad file is a ``FileResult.error``, never an exception). Here: the stream's framing
(:mod:`services.ingest.stream`), the manifest of the request, chunk batches sized under the
message limit, and the manifest paths that named no file, reported after the last file.
Protocol errors are raised (``chsr.errors``) and mapped by the interceptor.
"""

from __future__ import annotations

import logging
from typing import Iterable, Iterator

import grpc

from chsr.errors import InvalidArgument
from chsr.v1 import common_pb2, ingest_pb2, ingest_pb2_grpc
from services.ingest.chunking import ChunkingParams
from services.ingest.errors import IngestFileError
from services.ingest.manifest import Manifest, check_manifest, parse_manifest
from services.ingest.metadata import ScopeReader
from services.ingest.pipeline import FileResult, IngestLimits, ingest_file
from services.ingest.stream import OpenFile
from services.ingest.tokens import TokenCounter

log = logging.getLogger(__name__)
MAX_BATCH_DOCS = 500
#: A chunk batch uses at most this share of the message limit (the rest is headroom).
BATCH_SHARE = 0.5


def file_error(exc: IngestFileError) -> ingest_pb2.FileError:
    """The proto form: ``FileErrorReason.TOO_LARGE`` -> ``FILE_ERROR_REASON_TOO_LARGE``."""
    return ingest_pb2.FileError(file=exc.file, reason=ingest_pb2.FileErrorReason.Value(
        f"FILE_ERROR_REASON_{exc.reason.name}"), detail=exc.detail)


def parsed_file(result: FileResult) -> ingest_pb2.ParsedFile:
    if result.error is not None:
        return ingest_pb2.ParsedFile(file=result.source, error=file_error(result.error), warnings=result.warnings)
    meta = result.metadata
    out = ingest_pb2.ParsedFile(
        file=result.source, chunks=len(result.docs), role=result.role, pages=result.page_count or 0,
        title=result.title, warnings=result.warnings, unresolved=meta.unresolved if meta else [],
        parse_ms=result.timings.get("parse_s", 0.0) * 1000, chunk_ms=result.timings.get("chunk_s", 0.0) * 1000)
    for name, value in (meta.fields.items() if meta else ()):
        out.fields.add(field=name, value=str(value.value), source=value.source, evidence=value.evidence[:200])
    return out


def chunk_batches(source: str, docs: Iterable[common_pb2.Document], max_bytes: int) -> Iterator[ingest_pb2.ChunkBatch]:
    """The file's chunks in batches of at most :data:`MAX_BATCH_DOCS` and ``max_bytes``."""
    batch: list[common_pb2.Document] = []
    size = 0
    for doc in docs:
        n = doc.ByteSize() + 8
        if batch and (len(batch) >= MAX_BATCH_DOCS or size + n > max_bytes):
            yield ingest_pb2.ChunkBatch(file=source, documents=batch)
            batch, size = [], 0
        batch.append(doc)
        size += n
    if batch:
        yield ingest_pb2.ChunkBatch(file=source, documents=batch)


class IngestServicer(ingest_pb2_grpc.IngestServiceServicer):
    def __init__(self, counter: TokenCounter, params: ChunkingParams, read_scope: ScopeReader | None, *,
                 max_file_bytes: int, max_message_bytes: int) -> None:
        self.counter = counter
        self.params = params
        self.read_scope = read_scope
        self.limits = IngestLimits(max_bytes=max_file_bytes)
        self.batch_bytes = int(max_message_bytes * BATCH_SHARE)

    def ParseFiles(self, request_iterator: Iterator[ingest_pb2.ParseFilesRequest],
                   context: grpc.ServicerContext) -> Iterator[ingest_pb2.ParseFilesResponse]:
        manifest: Manifest | None = None
        seen: set[str] = set()
        current: OpenFile | None = None
        for position, req in enumerate(request_iterator):
            part = req.WhichOneof("part")
            if part == "options":
                if position:
                    raise InvalidArgument("options", "only as the first message of the stream")
                manifest = self._manifest(req.options)
            elif part == "header":
                if current is not None:
                    raise InvalidArgument("header", f"file {current.name!r} is still open (send its FileEnd first)")
                h = req.header
                current = OpenFile.start(h.name, h.media_type, h.size, dict(h.fields), self.limits.max_bytes, seen)
            elif part == "data":
                if current is None:
                    raise InvalidArgument("data", "file bytes before a FileHeader")
                current.add(req.data)
                yield ingest_pb2.ParseFilesResponse(progress=ingest_pb2.FileProgress(
                    file=current.name, stage=ingest_pb2.FILE_STAGE_RECEIVING, bytes=current.received))
            elif part == "end":
                if current is None:
                    raise InvalidArgument("end", "FileEnd without a FileHeader")
                yield from self._parse(current, req.end.sha256, manifest)
                seen.add(current.source)
                current = None
            else:
                raise InvalidArgument("part", "empty message (set options, header, data or end)")
        if current is not None:
            raise InvalidArgument("end", f"the stream ended inside file {current.name!r} (no FileEnd)")
        if manifest is not None:
            for exc in check_manifest(manifest, seen):
                yield ingest_pb2.ParseFilesResponse(file=ingest_pb2.ParsedFile(file=exc.file, error=file_error(exc)))

    def _manifest(self, options: ingest_pb2.IngestOptions) -> Manifest | None:
        if not options.manifest.strip():
            return None
        fmt = options.manifest_format.lower() or "yaml"
        if fmt not in ("yaml", "csv"):
            raise InvalidArgument("options.manifest_format", f"must be 'yaml' or 'csv', got {options.manifest_format!r}")
        try:
            return parse_manifest(options.manifest, fmt=fmt, source=options.manifest_name or "manifest")
        except IngestFileError as exc:
            raise InvalidArgument("options.manifest", f"{exc.file}: {exc.detail}") from None

    def _parse(self, opened: OpenFile, sha256: str, manifest: Manifest | None) -> Iterator[ingest_pb2.ParseFilesResponse]:
        try:
            data = opened.finish(sha256)
        except IngestFileError as exc:
            yield ingest_pb2.ParseFilesResponse(file=ingest_pb2.ParsedFile(file=exc.file, error=file_error(exc)))
            return
        result = ingest_file(opened.name, data, counter=self.counter, params=self.params,
                             media_type=opened.media_type, manifest=manifest, manifest_fields=opened.fields,
                             read_scope=self.read_scope, limits=self.limits)
        log.info("file parsed", extra={"file": result.source, "ok": result.ok, "chunks": len(result.docs),
                                       "reason": result.error.reason.value if result.error else ""})
        if result.ok:
            yield ingest_pb2.ParseFilesResponse(progress=ingest_pb2.FileProgress(
                file=opened.name, stage=ingest_pb2.FILE_STAGE_PARSED, bytes=opened.received, chunks=len(result.docs)))
            for batch in chunk_batches(result.source, (d.to_proto() for d in result.docs), self.batch_bytes):
                yield ingest_pb2.ParseFilesResponse(chunks=batch)
        yield ingest_pb2.ParseFilesResponse(file=parsed_file(result))


def register_ingest(server: grpc.Server, servicer: IngestServicer) -> str:
    ingest_pb2_grpc.add_IngestServiceServicer_to_server(servicer, server)
    return ingest_pb2.DESCRIPTOR.services_by_name["IngestService"].full_name
