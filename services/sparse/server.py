"""gRPC wiring for the sparse (BM25) service."""

from __future__ import annotations

from chsr.config import Settings
from chsr.service_main import run_service
from chsr.v1 import sparse_pb2, sparse_pb2_grpc
from services.sparse.servicer import SparseServicer

SERVICE_NAME = sparse_pb2.DESCRIPTOR.services_by_name["SparseService"].full_name


def build_servicer(settings: Settings) -> SparseServicer:
    if settings.backend == "engines":
        from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend
        return SparseServicer(ElasticsearchSparseBackend.from_settings(settings))
    from services.sparse.backends.embedded import EmbeddedSparseBackend
    return SparseServicer(EmbeddedSparseBackend(settings.data_dir))


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = build_servicer(settings)

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        sparse_pb2_grpc.add_SparseServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    return register, servicer.backend.close


def main() -> None:
    run_service("sparse", build)


if __name__ == "__main__":
    main()
