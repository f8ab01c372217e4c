"""gRPC wiring for the dense (vector) server: a RetrieverService and the EncoderService."""

from __future__ import annotations

import os

# torch's OpenMP threads busy-wait between calls; on a small shared box that burns a core per
# idle thread (dense CPU/query 150 ms -> 35 ms with PASSIVE). Must be set before torch loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import logging

from chsr.config import Backend, QueryEncoder, Settings
from chsr.server import run_service
from services.dense.encoder import Encoder
from services.dense.encoder_servicer import EncoderServicer, register_encoder
from services.dense.leg import DenseLeg, EncodeQueries
from services.inference.model_files import resolve_model_path
from services.retrieval.backend import BackendUnavailable
from services.retrieval.servicer import RetrieverServicer, register_retriever

log = logging.getLogger(__name__)


def query_encoder(settings: Settings, encoder: Encoder) -> EncodeQueries:
    """``CHSR_QUERY_ENCODER``: ``onnx-fp32`` (default: the same fp32 weights on ONNX Runtime, vectors equal
    to torch's within 2e-7 at half the CPU), ``onnx-int8`` (per-channel int8 weights, cheaper, vectors
    move slightly) or ``torch``. Documents stay torch fp32, so the index is the same for all three.
    Falls back to torch when the ``onnx`` extra is not installed."""
    choice = QueryEncoder(settings.query_encoder)
    if choice is QueryEncoder.TORCH:
        return encoder.encode_queries
    from services.dense.onnx_encoder import OnnxEncoder, export_onnx, onnx_available

    if not onnx_available():
        log.warning("%s requested but onnxruntime is not installed; using torch", choice.value)
        return encoder.encode_queries
    model_path = resolve_model_path(settings.model_path)
    onnx_path = export_onnx(model_path, settings.cache_dir / "onnx" / encoder.model_id.replace(":", "-"),
                            int8=choice is QueryEncoder.ONNX_INT8)
    return OnnxEncoder(onnx_path, model_path).encode_queries


def build_leg(settings: Settings) -> DenseLeg:
    encoder = Encoder(resolve_model_path(settings.model_path), settings.cache_dir, settings.encode_batch_size)
    encode_queries = query_encoder(settings, encoder)
    if settings.backend is Backend.ENGINES:
        from services.dense.backends.weaviate import WeaviateDenseBackend
        backend = WeaviateDenseBackend.from_settings(settings, encoder.dim)
        try:  # a replication factor the cluster cannot hold stops the server here (FailedPrecondition)
            backend.check()
        except BackendUnavailable as exc:  # engine down at start-up: serve degraded, create lazily
            log.warning("weaviate unreachable at start-up; will retry on first use", extra={"error": str(exc)})
    else:
        from services.dense.backends.embedded import EmbeddedDenseBackend
        backend = EmbeddedDenseBackend(settings.data_dir, encoder.dim, index=settings.dense_index,
                                       passages=settings.dense_passages)
        backend.warm()  # the vector index before serving, as the sparse server does
    return DenseLeg(backend, encoder, microbatch=settings.query_microbatch,
                    query_cache_size=settings.query_vector_cache, encode_queries=encode_queries,
                    query_encoder_name=query_encoder_name(settings))


def query_encoder_name(settings: Settings) -> str:
    """The query encoder this server really runs (an ONNX choice without onnxruntime runs torch)."""
    choice = QueryEncoder(settings.query_encoder)
    if choice is QueryEncoder.TORCH:
        return choice.value
    from services.dense.onnx_encoder import onnx_available

    return choice.value if onnx_available() else QueryEncoder.TORCH.value


def build(settings: Settings):  # type: ignore[no-untyped-def]
    leg = build_leg(settings)
    retriever = RetrieverServicer(leg)
    encoder = EncoderServicer(leg.encoder, leg.encode_queries)

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_retriever(server, retriever), register_encoder(server, encoder)]

    return register, leg.backend.close


def main() -> None:
    run_service("dense", build)


if __name__ == "__main__":
    main()
