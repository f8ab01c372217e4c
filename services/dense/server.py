"""gRPC wiring for the dense (vector) service."""

from __future__ import annotations

import os

# torch's OpenMP threads busy-wait between calls; on a small shared box that burns a core per
# idle thread (dense CPU/query 150 ms -> 35 ms with PASSIVE). Must be set before torch loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import logging

from chsr.config import Settings
from chsr.models import resolve_model_path
from chsr.service_main import run_service
from chsr.v1 import dense_pb2, dense_pb2_grpc
from services.dense.encoder import Encoder
from services.dense.servicer import DenseServicer

log = logging.getLogger(__name__)
SERVICE_NAME = dense_pb2.DESCRIPTOR.services_by_name["DenseService"].full_name


def query_encoder(settings: Settings, encoder: Encoder):  # type: ignore[no-untyped-def]
    """``CHSR_QUERY_ENCODER``: ``torch`` (default) or ``onnx-int8`` (ONNX Runtime, per-channel int8
    weights; documents stay torch fp32 so the index is unchanged). Falls back to torch when the
    ``onnx`` extra is not installed."""
    if settings.query_encoder == "torch":
        return encoder.encode_queries
    if settings.query_encoder != "onnx-int8":
        raise ValueError(f"query_encoder: unknown '{settings.query_encoder}'; valid: torch, onnx-int8")
    from services.dense.onnx_encoder import OnnxEncoder, export_int8, onnx_available

    if not onnx_available():
        log.warning("onnx-int8 requested but onnxruntime is not installed; using torch")
        return encoder.encode_queries
    model_path = resolve_model_path(settings.model_path)
    onnx_path = export_int8(model_path, settings.cache_dir / "onnx" / encoder.model_id.replace(":", "-"))
    return OnnxEncoder(onnx_path, model_path).encode_queries


def build_servicer(settings: Settings) -> DenseServicer:
    encoder = Encoder(resolve_model_path(settings.model_path), settings.cache_dir, settings.encode_batch_size)
    encode_queries = query_encoder(settings, encoder)
    if settings.backend == "engines":
        from services.dense.backends.weaviate import WeaviateDenseBackend
        return DenseServicer(WeaviateDenseBackend.from_settings(settings, encoder.dim), encoder,
                             microbatch=settings.query_microbatch, query_cache_size=settings.query_vector_cache,
                             encode_queries=encode_queries)
    from services.dense.backends.embedded import EmbeddedDenseBackend
    backend = EmbeddedDenseBackend(settings.data_dir, encoder.dim, index=settings.dense_index,
                                   passages=settings.dense_passages)
    return DenseServicer(backend, encoder, microbatch=settings.query_microbatch,
                         query_cache_size=settings.query_vector_cache, encode_queries=encode_queries)


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = build_servicer(settings)

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        dense_pb2_grpc.add_DenseServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    return register, servicer.backend.close


def main() -> None:
    run_service("dense", build)


if __name__ == "__main__":
    main()
