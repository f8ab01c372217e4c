"""gRPC wiring for the rerank server."""

from __future__ import annotations

import os

# torch's OpenMP threads busy-wait between calls; on a small shared box that burns a core per
# idle thread (dense CPU/query 150 ms -> 35 ms with PASSIVE). Must be set before torch loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from chsr.config import Settings
from chsr.server import run_service
from chsr.v1 import rerank_pb2, rerank_pb2_grpc
from services.rerank.servicer import RerankServicer


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = RerankServicer(cross_encoder_path=settings.cross_encoder_path or None,
                              runtime=settings.cross_encoder_runtime, cache_dir=settings.cache_dir,
                              max_length=settings.cross_encoder_max_length)

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        rerank_pb2_grpc.add_RerankServiceServicer_to_server(servicer, server)
        return [rerank_pb2.DESCRIPTOR.services_by_name["RerankService"].full_name]

    return register, None


def main() -> None:
    run_service("rerank", build)


if __name__ == "__main__":
    main()
