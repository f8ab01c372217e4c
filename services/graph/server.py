"""gRPC wiring for the graph server: a RetrieverService over the knowledge-graph backend."""

from __future__ import annotations

from chsr.config import Settings
from chsr.server import run_service
from services.graph.backend import GraphBackend
from services.graph.leg import GraphLeg
from services.retrieval.servicer import RetrieverServicer, register_retriever


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = RetrieverServicer(GraphLeg(GraphBackend(settings.data_dir)))

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_retriever(server, servicer)]

    return register, servicer.backend.close


def main() -> None:
    run_service("graph", build)


if __name__ == "__main__":
    main()
