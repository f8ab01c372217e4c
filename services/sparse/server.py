"""gRPC wiring for the sparse (BM25) server: a RetrieverService over the configured backend."""

from __future__ import annotations

import logging

from chsr.config import Backend, Settings
from chsr.server import run_service
from services.retrieval.servicer import RetrieverServicer, register_retriever
from services.retrieval.backend import BackendUnavailable
from services.sparse.leg import SparseLeg

log = logging.getLogger(__name__)


def build_leg(settings: Settings) -> SparseLeg:
    if settings.backend is Backend.ENGINES:
        from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend
        backend = ElasticsearchSparseBackend.from_settings(settings)
        try:  # a layout the cluster cannot hold stops the server here (FailedPrecondition)
            backend.check()
        except BackendUnavailable as exc:  # engine down at start-up: serve degraded, index lazily
            log.warning("elasticsearch unreachable at start-up; will retry on first use", extra={"error": str(exc)})
        return SparseLeg(backend)
    from services.sparse.backends.embedded import EmbeddedSparseBackend
    embedded = EmbeddedSparseBackend(settings.data_dir)
    embedded.warm()  # the BM25 index before serving: else the first query's probe misses its deadline
    return SparseLeg(embedded)


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = RetrieverServicer(build_leg(settings))

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_retriever(server, servicer)]

    return register, servicer.backend.close


def main() -> None:
    run_service("sparse", build)


if __name__ == "__main__":
    main()
