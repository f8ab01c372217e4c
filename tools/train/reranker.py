"""Fine-tune a local cross-encoder on BEIR train qrels with BM25 hard negatives.

Seeds 002/003 found web-trained (MS MARCO) cross-encoders hurt on scientific text, and
no weights can be downloaded here, so we train our own: a sentence-transformers
``CrossEncoder`` initialised from the bundled all-MiniLM-L6-v2 (``num_labels=1``, a fresh
linear head) on (query, positive) pairs from ``qrels/train.tsv`` and (query, negative)
pairs mined from the top BM25 hits that are not judged relevant (``bm25s`` with its
plain regex tokenizer and English stop words).

Why a plain PyTorch loop: sentence-transformers 6's ``CrossEncoderTrainer`` (and the
``fit`` wrapper over it) need the ``datasets`` and ``accelerate`` packages, which this
environment does not have. The loop below uses the library's own
``BinaryCrossEntropyLoss`` (BCE-with-logits, ``pos_weight`` = negatives per query so the
classes balance, as in the library's MS MARCO recipe), AdamW and a linear warm-up.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Mapping, Sequence

from services.inference.model_files import default_model_path, force_offline
from tools.train.training_data import (mine_bm25_negatives, optimizer_step, read_jsonl_by_id, read_qrels,
                                 shuffled_batches)

log = logging.getLogger(__name__)


@dataclass
class TrainResult:
    out_dir: str
    queries: int
    pairs: int
    steps: int
    epochs: int
    final_loss: float
    seconds: float


def holdout_ids(query_ids: "Sequence[str]", every: int, positives: "Mapping[str, set[str]] | None" = None) -> set[str]:
    """The train queries kept out of training so the blend weight can be tuned on queries the cross-encoder
    never saw (tools/eval/tune_rerank.py); ``every`` = 0: none.

    Without ``positives``: every ``every``-th query id in sorted order. With ``positives`` (query -> its judged
    documents): queries that share a judged document form one group (SciFact has many claims per abstract) and
    every ``every``-th group, in the order of its first id, is held out whole. Held out one by one, three in five
    of the held-out claims had an abstract the model was trained on as a positive, and the tuned weights
    overrated the model (held-out nDCG@10 0.65 for the cross-encoder alone, 0.46 on test)."""
    if every <= 0:
        return set()
    if positives is None:
        return {q for i, q in enumerate(sorted(query_ids)) if i % every == 0}
    return {q for i, group in enumerate(_shared_document_groups(query_ids, positives)) if i % every == 0 for q in group}


def _shared_document_groups(query_ids: "Sequence[str]", positives: "Mapping[str, set[str]]") -> list[list[str]]:
    """Connected components of queries linked by a shared judged document, each sorted, ordered by first id."""
    parent = {q: q for q in query_ids}

    def root(q: str) -> str:
        while parent[q] != q:
            parent[q] = parent[parent[q]]
            q = parent[q]
        return q

    first_by_doc: dict[str, str] = {}
    for q in sorted(query_ids):
        for d in sorted(positives.get(q, ())):
            if d in first_by_doc:
                parent[root(q)] = root(first_by_doc[d])
            else:
                first_by_doc[d] = q
    groups: dict[str, list[str]] = {}
    for q in sorted(query_ids):
        groups.setdefault(root(q), []).append(q)
    return sorted(groups.values(), key=lambda g: g[0])


def build_pairs(corpus_path: Path, queries_path: Path, qrels_path: Path, negatives_per_query: int,
                bm25_depth: int, seed: int, max_pairs: int | None,
                random_negatives_per_query: int = 0, holdout_every: int = 0,
                holdout_by: str = "document") -> tuple[list[tuple[str, str, float]], int]:
    """(query, text, label) pairs: each judged positive, ``negatives_per_query`` BM25 hard negatives
    and ``random_negatives_per_query`` random non-positive documents (easy negatives help a fresh
    classification head get started; hard ones teach the fine distinctions)."""
    corpus = read_jsonl_by_id(corpus_path)
    queries = read_jsonl_by_id(queries_path)
    qrels = read_qrels(qrels_path)
    texts = {d: (f"{o.get('title') or ''}\n{o['text']}" if o.get("title") else o["text"]) for d, o in corpus.items()}
    positives = {q: {d for d, r in rels.items() if r > 0 and d in texts} for q, rels in qrels.items() if q in queries}
    positives = {q: p for q, p in positives.items() if p}
    held = holdout_ids(list(positives), holdout_every, positives if holdout_by == "document" else None)
    positives = {q: p for q, p in positives.items() if q not in held}
    if not positives:
        raise ValueError(f"no training query in {qrels_path} has a positive judgement in the corpus")
    qtext = {q: str(queries[q]["text"]) for q in positives}
    ids = list(texts)
    negatives = mine_bm25_negatives(ids, [texts[d] for d in ids], qtext, positives,
                                    negatives_per_query, bm25_depth, seed)
    rng = random.Random(seed)
    pairs: list[tuple[str, str, float]] = []
    for q in sorted(positives):
        pairs.extend((qtext[q], texts[d], 1.0) for d in sorted(positives[q]))
        pairs.extend((qtext[q], texts[d], 0.0) for d in negatives[q])
        taken = positives[q] | set(negatives[q])
        easy: list[str] = []
        while len(easy) < random_negatives_per_query and len(taken) < len(ids):
            d = ids[rng.randrange(len(ids))]
            if d not in taken:
                taken.add(d)
                easy.append(d)
        pairs.extend((qtext[q], texts[d], 0.0) for d in easy)
    rng.shuffle(pairs)
    if max_pairs:
        pairs = pairs[:max_pairs]
    return pairs, len(positives)


def train_cross_encoder(corpus_path: str | Path, queries_path: str | Path, qrels_path: str | Path,
                        out_dir: str | Path, base_model_path: str | Path | None = None, *,
                        negatives_per_query: int = 4, epochs: int = 1, max_pairs: int | None = None,
                        seed: int = 42, batch_size: int = 16, learning_rate: float = 2e-5,
                        warmup_ratio: float = 0.1, max_length: int = 256, bm25_depth: int = 30,
                        device: str | None = None, random_negatives_per_query: int = 0,
                        holdout_every: int = 0, holdout_by: str = "document") -> TrainResult:
    """Train and save to ``out_dir``; load the result with ``CrossEncoder(out_dir)`` or by path in rerank."""
    force_offline()
    import torch
    from sentence_transformers import CrossEncoder
    from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss
    from tqdm.auto import tqdm
    from transformers import get_linear_schedule_with_warmup

    started = time.perf_counter()
    pairs, n_queries = build_pairs(Path(corpus_path), Path(queries_path), Path(qrels_path),
                                   negatives_per_query, bm25_depth, seed, max_pairs, random_negatives_per_query,
                                   holdout_every, holdout_by)
    log.info("training on %d pairs from %d queries (%d BM25 negatives each)", len(pairs), n_queries,
             negatives_per_query)
    random.seed(seed)
    torch.manual_seed(seed)
    base = Path(base_model_path) if base_model_path else default_model_path()
    model = CrossEncoder(str(base), num_labels=1, max_length=max_length, device=device, local_files_only=True)
    n_neg = negatives_per_query + random_negatives_per_query
    loss_fn = BinaryCrossEntropyLoss(model, pos_weight=torch.tensor(float(max(1, n_neg))))
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.01)
    steps_per_epoch = (len(pairs) + batch_size - 1) // batch_size
    total = steps_per_epoch * epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(total * warmup_ratio), total)
    rng = random.Random(seed)
    model.train()
    loss_value, step = float("nan"), 0
    with tqdm(total=total, desc="train-reranker", unit="batch") as bar:
        for batch in shuffled_batches(pairs, batch_size, epochs, rng):
            labels = torch.tensor([b[2] for b in batch], device=model.device)
            loss = loss_fn([[b[0] for b in batch], [b[1] for b in batch]], labels)
            loss_value, step = optimizer_step(loss, model, optimizer, scheduler), step + 1
            bar.set_postfix(epoch=1 + (step - 1) // steps_per_epoch, loss=f"{loss_value:.4f}")
            bar.update(1)
            if step % 50 == 0:
                log.info("step %d/%d loss %.4f", step, total, loss_value)
    model.eval()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    result = TrainResult(str(out), n_queries, len(pairs), step, epochs, loss_value, time.perf_counter() - started)
    meta = {**asdict(result), "base_model": str(base), "qrels": str(qrels_path), "seed": seed,
            "negatives_per_query": negatives_per_query, "random_negatives_per_query": random_negatives_per_query,
            "bm25_depth": bm25_depth, "batch_size": batch_size,
            "learning_rate": learning_rate, "max_length": max_length, "max_pairs": max_pairs,
            "holdout_every": holdout_every, "holdout_by": holdout_by}
    (out / "chsr_training.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    log.info("saved cross-encoder to %s (%d steps, %.0fs)", out, step, result.seconds)
    return result


def add_train_arguments(ap: argparse.ArgumentParser) -> None:
    """Arguments shared by ``python -m tools.train.reranker`` and ``chsr train-reranker``."""
    ap.add_argument("data_dir", type=Path, help="BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv")
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--split", default="train")
    ap.add_argument("--base-model", type=Path, default=None)
    ap.add_argument("--negatives-per-query", type=int, default=4, help="BM25 hard negatives per query")
    ap.add_argument("--random-negatives-per-query", type=int, default=0, help="random (easy) negatives per query")
    ap.add_argument("--max-length", type=int, default=256, help="tokens per (query, document) pair")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--max-pairs", type=int, default=None)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--holdout-every", type=int, default=0, help="keep every N-th train query (sorted ids) out of "
                    "training, for tuning the rerank blend on unseen queries (0 = train on all)")
    ap.add_argument("--holdout-by", choices=("document", "query"), default="document",
                    help="hold out whole groups of queries that share a judged document (default), or single queries")


def run_training(args: argparse.Namespace) -> int:
    if args.split == "test":
        raise SystemExit("error: --split test: never train on the evaluation split")
    d = args.data_dir
    train_cross_encoder(d / "corpus.jsonl", d / "queries.jsonl", d / "qrels" / f"{args.split}.tsv", args.out_dir,
                        args.base_model, negatives_per_query=args.negatives_per_query, epochs=args.epochs,
                        max_pairs=args.max_pairs, seed=args.seed, batch_size=args.batch_size,
                        learning_rate=args.lr, max_length=args.max_length,
                        random_negatives_per_query=args.random_negatives_per_query,
                        holdout_every=args.holdout_every, holdout_by=args.holdout_by)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.train.reranker DATA_DIR OUT_DIR`` (BEIR layout: corpus.jsonl, queries.jsonl, qrels/)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_train_arguments(ap)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    return run_training(args)


if __name__ == "__main__":
    raise SystemExit(main())
