"""RerankService: RerankRequest -> :func:`services.rerank.chain.rerank` -> RerankResponse.

Wiring only. A bad ``mode`` or parameter is INVALID_ARGUMENT naming the field; a chain
that needs the cross-encoder when no local model is configured is FAILED_PRECONDITION
(the request is fine, the server is not set up for it). ``params.model_path`` is honoured
only when the server was started with ``allow_request_model_path=True`` (benchmarks
comparing two rerankers); otherwise a client could make the server load arbitrary paths.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import grpc

from chsr.config import ModelRuntime
from chsr.documents import Doc
from chsr.errors import InvalidArgument
from chsr.scope import Scope
from chsr.v1 import common_pb2, rerank_pb2, rerank_pb2_grpc
from services.rerank.chain import RerankStage, parse_chain, rerank
from services.rerank.cross_encoder import CE_BATCH_SIZE, CE_MAX_LENGTH, CrossEncoderScorer, check_model_dir
from services.rerank.items import RerankItem
from services.rerank.onnx_cross_encoder import OnnxCrossEncoderScorer
from services.rerank.params import RerankParams

log = logging.getLogger(__name__)


class RerankServicer(rerank_pb2_grpc.RerankServiceServicer):
    def __init__(self, cross_encoder_path: str | Path | None = None, *, allow_request_model_path: bool = False,
                 max_length: int = CE_MAX_LENGTH, batch_size: int = CE_BATCH_SIZE, device: str | None = None,
                 runtime: ModelRuntime = ModelRuntime.TORCH, cache_dir: str | Path | None = None) -> None:
        runtime = ModelRuntime(runtime)
        if runtime is ModelRuntime.ONNX_INT8 and cache_dir is None:
            raise ValueError("cache_dir: required for the onnx-int8 cross-encoder runtime")
        self._default_path = str(cross_encoder_path) if cross_encoder_path else ""
        self._allow_request_path = allow_request_model_path
        self._runtime = runtime
        self._cache_dir = Path(cache_dir) if cache_dir else None
        self._scorer_kwargs = {"max_length": max_length, "batch_size": batch_size, "device": device}
        self._scorers: dict[str, CrossEncoderScorer | OnnxCrossEncoderScorer] = {}
        self._lock = threading.Lock()

    def scorer(self, path: str) -> CrossEncoderScorer | OnnxCrossEncoderScorer:
        """The (cached, lazily loaded) scorer for a model directory; validates the directory."""
        check_model_dir(path)
        with self._lock:
            if path not in self._scorers:
                if self._runtime is ModelRuntime.ONNX_INT8:
                    assert self._cache_dir is not None
                    self._scorers[path] = OnnxCrossEncoderScorer(path, self._cache_dir, **self._scorer_kwargs)  # type: ignore[arg-type]
                else:
                    self._scorers[path] = CrossEncoderScorer(path, **self._scorer_kwargs)  # type: ignore[arg-type]
            return self._scorers[path]

    def warm_up(self) -> None:
        """Load the configured model now (server start) instead of on the first request."""
        if self._default_path:
            self.scorer(self._default_path).ensure_loaded()

    def Rerank(self, request: rerank_pb2.RerankRequest, context: grpc.ServicerContext) -> rerank_pb2.RerankResponse:
        stages = parse_chain(request.mode)
        params = RerankParams.from_mapping(dict(request.params))
        if request.k < 0:
            raise InvalidArgument("k", f"must be >= 0 (0 = all), got {request.k}")
        if params.model_path and not self._allow_request_path and params.model_path != self._default_path:
            raise InvalidArgument("params.model_path", "per-request model paths are disabled on this server; "
                                                       "configure CHSR_CROSS_ENCODER_PATH instead")
        scope = Scope.from_proto(request.scope)
        items, protos = _read_candidates(request)
        scorer = None
        if RerankStage.CROSS_ENCODER in stages and params.ce_weight > 0:  # weight 0 scores nothing
            scorer = self.scorer(params.model_path or self._default_path)
        out = rerank(request.query, items, scope, stages, request.k, params, cross_encoder=scorer)
        candidates = []
        for rank, item in enumerate(out.items, start=1):
            cand = common_pb2.Candidate(doc_id=item.doc_id, score=item.score, rank=rank, features=item.features)
            if item.doc_id in protos:
                cand.document.CopyFrom(protos[item.doc_id])
            candidates.append(cand)
        return rerank_pb2.RerankResponse(candidates=candidates, removed_duplicates=out.removed_duplicates,
                                         telemetry=out.telemetry)


def _read_candidates(request: rerank_pb2.RerankRequest) -> tuple[list[RerankItem], dict[str, common_pb2.Document]]:
    """Items in request order (repeated ids keep the first) and the original Document messages."""
    items: list[RerankItem] = []
    protos: dict[str, common_pb2.Document] = {}
    seen: set[str] = set()
    for i, cand in enumerate(request.candidates):
        if not cand.doc_id:
            raise InvalidArgument(f"candidates[{i}].doc_id", "empty")
        if cand.doc_id in seen:
            continue
        seen.add(cand.doc_id)
        doc = Doc.from_proto(cand.document) if cand.HasField("document") else None
        if doc is not None:
            protos[cand.doc_id] = cand.document
        items.append(RerankItem(cand.doc_id, float(cand.score), doc, dict(cand.features)))
    return items, protos
