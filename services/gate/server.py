"""gRPC wiring for the gate service (scope extraction + admissibility filter + ladder)."""

from __future__ import annotations

from chsr.config import Settings
from chsr.service_main import run_service
from chsr.v1 import gate_pb2, gate_pb2_grpc
from services.gate.servicer import GateServicer
from services.gate.vocabulary import Vocabulary

SERVICE_NAME = gate_pb2.DESCRIPTOR.services_by_name["GateService"].full_name


def build(settings: Settings):  # type: ignore[no-untyped-def]
    # CHSR_VOCABULARY_PATH: a corpus-derived vocabulary (.json) or a corpus (.jsonl) indexed at start-up;
    # default: the bundled vocabulary + the demo corpus index.
    servicer = GateServicer(Vocabulary.from_env())

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        gate_pb2_grpc.add_GateServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    return register, None


def main() -> None:
    run_service("gate", build)


if __name__ == "__main__":
    main()
