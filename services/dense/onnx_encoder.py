"""MiniLM query encoder on ONNX Runtime with int8 weights (the "expected lever").

The sentence-transformers model (BERT + mean pooling + L2 normalisation) is
exported once with ``torch.onnx.export`` (pooling and normalisation inside the
graph) and quantised with ONNX Runtime's dynamic quantisation, per-channel
int8 weights: per-tensor int8 moved embeddings to cosine ~0.92-0.97 of fp32
on our probes, per-channel to ~0.99, so per-channel is used. Files are cached
under ``<cache dir>/onnx/<model fingerprint>/``. Needs the ``onnxruntime`` and
``onnx`` packages (optional: the benchmark reports the lever as unavailable
without them).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

from services.inference.model_files import force_offline
from services.inference.onnx_int8 import export_quantized, feeds, session

log = logging.getLogger(__name__)
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length (sentence_bert_config.json)


def onnx_available() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in ("onnx", "onnxruntime"))


def export_onnx(model_path: Path, out_dir: Path, int8: bool) -> Path:
    """The fp32 ONNX graph (``int8=False``) or its int8 quantisation; both are exported together once."""
    quantized = export_int8(model_path, out_dir)
    if int8:
        return quantized
    fp32 = quantized.with_name("minilm-fp32.onnx")
    if not fp32.exists():  # an older cache kept only the int8 file: export both again
        quantized.unlink()
        export_int8(model_path, out_dir)
    return fp32


def export_int8(model_path: Path, out_dir: Path) -> Path:
    """Export fp32 ONNX and quantise it; returns the int8 model path (reused when present)."""
    int8 = out_dir / "minilm-int8.onnx"
    if int8.exists():
        return int8
    force_offline()
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_path))
    model = _pooled(AutoModel.from_pretrained(str(model_path)).eval())
    sample = tokenizer(["a short query", "a slightly longer second query"], padding=True, return_tensors="pt")
    return export_quantized(model, sample, out_dir, "minilm", "embedding", keep_fp32=True)


def _pooled(bert):  # type: ignore[no-untyped-def]
    """BERT -> mean pooling over the attention mask -> L2 normalisation (sentence-transformers)."""
    import torch

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    return Pooled().eval()


class OnnxEncoder:
    """``encode_queries`` with the same contract as :class:`services.dense.encoder.Encoder`."""

    def __init__(self, onnx_path: Path, tokenizer_dir: Path, threads: int = 1) -> None:
        from tokenizers import Tokenizer

        self._session = session(onnx_path, threads)
        self._tokenizer = Tokenizer.from_file(str(tokenizer_dir / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._lock = threading.Lock()

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:  # tokenizers' padding state is per object
            batch = self._tokenizer.encode_batch(list(texts))
        return np.asarray(self._session.run(None, feeds(batch))[0], dtype=np.float32)
