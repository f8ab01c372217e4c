"""A small Python client for the gateway (used by the CLI, benchmarks and tests)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Iterator

import grpc

from chsr.channels import get_channel
from chsr.config import get_settings
from chsr.documents import Doc, DocumentError
from chsr.scope import Scope
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc


class GatewayClient:
    def __init__(self, address: str | None = None, token: str | None = None) -> None:
        settings = get_settings()
        self.address = address or settings.gateway
        self._stub = gateway_pb2_grpc.GatewayServiceStub(get_channel(self.address, settings))
        token = token if token is not None else settings.ingest_token
        self._auth = (("authorization", f"Bearer {token}"),) if token else ()

    def search(self, query: str, k: int = 10, pipeline: str = "", hints: dict[str, Any] | Scope | None = None,
               strict: bool = False, no_cache: bool = False, timeout: float = 30.0) -> gateway_pb2.SearchResponse:
        scope = hints if isinstance(hints, Scope) else Scope.from_dict(hints)
        req = gateway_pb2.SearchRequest(query=query, k=k, pipeline=pipeline, hints=scope.to_proto(),
                                        strict_scope=strict, no_cache=no_cache)
        return self._stub.Search(req, timeout=timeout)

    def ingest(self, docs: Iterable[Doc], batch_size: int = 64, on_batch=None,  # type: ignore[no-untyped-def]
               timeout: float | None = None) -> gateway_pb2.IngestSummary:
        """Stream ``docs`` in batches; ``on_batch(n)`` is called with the number of documents the
        gateway has just stored in every backend (its acknowledgement, not what was sent)."""
        def batches() -> Iterator[gateway_pb2.IngestBatch]:
            batch: list[common_pb2.Document] = []
            for doc in docs:
                batch.append(doc.to_proto())
                if len(batch) >= batch_size:
                    yield gateway_pb2.IngestBatch(documents=batch)
                    batch = []
            if batch:
                yield gateway_pb2.IngestBatch(documents=batch)

        stored = 0
        for progress in self._stub.IngestWithProgress(batches(), timeout=timeout, metadata=self._auth):
            if progress.HasField("summary"):
                return progress.summary
            if on_batch:
                on_batch(progress.received - stored)
            stored = progress.received
        raise RuntimeError("ingest: the gateway closed the stream without a summary")

    def stats(self) -> gateway_pb2.IndexStatsResponse:
        return self._stub.IndexStats(gateway_pb2.IndexStatsRequest(), timeout=30)

    def verify(self, expected_ids: list[str] | None = None) -> gateway_pb2.VerifyIndexResponse:
        return self._stub.VerifyIndex(gateway_pb2.VerifyIndexRequest(expected_ids=expected_ids or []), timeout=300)

    def pipelines(self) -> gateway_pb2.ListPipelinesResponse:
        return self._stub.ListPipelines(gateway_pb2.ListPipelinesRequest(), timeout=10)


def rpc_error_message(exc: grpc.RpcError) -> str:
    return f"{exc.code().name}: {exc.details()}"
