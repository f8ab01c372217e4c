"""The gate's scope extractor as ``read_scope``, over gRPC.

Services never import each other (docs/decisions.md, 1), so the ingest server reads a cover
page the way the gateway reads a query: ``GateService.Gate`` with ``extract=true`` and no
hints. The answer's scope and per-field confidence become phase 1's
:class:`services.ingest.metadata.ScopeReading` values; ``resolve_metadata`` keeps only readings
at or above the gate's hard tier (0.7). ``question_number`` is a per-chunk field and is not
taken from a cover. A failing call raises; ``resolve_metadata`` turns that into a warning and
the file still ingests with the fields the other sources give.
"""

from __future__ import annotations

from typing import Any

import grpc

from chsr.errors import from_rpc_error
from chsr.scope import SCOPE_FIELDS
from chsr.v1 import gate_pb2, gate_pb2_grpc
from services.ingest.metadata import ScopeReading

GATE_TIMEOUT_S = 5.0
SKIPPED = ("question_number",)


class GateScopeReader:
    """``reader(text) -> {field: ScopeReading}`` backed by a ``GateServiceStub``."""

    def __init__(self, stub: gate_pb2_grpc.GateServiceStub, max_chars: int, timeout_s: float = GATE_TIMEOUT_S) -> None:
        self._stub = stub
        self._max_chars = max_chars
        self._timeout_s = timeout_s

    def __call__(self, text: str) -> dict[str, Any]:
        query = text.replace("\x00", " ")[:self._max_chars]
        try:
            resp = self._stub.Gate(gate_pb2.GateRequest(query=query, extract=True), timeout=self._timeout_s)
        except grpc.RpcError as exc:
            raise from_rpc_error(exc, "gate") from exc
        confidence = {c.field: (c.confidence, c.evidence) for c in resp.confidence}
        out: dict[str, Any] = {}
        for name in SCOPE_FIELDS:
            values = tuple(getattr(resp.scope, name))
            if not values or name in SKIPPED:
                continue
            conf, evidence = confidence.get(name, (None, ""))
            out[name] = ScopeReading(values, conf, evidence)
        return out
