"""The gateway's view of the stages: one stub per service, one retriever stub per leg.

A stub is either a gRPC stub over a shared channel or an
:class:`~chsr.inprocess.InProcessStub` around the same servicer class, so the
benchmark can run the identical pipeline with and without the network. Searches go
to *legs* (a server and one of its models); writes, fetches, stats and verification go to
each retrieval *server* once; files go to the ingest server (``ingest``; ``None`` when a test
builds the stubs without one). Write calls carry the gateway's own credential
(:attr:`StageStubs.write_metadata`): every stage server guards its write RPCs like the
gateway does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chsr.channels import get_channel
from chsr.config import Settings
from chsr.errors import FailedPrecondition
from chsr.stages import KNOWN_LEGS, LEGS, UNAVAILABLE_LEGS, LegSpec
from chsr.v1 import fusion_pb2_grpc, gate_pb2_grpc, ingest_pb2_grpc, rerank_pb2_grpc, retriever_pb2_grpc


def bearer_metadata(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


@dataclass
class StageStubs:
    gate: Any
    fusion: Any
    rerank: Any
    servers: dict[str, Any]             # retrieval server name -> RetrieverService stub
    legs: dict[str, LegSpec] = field(default_factory=lambda: {leg: KNOWN_LEGS[leg] for leg in LEGS})
    write_metadata: tuple[tuple[str, str], ...] = field(default=())
    ingest: Any = None                  # IngestService stub

    @classmethod
    def grpc(cls, settings: Settings) -> "StageStubs":
        def channel(stage: str):  # type: ignore[no-untyped-def]
            return get_channel(settings.stage_addr(stage), settings)

        return cls(
            gate=gate_pb2_grpc.GateServiceStub(channel("gate")),
            fusion=fusion_pb2_grpc.FusionServiceStub(channel("fusion")),
            rerank=rerank_pb2_grpc.RerankServiceStub(channel("rerank")),
            servers={name: retriever_pb2_grpc.RetrieverServiceStub(channel(name))
                     for name in settings.retrieval_servers},
            legs={leg: KNOWN_LEGS[leg] for leg in settings.enabled_legs},
            write_metadata=bearer_metadata(settings.ingest_token),
            ingest=ingest_pb2_grpc.IngestServiceStub(channel("ingest")),
        )

    def unavailable_reason(self, leg: str) -> str:
        """Why leg ``leg`` cannot answer on this mesh ("" when it can)."""
        if leg in UNAVAILABLE_LEGS:
            return UNAVAILABLE_LEGS[leg]
        spec = self.legs.get(leg)
        if spec is None or spec.server not in self.servers:
            return (f"leg '{leg}' is not enabled on this mesh (CHSR_LEGS={','.join(self.legs)})"
                    + (f"; it needs the '{KNOWN_LEGS[leg].server}' server" if leg in KNOWN_LEGS else ""))
        return ""

    def leg(self, name: str) -> tuple[Any, str]:
        """The stub that answers leg ``name`` and the model to ask it for; FAILED_PRECONDITION when
        the leg is not enabled here (the request is valid, this mesh is not set up for it)."""
        reason = self.unavailable_reason(name)
        if reason:
            raise FailedPrecondition(reason)
        spec = self.legs[name]
        return self.servers[spec.server], spec.model

    def server(self, name: str) -> Any:
        return self.servers[name]
