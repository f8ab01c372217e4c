"""The gateway's view of the stages: one stub per service, one retriever stub per leg.

A stub is either a gRPC stub over a shared channel or an
:class:`~chsr.inprocess.InProcessStub` around the same servicer class, so the
benchmark can run the identical pipeline with and without the network. Write calls
to the retrievers carry the gateway's own credential (:attr:`StageStubs.write_metadata`):
every stage server guards its write RPCs like the gateway does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chsr.channels import get_channel
from chsr.config import Settings
from chsr.errors import InvalidArgument
from chsr.stages import LEGS
from chsr.v1 import fusion_pb2_grpc, gate_pb2_grpc, rerank_pb2_grpc, retriever_pb2_grpc


def bearer_metadata(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


@dataclass
class StageStubs:
    gate: Any
    fusion: Any
    rerank: Any
    retrievers: dict[str, Any]          # leg name -> RetrieverService stub, in LEGS order
    write_metadata: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def grpc(cls, settings: Settings) -> "StageStubs":
        def channel(stage: str):  # type: ignore[no-untyped-def]
            return get_channel(settings.stage_addr(stage), settings)

        return cls(
            gate=gate_pb2_grpc.GateServiceStub(channel("gate")),
            fusion=fusion_pb2_grpc.FusionServiceStub(channel("fusion")),
            rerank=rerank_pb2_grpc.RerankServiceStub(channel("rerank")),
            retrievers={leg: retriever_pb2_grpc.RetrieverServiceStub(channel(leg)) for leg in LEGS},
            write_metadata=bearer_metadata(settings.ingest_token),
        )

    @property
    def legs(self) -> tuple[str, ...]:
        return tuple(self.retrievers)

    def retriever(self, leg: str) -> Any:
        try:
            return self.retrievers[leg]
        except KeyError:
            raise InvalidArgument("pipeline", f"leg '{leg}' is not configured; configured: {', '.join(self.retrievers)}") from None
