"""Fine-tune the bi-encoder on a BEIR train split (in-batch + BM25 hard negatives).

Why: the bundled all-MiniLM-L6-v2 was trained on web pairs; seed 002/003 and our
runs show it trails BM25 on scientific claims. Contrastive fine-tuning on the
*train* qrels (MultipleNegativesRankingLoss: softmax over in-batch positives
and one mined hard negative per query, scale 20) adapts it to the domain. The
result is a sentence-transformers directory: serve it with ``CHSR_MODEL_PATH``
(the embedding cache keys by model fingerprint, so nothing stale is reused).
A plain torch loop keeps the dependencies to what is installed (no ``datasets``).
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from services.inference.model_files import default_model_path, force_offline
from tools.train.training_data import (mine_bm25_negatives, optimizer_step, read_jsonl_by_id, read_qrels,
                                 shuffled_batches)

log = logging.getLogger(__name__)


@dataclass
class DenseTrainResult:
    out_dir: str
    queries: int
    triples: int
    steps: int
    epochs: int
    final_loss: float
    seconds: float


def build_triples(data_dir: Path, split: str, seed: int) -> list[tuple[str, str, str]]:
    """(query, positive, BM25 hard negative) for every positive judgement of the split."""
    if split == "test":
        raise ValueError("split: never train on the evaluation split")
    corpus = read_jsonl_by_id(data_dir / "corpus.jsonl")
    queries = read_jsonl_by_id(data_dir / "queries.jsonl")
    qrels = read_qrels(data_dir / "qrels" / f"{split}.tsv")
    texts = {d: (f"{o.get('title') or ''}\n{o['text']}" if o.get("title") else o["text"]) for d, o in corpus.items()}
    positives = {q: {d for d, r in rels.items() if r > 0 and d in texts} for q, rels in qrels.items() if q in queries}
    positives = {q: p for q, p in positives.items() if p}
    ids = list(texts)
    negatives = mine_bm25_negatives(ids, [texts[d] for d in ids], {q: str(queries[q]["text"]) for q in positives},
                                    positives, per_query=3, depth=30, seed=seed)
    rng = random.Random(seed)
    triples = [(str(queries[q]["text"]), texts[d], texts[rng.choice(negatives[q])])
               for q in sorted(positives) for d in sorted(positives[q])]
    rng.shuffle(triples)
    return triples


def train_bi_encoder(data_dir: str | Path, out_dir: str | Path, base_model_path: str | Path | None = None, *,
                     split: str = "train", epochs: int = 1, batch_size: int = 32, learning_rate: float = 2e-5,
                     scale: float = 20.0, seed: int = 42, max_triples: int | None = None,
                     device: str | None = None, max_seq_length: int | None = None) -> DenseTrainResult:
    """``max_seq_length`` truncates every text to that many tokens while training (default: the model's own, 256
    for all-MiniLM-L6-v2); a step's cost grows with it, and the saved model keeps the truncation."""
    force_offline()
    import torch
    from sentence_transformers import SentenceTransformer
    from tqdm.auto import tqdm
    from transformers import get_linear_schedule_with_warmup

    started = time.perf_counter()
    triples = build_triples(Path(data_dir), split, seed)[:max_triples]
    random.seed(seed)
    torch.manual_seed(seed)
    base = Path(base_model_path) if base_model_path else default_model_path()
    model = SentenceTransformer(str(base), device=device or "cpu")
    if max_seq_length:
        model.max_seq_length = max_seq_length
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.01)
    steps = ((len(triples) + batch_size - 1) // batch_size) * epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, max(1, steps // 10), steps)
    rng = random.Random(seed)
    model.train()

    def embed(texts: list[str]) -> "torch.Tensor":
        features = {k: (v.to(model.device) if hasattr(v, "to") else v) for k, v in model.tokenize(texts).items()}
        return torch.nn.functional.normalize(model(features)["sentence_embedding"], dim=-1)

    loss_value, step = float("nan"), 0
    with tqdm(total=steps, desc="train-dense", unit="batch") as bar:
        for batch in shuffled_batches(triples, batch_size, epochs, rng):
            q = embed([b[0] for b in batch])
            d = embed([b[1] for b in batch] + [b[2] for b in batch])  # positives, then hard negatives
            logits = scale * q @ d.T
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch), device=model.device))
            loss_value, step = optimizer_step(loss, model, optimizer, scheduler), step + 1
            bar.set_postfix(loss=f"{loss_value:.4f}")
            bar.update(1)
    model.eval()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    result = DenseTrainResult(str(out), len({t[0] for t in triples}), len(triples), step, epochs, loss_value,
                              time.perf_counter() - started)
    meta = {**asdict(result), "base_model": str(base), "split": split, "seed": seed, "batch_size": batch_size,
            "learning_rate": learning_rate, "scale": scale}
    (out / "chsr_training.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    log.info("saved bi-encoder to %s (%d steps, %.0fs)", out, step, result.seconds)
    return result
