"""gRPC servicer for ``chsr.v1.GateService``: proto <-> :func:`run_gate`.

Thin on purpose: a query's path reads gateway -> client call -> server wiring -> logic
module. The same class is called in-process by the benchmark through
``chsr.inprocess.InProcessStub``. Errors are raised (``chsr.errors``), not mapped here.
"""

from __future__ import annotations

import logging

import grpc

from chsr.documents import METADATA_FIELDS
from chsr.limits import check_query
from chsr.scope import Scope
from chsr.v1 import common_pb2, gate_pb2, gate_pb2_grpc
from services.gate.evidence import EvidenceHit, EvidenceParams
from services.gate.logic import GateResult, run_gate
from services.gate.vocabulary import Vocabulary

log = logging.getLogger(__name__)
LABELS = {"gated": gate_pb2.SCOPE_LABEL_GATED, "ranked": gate_pb2.SCOPE_LABEL_RANKED,
          "ungated": gate_pb2.SCOPE_LABEL_UNGATED}


class GateServicer(gate_pb2_grpc.GateServiceServicer):
    def __init__(self, vocab: Vocabulary, *, max_query_chars: int, params: EvidenceParams | None = None) -> None:
        self.vocab = vocab.warm_up()
        self.max_query_chars = max_query_chars
        self.params = params if params is not None else EvidenceParams.load()
        log.info("gate vocabulary loaded (corpus index: %s)", self.vocab.has_corpus)

    def Gate(self, request: gate_pb2.GateRequest, context: grpc.ServicerContext) -> gate_pb2.GateResponse:
        check_query(request.query, self.max_query_chars)
        result = run_gate(
            request.query, Scope.from_proto(request.hints), extract=request.extract,
            strict_scope=request.strict_scope, expand_query=request.expand_query, vocab=self.vocab,
            probe=[probe_hit(h) for h in request.probe], params=self.params,
        )
        return to_response(result)


def probe_hit(msg: gate_pb2.ProbeHit) -> EvidenceHit:
    meta = {name: getattr(msg.metadata, name) if msg.metadata.HasField(name) else None for name in METADATA_FIELDS}
    return EvidenceHit(meta, float(msg.score), msg.leg, int(msg.rank))


def to_response(result: GateResult) -> gate_pb2.GateResponse:
    confidence = []
    for name, (conf, evidence) in sorted(result.confidence.items()):
        report = result.fields.get(name)
        confidence.append(common_pb2.FieldConfidence(
            field=name, confidence=conf, evidence=evidence, source=report.source if report else "stated",
            conflict=report.conflict if report else "", action=report.action if report else ""))
    return gate_pb2.GateResponse(
        scope=result.scope.to_proto(),
        confidence=confidence,
        ladder=[step.to_proto() for step in result.ladder],
        strict_keys=list(result.strict_keys),
        expanded_query=result.expanded_query,
        topic_terms=list(result.topic_terms),
        penalties=[gate_pb2.FieldPenalty(field=name, values=[str(v) for v in values], probability=p)
                   for name, (values, p) in sorted(result.penalties.items())],
        penalty_strength=result.penalty_strength,
        label=LABELS.get(result.label, gate_pb2.SCOPE_LABEL_UNSPECIFIED),
        notes=list(result.notes),
    )


def register_gate(server: grpc.Server, servicer: GateServicer) -> str:
    gate_pb2_grpc.add_GateServiceServicer_to_server(servicer, server)
    return gate_pb2.DESCRIPTOR.services_by_name["GateService"].full_name
