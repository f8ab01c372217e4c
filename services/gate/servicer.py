"""gRPC servicer for ``chsr.v1.GateService``: proto <-> :func:`run_gate`.

Thin on purpose (STYLE.md: a query's path reads gateway -> client call ->
server wiring -> logic module). The same class is called in-process by the
benchmark through ``chsr.inprocess.InProcessStub``.
"""

from __future__ import annotations

import logging

import grpc

from chsr.scope import Scope
from chsr.v1 import common_pb2, gate_pb2, gate_pb2_grpc
from services.gate.logic import GateInputError, GateResult, run_gate
from services.gate.vocabulary import Vocabulary

log = logging.getLogger(__name__)
#: Default cap on query length; the server passes ``Settings.max_query_chars``.
DEFAULT_MAX_QUERY_CHARS = 2000


class GateServicer(gate_pb2_grpc.GateServiceServicer):
    def __init__(self, vocab: Vocabulary | None = None, *, max_query_chars: int = DEFAULT_MAX_QUERY_CHARS) -> None:
        self.vocab = (vocab if vocab is not None else Vocabulary.from_env()).warm_up()
        self.max_query_chars = max_query_chars
        log.info("gate vocabulary loaded (corpus index: %s)", self.vocab.has_corpus)

    def Gate(self, request: gate_pb2.GateRequest, context: grpc.ServicerContext) -> gate_pb2.GateResponse:
        if len(request.query) > self.max_query_chars:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"query: longer than {self.max_query_chars} characters")
        try:
            hints = Scope.from_proto(request.hints if request.HasField("hints") else None)
            result = run_gate(
                request.query, hints, extract=request.extract, strict_scope=request.strict_scope,
                expand_query=request.expand_query, vocab=self.vocab,
            )
        except GateInputError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"{exc.field}: {exc.message}")
            raise  # unreachable: abort raises
        return to_response(result)


def to_response(result: GateResult) -> gate_pb2.GateResponse:
    return gate_pb2.GateResponse(
        scope=result.scope.to_proto(),
        confidence=[
            common_pb2.FieldConfidence(field=name, confidence=conf, evidence=evidence)
            for name, (conf, evidence) in sorted(result.confidence.items())
        ],
        ladder=[rung.to_proto() for rung in result.ladder],
        strict_keys=list(result.strict_keys),
        expanded_query=result.expanded_query,
        topic_terms=list(result.topic_terms),
    )
