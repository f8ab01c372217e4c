"""gRPC wiring for the fusion server."""

from __future__ import annotations

from chsr.config import Settings
from chsr.server import run_service
from chsr.v1 import fusion_pb2, fusion_pb2_grpc
from services.fusion.servicer import FusionServicer


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = FusionServicer(calibration_dir=settings.data_dir / "calibration")

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        fusion_pb2_grpc.add_FusionServiceServicer_to_server(servicer, server)
        return [fusion_pb2.DESCRIPTOR.services_by_name["FusionService"].full_name]

    return register, None


def main() -> None:
    run_service("fusion", build)


if __name__ == "__main__":
    main()
