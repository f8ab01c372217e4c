"""Cross-encoder scoring on ONNX Runtime with int8 weights (``CHSR_CROSS_ENCODER_RUNTIME=onnx-int8``).

The torch cross-encoder scores a 50-document pool at 256 tokens in ~3 s on this 2-core box,
far over the 400 ms p95 budget. This exports the same local model (a directory saved by
``chsr train-reranker``) once: ``AutoModelForSequenceClassification`` -> ``torch.onnx.export``
(logit of label 0 as the output) -> ONNX Runtime dynamic quantisation with per-channel int8
weights (as the query encoder in :mod:`services.dense.onnx_encoder`). Pairs are tokenised with
the model's own ``tokenizer.json`` and truncated ``longest_first`` to ``max_length``, as
sentence-transformers does. Files are cached under ``<cache dir>/onnx-ce/<fingerprint>/``, the
fingerprint covering the weight files' names, sizes and mtimes, so a model retrained in place is
re-exported.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from services.inference.model_files import force_offline, model_fingerprint
from services.inference.onnx_int8 import export_quantized, feeds, session
from services.rerank.cross_encoder import CE_BATCH_SIZE, CE_MAX_LENGTH, CrossEncoderUnavailable, check_model_dir

log = logging.getLogger(__name__)


def export_ce_int8(model_dir: Path, out_dir: Path) -> Path:
    """Export the cross-encoder to fp32 ONNX and quantise it; the int8 path (reused when present)."""
    int8 = out_dir / "cross-encoder-int8.onnx"
    if int8.exists():
        return int8
    force_offline()
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir), local_files_only=True).eval()

    class Logit(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).logits[:, 0]

    sample = tokenizer(["a query", "another query"], ["a passage of text", "a second, longer passage of text"],
                       padding=True, return_tensors="pt")
    return export_quantized(Logit().eval(), sample, out_dir, "cross-encoder", "logit")


class OnnxCrossEncoderScorer:
    """Same contract as :class:`services.rerank.cross_encoder.CrossEncoderScorer`: one logit per text."""

    def __init__(self, model_path: str | Path | None, cache_dir: Path, *, max_length: int = CE_MAX_LENGTH,
                 batch_size: int = CE_BATCH_SIZE, threads: int = 2, device: str | None = None) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.cache_dir = Path(cache_dir)
        self.max_length = max_length
        self.batch_size = batch_size
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> None:
        model_dir = check_model_dir(self.model_path)
        if not (model_dir / "tokenizer.json").is_file():
            raise CrossEncoderUnavailable(f"cross_encoder: {model_dir} has no tokenizer.json (a fast tokenizer "
                                          "is needed for the onnx-int8 runtime)")
        from tokenizers import Tokenizer

        started = time.perf_counter()
        export_dir = self.cache_dir / "onnx-ce" / model_fingerprint(model_dir, with_mtimes=True)
        path = export_ce_int8(model_dir, export_dir)
        self._session = session(path, self.threads)
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tokenizer.enable_truncation(self.max_length, strategy="longest_first")
        tokenizer.enable_padding()
        self._tokenizer = tokenizer
        log.info("loaded onnx-int8 cross-encoder %s in %.1fs", model_dir, time.perf_counter() - started)

    def ensure_loaded(self) -> None:
        with self._lock:
            if self._session is None:
                self._load()

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        out: list[np.ndarray] = []
        with self._lock:  # one inference at a time: a pass already uses every core
            if self._session is None:
                self._load()
            for start in range(0, len(texts), self.batch_size):
                batch = self._tokenizer.encode_batch([(query, t) for t in texts[start:start + self.batch_size]])
                out.append(np.asarray(self._session.run(None, feeds(batch))[0], dtype=np.float64).reshape(-1))
        return np.concatenate(out)
