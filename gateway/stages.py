"""The gateway's view of the five stages: one stub per service.

A stub is either a gRPC stub over a shared channel or an
:class:`~chsr.inprocess.InProcessStub` around the same servicer class, so the
benchmark can run the identical pipeline with and without the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chsr.channels import get_channel
from chsr.config import Settings
from chsr.v1 import dense_pb2_grpc, fusion_pb2_grpc, gate_pb2_grpc, rerank_pb2_grpc, sparse_pb2_grpc


@dataclass
class StageStubs:
    gate: Any
    sparse: Any
    dense: Any
    fusion: Any
    rerank: Any

    @classmethod
    def grpc(cls, settings: Settings) -> "StageStubs":
        return cls(
            gate=gate_pb2_grpc.GateServiceStub(get_channel(settings.gate_addr, settings)),
            sparse=sparse_pb2_grpc.SparseServiceStub(get_channel(settings.sparse_addr, settings)),
            dense=dense_pb2_grpc.DenseServiceStub(get_channel(settings.dense_addr, settings)),
            fusion=fusion_pb2_grpc.FusionServiceStub(get_channel(settings.fusion_addr, settings)),
            rerank=rerank_pb2_grpc.RerankServiceStub(get_channel(settings.rerank_addr, settings)),
        )

    def retriever(self, leg: str) -> Any:
        return {"sparse": self.sparse, "dense": self.dense}[leg]
