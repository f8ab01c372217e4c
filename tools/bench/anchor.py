"""The anchor of the load report (issue 22): what a user would call instead of the mesh.

One Weaviate hybrid query (BM25 and vector search fused inside Weaviate, one call) over the mesh's own
collection, the query encoded by the mesh's own encoder (the dense server's ``EncoderService``, so the
same model and runtime), timed per query in the same run and on the same queries as the mesh. The
report divides the mesh's C p95 by this call's p95.
"""

from __future__ import annotations

import time
from typing import Any

import grpc

from chsr.channels import channel_options
from chsr.config import Settings
from chsr.v1 import encoder_pb2, encoder_pb2_grpc
from tools.bench.driver import Call, Sample


#: Weaviate's hybrid weight of the vector side (0.5: BM25 and vector equally), the anchor's one setting.
ALPHA = 0.5


def hybrid_query(collection: Any, query: str, vector: list[float], k: int, alpha: float = ALPHA) -> Any:
    """The anchor's call: one Weaviate hybrid query (BM25 and vector fused inside Weaviate), ids only."""
    return collection.query.hybrid(query=query, vector=vector, alpha=alpha, limit=k, return_properties=["doc_id"])


class WeaviateHybrid:
    """Encode (the mesh's encoder) + ``collection.query.hybrid`` (Weaviate's own fusion), per query."""

    def __init__(self, dense_addr: str, settings: Settings, k: int, alpha: float = ALPHA) -> None:
        from services.dense.backends.weaviate import _host_port  # the mesh's own address parsing
        import weaviate
        from weaviate.connect import ConnectionParams

        http_host, http_port = _host_port(settings.weaviate_http.split(",")[0].strip())
        grpc_host, grpc_port = _host_port(settings.weaviate_grpc.split(",")[0].strip())
        self._client: Any = weaviate.WeaviateClient(connection_params=ConnectionParams.from_params(
            http_host, http_port, False, grpc_host, grpc_port, False))
        self._client.connect()
        self._collection = self._client.collections.get(settings.weaviate_collection)
        self._channel = grpc.insecure_channel(dense_addr, channel_options(settings))
        self._encoder = encoder_pb2_grpc.EncoderServiceStub(self._channel)
        self._k, self._alpha = k, alpha

    def search(self, query: str, timeout_s: float) -> int:
        resp = self._encoder.Encode(encoder_pb2.EncodeRequest(texts=[query], is_query=True), timeout=timeout_s)
        vector = list(resp.vectors[0].values)
        result = hybrid_query(self._collection, query, vector, self._k, self._alpha)
        return len(result.objects)

    def calls(self, queries: list[str], timeout_s: float) -> Call:
        def call(worker: int, seq: int) -> Sample:
            start = time.monotonic()
            try:
                n = self.search(queries[seq % len(queries)], timeout_s)
            except Exception as exc:  # noqa: BLE001 - a failed call is a sample with its error, never a crash
                return Sample(worker, start, time.monotonic(), type(exc).__name__, details=str(exc)[:200])
            return Sample(worker, start, time.monotonic(), "OK", results=n)

        return call

    def close(self) -> None:
        self._client.close()
        self._channel.close()
