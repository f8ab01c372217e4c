"""Encoder levers: query micro-batching and an ONNX Runtime int8 encoder.

Query encoding dominates a search's CPU. Measured here in-process, on the
encoder alone, at several concurrencies:

* ``torch``: one forward pass per query (the dense service with
  ``CHSR_QUERY_MICROBATCH=0``; the encoder's lock serialises passes);
* ``torch+microbatch``: :class:`services.dense.batcher.MicroBatcher`, the default;
* ``onnx-int8`` / ``onnx-int8+microbatch``: :mod:`services.dense.onnx_encoder`;
* ``..., 1 torch thread``: the same with ``torch.set_num_threads(1)``. On a
  2-core machine shared with other work, torch's default two intra-op threads
  spin against each other and the neighbours; one thread can be much faster.

The quality cost is nDCG@10 of dense-only retrieval on the demo corpus and
qrels (data/demo): fp32 queries and documents, int8 queries over fp32 document
vectors (a query-side drop-in: no re-index), and int8 on both sides.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Callable

import numpy as np

from tools.bench.driver import ClosedLoop, Sample
from services.dense.onnx_encoder import OnnxEncoder, export_int8, onnx_available
from tools.bench.stats import summarise
from tools.corpus import read_corpus
from chsr.config import Settings
from services.inference.model_files import resolve_model_path
from tools.demo import DEMO_DIR

log = logging.getLogger(__name__)
DEMO = DEMO_DIR
EncodeOne = Callable[[str], np.ndarray]


def encoder_run(encode: EncodeOne, queries: list[str], concurrency: int, duration_s: float) -> dict[str, object]:
    import time

    def call(worker: int, seq: int) -> Sample:
        start = time.monotonic()
        encode(queries[seq % len(queries)])
        return Sample(worker, start, time.monotonic(), "OK")

    loop = ClosedLoop(call, concurrency, duration_s, max_requests=100_000)
    samples = loop.run()
    stats = summarise(samples, time.monotonic() - loop.started_at)
    return {"qps": stats["qps"], "latency_ms": stats["latency_ms"], "requests": stats["requests"]}


def _variants(settings: Settings, onnx_dir: Path | None) -> tuple[dict[str, EncodeOne], dict[str, object]]:
    from services.dense.batcher import MicroBatcher
    from services.dense.encoder import Encoder

    model_path = resolve_model_path(settings.model_path)
    torch_enc = Encoder(model_path, None, settings.encode_batch_size)
    batcher = MicroBatcher(torch_enc.encode_queries)
    variants: dict[str, EncodeOne] = {
        "torch": lambda q: torch_enc.encode_queries([q])[0],
        "torch+microbatch": lambda q: batcher.encode(q, timeout=60),
    }
    extras: dict[str, object] = {"torch_encoder": torch_enc, "model_path": model_path}
    if onnx_dir is not None:
        onnx_enc = OnnxEncoder(export_int8(model_path, onnx_dir), model_path)
        onnx_batcher = MicroBatcher(onnx_enc.encode_queries)
        variants["onnx-int8"] = lambda q: onnx_enc.encode_queries([q])[0]
        variants["onnx-int8+microbatch"] = lambda q: onnx_batcher.encode(q, timeout=60)
        extras["onnx_encoder"] = onnx_enc
    return variants, extras


def _dense_ndcg(query_vecs: np.ndarray, qids: list[str], doc_vecs: np.ndarray, doc_ids: list[str],
                qrels: dict[str, dict[str, int]]) -> float:
    from tools.eval.metrics import ndcg

    scores = query_vecs @ doc_vecs.T
    run = {}
    for row, qid in enumerate(qids):
        top = np.argsort(-scores[row])[:100]
        run[qid] = {doc_ids[i]: float(scores[row, i]) for i in top}
    return round(ndcg(qrels, run, 10), 4)


def ndcg_cost(torch_enc, onnx_enc) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Dense-only nDCG@10 on the demo qrels for fp32 / int8-query / int8-both."""
    from tools.eval.beir import load_qrels

    docs = read_corpus(DEMO / "corpus.jsonl")
    doc_ids, texts = [d.id for d in docs], [d.full_text for d in docs]
    queries = [json.loads(line) for line in (DEMO / "queries.jsonl").read_text().splitlines() if line.strip()]
    qids, qtexts = [str(q["_id"]) for q in queries], [q["text"] for q in queries]
    qrels = load_qrels(DEMO / "qrels.tsv")
    d32 = torch_enc.encode_documents(texts)[0]
    q32 = torch_enc.encode_queries(qtexts)
    q8 = onnx_enc.encode_queries(qtexts)
    d8 = np.concatenate([onnx_enc.encode_queries(texts[i:i + 32]) for i in range(0, len(texts), 32)])
    return {
        "queries": len(qids), "documents": len(doc_ids),
        "ndcg@10": {"fp32": _dense_ndcg(q32, qids, d32, doc_ids, qrels),
                    "int8_queries_fp32_docs": _dense_ndcg(q8, qids, d32, doc_ids, qrels),
                    "int8_both": _dense_ndcg(q8, qids, d8, doc_ids, qrels)},
        "query_cosine_fp32_vs_int8": {"mean": round(float((q8 * q32).sum(1).mean()), 4),
                                      "min": round(float((q8 * q32).sum(1).min()), 4)},
    }


def encoder_levers(settings: Settings, queries: list[str], concurrency: list[int], duration_s: float,
                   onnx: bool = True) -> dict[str, object]:
    onnx_dir: Path | None = None
    report: dict[str, object] = {"concurrency": concurrency, "duration_s": duration_s}
    if onnx and onnx_available():
        onnx_dir = settings.cache_dir.parent / "onnx"
    elif onnx:
        report["onnx"] = "unavailable: pip install onnxruntime onnx"
    variants, extras = _variants(settings, onnx_dir)
    import torch

    default_threads = torch.get_num_threads()
    report["torch_threads_default"] = default_threads
    results: dict[str, dict[str, object]] = {}
    for threads in dict.fromkeys((default_threads, 1)):
        torch.set_num_threads(threads)
        for name, fn in variants.items():
            if threads != default_threads and not name.startswith("torch"):
                continue
            fn(queries[0])  # warm up (first passes allocate)
            label = name if threads == default_threads else f"{name}, 1 torch thread"
            results[label] = {str(c): encoder_run(fn, queries, c, duration_s) for c in concurrency}
    torch.set_num_threads(default_threads)
    report["encoders"] = results
    if "onnx_encoder" in extras:
        report["quality"] = ndcg_cost(extras["torch_encoder"], extras["onnx_encoder"])
    return report
