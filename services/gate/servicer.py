"""gRPC servicer for ``chsr.v1.GateService``: proto <-> :func:`run_gate`.

Thin on purpose: a query's path reads gateway -> client call -> server wiring -> logic
module. The same class is called in-process by the benchmark through
``chsr.inprocess.InProcessStub``. Errors are raised (``chsr.errors``), not mapped here.
"""

from __future__ import annotations

import logging
import threading
import time

import grpc

from chsr.catalogue import entries_from_proto
from chsr.documents import metadata_from_proto
from chsr.limits import check_query
from chsr.scope import Scope
from chsr.v1 import common_pb2, gate_pb2, gate_pb2_grpc
from services.gate.corpus_vocabulary import build_vocabulary_from_catalogue
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
        self.catalogue_version = ""     # "" until the gateway sends a catalogue
        self._update_lock = threading.Lock()
        log.info("gate vocabulary loaded (corpus index: %s)", self.vocab.has_corpus)

    def Gate(self, request: gate_pb2.GateRequest, context: grpc.ServicerContext) -> gate_pb2.GateResponse:
        check_query(request.query, self.max_query_chars)
        vocab, version = self.vocab, self.catalogue_version  # one consistent pair per request
        result = run_gate(
            request.query, Scope.from_proto(request.hints), extract=request.extract,
            strict_scope=request.strict_scope, expand_query=request.expand_query, vocab=vocab,
            probe=[probe_hit(h) for h in request.probe], params=self.params,
        )
        response = to_response(result)
        response.catalogue_version = version
        return response

    def UpdateCatalogue(self, request: gate_pb2.UpdateCatalogueRequest,
                        context: grpc.ServicerContext) -> gate_pb2.UpdateCatalogueResponse:
        """Rebuild the corpus layer from the index's catalogue; requests keep the old one until the new
        one is compiled (one swap)."""
        entries = entries_from_proto(request.entries)
        documents = sum(e.count for e in entries)
        with self._update_lock:
            if request.version and request.version == self.catalogue_version:
                return gate_pb2.UpdateCatalogueResponse(version=self.catalogue_version, entries=len(entries),
                                                        documents=documents)
            start = time.perf_counter()
            layer = build_vocabulary_from_catalogue(entries) if entries else None
            vocab = Vocabulary(self.vocab.data, layer).warm_up()
            self.vocab, self.catalogue_version = vocab, request.version
        log.info("gate catalogue updated", extra={"version": request.version, "entries": len(entries),
                                                  "documents": documents,
                                                  "ms": round((time.perf_counter() - start) * 1000, 1)})
        return gate_pb2.UpdateCatalogueResponse(version=request.version, entries=len(entries), documents=documents)


def probe_hit(msg: gate_pb2.ProbeHit) -> EvidenceHit:
    meta = metadata_from_proto(msg.metadata)
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
        query_language=_language(result),
    )


def _language(result: GateResult) -> common_pb2.QueryLanguage | None:
    guess = result.query_language
    if guess is None:
        return None
    return common_pb2.QueryLanguage(code=guess.code, confidence=guess.confidence,
                                    requested=guess.requested, evidence=guess.evidence)


def register_gate(server: grpc.Server, servicer: GateServicer) -> str:
    gate_pb2_grpc.add_GateServiceServicer_to_server(servicer, server)
    return gate_pb2.DESCRIPTOR.services_by_name["GateService"].full_name
