"""Cross-encoder scoring over a wide pool, loaded from a LOCAL path.

Seed 003 reranks a 50-candidate pool *before* dedup (``cross_encoder_pool = 50``);
pairs are (query, title + text) truncated to 256 tokens, MiniLM's window. No weights
can be downloaded here, so the model is whatever ``chsr train-reranker`` saved
(:mod:`tools.train.reranker`) or another local sentence-transformers CrossEncoder
directory; hub ids are refused. Loading is lazy (first request) and guarded by a lock;
inference is serialised by the same lock because one forward pass already uses every
core, and parallel passes would only thrash the 2-core CPU.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chsr.errors import FailedPrecondition
from services.inference.model_files import force_offline

log = logging.getLogger(__name__)

CE_POOL = 50
CE_MAX_LENGTH = 256
CE_BATCH_SIZE = 32


class CrossEncoderUnavailable(FailedPrecondition):
    """No usable local cross-encoder (FAILED_PRECONDITION: the request is fine, the server is not set up)."""


def check_model_dir(path: str | Path | None) -> Path:
    """The model directory, or CrossEncoderUnavailable saying what is missing."""
    if not path:
        raise CrossEncoderUnavailable(
            "cross_encoder: no model path configured; train one with `chsr train-reranker` "
            "and set CHSR_CROSS_ENCODER_PATH to its output directory")
    model_dir = Path(path)
    if not (model_dir / "config.json").is_file():
        raise CrossEncoderUnavailable(
            f"cross_encoder: {model_dir} is not a local model directory (no config.json); "
            "hub downloads are disabled here -- train one with `chsr train-reranker`")
    return model_dir


class CrossEncoderScorer:
    """Thread-safe, lazily loaded ``sentence_transformers.CrossEncoder`` returning raw logits."""

    def __init__(self, model_path: str | Path | None, *, max_length: int = CE_MAX_LENGTH,
                 batch_size: int = CE_BATCH_SIZE, device: str | None = None) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.max_length = max_length
        self.batch_size = batch_size
        self.device = device
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        model_dir = check_model_dir(self.model_path)
        force_offline()
        from sentence_transformers import CrossEncoder  # heavy import only when used
        import torch

        started = time.perf_counter()
        model = CrossEncoder(str(model_dir), max_length=self.max_length, device=self.device,
                             local_files_only=True, activation_fn=torch.nn.Identity())
        log.info("loaded cross-encoder %s on %s in %.1fs", model_dir, model.device, time.perf_counter() - started)
        return model

    def ensure_loaded(self) -> None:
        with self._lock:
            if self._model is None:
                self._model = self._load()

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """One logit per text (higher = more relevant); empty input -> empty array."""
        if not texts:
            return np.zeros(0)
        with self._lock:
            if self._model is None:
                self._model = self._load()
            scores = self._model.predict([(query, t) for t in texts], batch_size=self.batch_size,
                                         show_progress_bar=False, convert_to_numpy=True)
        return np.asarray(scores, dtype=np.float64).reshape(-1)
