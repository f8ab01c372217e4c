"""gRPC wiring for the sparse (BM25) server: a RetrieverService over the configured backend."""

from __future__ import annotations

from chsr.config import Backend, Settings
from chsr.server import run_service
from services.retrieval.servicer import RetrieverServicer, register_retriever
from services.sparse.leg import SparseLeg


def build_leg(settings: Settings) -> SparseLeg:
    if settings.backend is Backend.ENGINES:
        from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend
        return SparseLeg(ElasticsearchSparseBackend.from_settings(settings))
    from services.sparse.backends.embedded import EmbeddedSparseBackend
    return SparseLeg(EmbeddedSparseBackend(settings.data_dir))


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = RetrieverServicer(build_leg(settings))

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_retriever(server, servicer)]

    return register, servicer.backend.close


def main() -> None:
    run_service("sparse", build)


if __name__ == "__main__":
    main()
