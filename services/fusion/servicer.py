"""FusionService: FuseRequest -> :func:`services.fusion.modes.fuse` -> FuseResponse.

Wiring only. Candidates keep the ``document`` their retriever attached (first list
that carried one wins) and their input ``features``, to which fusion adds per-list raw
score (``features["sparse"]``), rank (``sparse_rank``) and normalised score
(``sparse_norm``). CDF calibrators are loaded once from ``calibration_dir``
(``cdf_sparse.npz``, ``cdf_dense.npz``); a CDF mode without them falls back to
min-max and reports ``telemetry["cdf_missing"] = 1`` instead of failing.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from pathlib import Path

import grpc

from chsr.errors import InvalidArgument
from chsr.v1 import common_pb2, fusion_pb2, fusion_pb2_grpc
from services.fusion.calibration import Calibrator, load_calibrators
from services.fusion.modes import FusionMode, fuse
from services.fusion.params import FusionParams

log = logging.getLogger(__name__)
RELOAD_CHECK_S = 2.0


class FusionServicer(fusion_pb2_grpc.FusionServiceServicer):
    def __init__(self, calibration_dir: Path | None = None) -> None:
        self._calibration_dir = Path(calibration_dir) if calibration_dir else None
        self._lock = threading.Lock()
        self._calibrators: dict[str, Calibrator] = {}
        self._stamp: tuple = ()
        self._checked = 0.0
        self.reload_calibrators()

    def reload_calibrators(self) -> dict[str, Calibrator]:
        """(Re)read the calibration directory, e.g. after a re-index bumped the generation."""
        stamp = self._dir_stamp()
        loaded = load_calibrators(self._calibration_dir)
        with self._lock:
            self._calibrators, self._stamp = loaded, stamp
        return loaded

    def _dir_stamp(self) -> tuple:
        if self._calibration_dir is None or not self._calibration_dir.is_dir():
            return ()
        return tuple(sorted((p.name, p.stat().st_mtime_ns) for p in self._calibration_dir.glob("cdf_*.npz")))

    @property
    def calibrators(self) -> dict[str, Calibrator]:
        """Current calibrators; files rewritten by `chsr calibrate` are picked up within ~2 s."""
        now = time.monotonic()
        if now - self._checked > RELOAD_CHECK_S:
            self._checked = now
            if self._dir_stamp() != self._stamp:
                self.reload_calibrators()
        with self._lock:
            return dict(self._calibrators)

    def Fuse(self, request: fusion_pb2.FuseRequest, context: grpc.ServicerContext) -> fusion_pb2.FuseResponse:
        mode = FusionMode.from_str(request.mode or FusionMode.RRF.value)
        params = FusionParams.from_mapping(dict(request.params))
        if request.k < 0:
            raise InvalidArgument("k", f"must be >= 0 (0 = all), got {request.k}")
        lists, weights, carried = _read_lists(request)
        out = fuse(lists, mode, request.k, params, self.calibrators, weights=weights)
        candidates = []
        for rank, item in enumerate(out.items, start=1):
            document, features = carried.get(item.doc_id, (None, {}))
            merged = {**features, **item.features}
            cand = common_pb2.Candidate(doc_id=item.doc_id, score=item.score, rank=rank, features=merged)
            if document is not None:
                cand.document.CopyFrom(document)
            candidates.append(cand)
        return fusion_pb2.FuseResponse(candidates=candidates, telemetry=out.telemetry, normaliser=out.normaliser)


def _read_lists(request: fusion_pb2.FuseRequest) -> tuple[
        dict[str, list[tuple[str, float]]], dict[str, float],
        dict[str, tuple[common_pb2.Document | None, dict[str, float]]]]:
    """Lists as plain pairs, per-list weights (0 means 1) and each doc's document + features."""
    lists: dict[str, list[tuple[str, float]]] = {}
    weights: dict[str, float] = {}
    carried: dict[str, tuple[common_pb2.Document | None, dict[str, float]]] = {}
    for i, ranked in enumerate(request.lists):
        if not ranked.name:
            raise InvalidArgument(f"lists[{i}].name", "empty; name each list (sparse, dense, ...)")
        if ranked.name in lists:
            raise InvalidArgument(f"lists[{i}].name", f"duplicate list '{ranked.name}'")
        if not math.isfinite(ranked.weight) or ranked.weight < 0:
            raise InvalidArgument(f"lists[{i}].weight", f"expected a finite number >= 0, got {ranked.weight}")
        weights[ranked.name] = ranked.weight or 1.0
        pairs: list[tuple[str, float]] = []
        for cand in ranked.candidates:
            if not cand.doc_id:
                raise InvalidArgument(f"lists[{i}].candidates", "a candidate has an empty doc_id")
            pairs.append((cand.doc_id, cand.score))
            document, features = carried.get(cand.doc_id, (None, {}))
            if document is None and cand.HasField("document"):
                document = cand.document
            features = {**{k: v for k, v in cand.features.items() if math.isfinite(v)}, **features}
            carried[cand.doc_id] = (document, features)
        lists[ranked.name] = pairs
    return lists, weights, carried
