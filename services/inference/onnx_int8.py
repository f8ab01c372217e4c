"""Shared ONNX int8 plumbing for the BERT-style models we serve on ONNX Runtime.

Used by the query encoder (:mod:`services.dense.onnx_encoder`) and the cross-encoder
(:mod:`services.rerank.onnx_cross_encoder`): export a torch module that takes the three BERT
inputs with ``torch.onnx.export`` (dynamic batch and token axes), quantise it with ONNX
Runtime's dynamic quantisation (per-channel int8 weights: per-tensor int8 moved embeddings to
cosine ~0.92-0.97 of fp32 on our probes, per-channel to ~0.99), and turn tokenizer output into
ONNX Runtime feeds.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

log = logging.getLogger(__name__)
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def export_quantized(module: Any, sample: Mapping[str, Any], out_dir: Path, stem: str, output: str,
                     keep_fp32: bool = False) -> Path:
    """``out_dir/<stem>-int8.onnx`` from ``module`` (traced on ``sample``, a tokenizer's tensors)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out_dir.mkdir(parents=True, exist_ok=True)
    fp32, int8 = out_dir / f"{stem}-fp32.onnx", out_dir / f"{stem}-int8.onnx"
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS} | {output: {0: "batch"}}
    torch.onnx.export(module, tuple(sample[n] for n in INPUTS), str(fp32), input_names=list(INPUTS),
                      output_names=[output], dynamic_axes=axes, opset_version=17, dynamo=False)
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
    if not keep_fp32:
        fp32.unlink(missing_ok=True)
    log.info("exported int8 model", extra={"path": str(int8)})
    return int8


def session(path: Path, threads: int) -> Any:
    """A CPU inference session with ``threads`` intra-op threads that sleep between runs: by default
    ONNX Runtime's pool spins after each run, stealing the cores the next request's stages need."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def feeds(encodings: Sequence[Any]) -> dict[str, np.ndarray]:
    """ONNX Runtime inputs from a padded ``tokenizers`` batch."""
    return {
        "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
    }
