"""BEIR training data shared by the trainers (cross-encoder, bi-encoder): loaders and hard negatives."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Sequence


def read_jsonl_by_id(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                obj = json.loads(line)
                out[str(obj["_id"])] = obj
    return out


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """BEIR qrels TSV (header ``query-id corpus-id score``) -> {qid: {doc_id: rel}}."""
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3 or (n == 0 and not parts[2].lstrip("-").isdigit()):
                continue
            qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return qrels


def mine_bm25_negatives(corpus_ids: Sequence[str], corpus_texts: Sequence[str], queries: dict[str, str],
                        positives: dict[str, set[str]], per_query: int, depth: int = 30,
                        seed: int = 42) -> dict[str, list[str]]:
    """Top-``depth`` BM25 hits that are not positives, best first; random fill if too few."""
    import bm25s

    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(list(corpus_texts), stopwords="en", show_progress=False), show_progress=False)
    qids = list(queries)
    query_tokens = bm25s.tokenize([queries[q] for q in qids], stopwords="en", return_ids=False, show_progress=False)
    hits, _ = retriever.retrieve(query_tokens, k=min(depth, len(corpus_ids)), show_progress=False)
    rng = random.Random(seed)
    negatives: dict[str, list[str]] = {}
    for row, qid in enumerate(qids):
        ranked = [corpus_ids[int(i)] for i in hits[row]]
        chosen = [d for d in ranked if d not in positives[qid]][:per_query]
        pool = [d for d in corpus_ids if d not in positives[qid] and d not in chosen]
        rng.shuffle(pool)
        negatives[qid] = chosen + pool[:per_query - len(chosen)]
    return negatives


def shuffled_batches(items: Sequence, batch_size: int, epochs: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """Minibatches of ``items`` in a fresh shuffled order each epoch (shared by the trainers)."""
    for _ in range(epochs):
        order = list(range(len(items)))
        rng.shuffle(order)
        for start in range(0, len(order), batch_size):
            yield [items[i] for i in order[start:start + batch_size]]


def optimizer_step(loss, model, optimizer, scheduler) -> float:  # type: ignore[no-untyped-def]
    """Backward, clip gradients at 1.0, step optimizer and schedule; returns the loss value."""
    import torch

    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    return float(loss.item())
