"""`chsr train-reranker`: fine-tune a cross-encoder from a local base model on a BEIR train split."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path


def add_parsers(sub: argparse._SubParsersAction) -> None:
    from tools.train.reranker import add_train_arguments, run_training

    p = sub.add_parser("train-reranker", help="fine-tune a CrossEncoder (bundled MiniLM base) on BEIR train qrels "
                                              "with BM25 hard negatives; load it with CHSR_CROSS_ENCODER_PATH")
    add_train_arguments(p)

    def run(args: argparse.Namespace) -> int:
        logging.getLogger().setLevel(logging.INFO)
        return run_training(args)

    p.set_defaults(func=run)

    d = sub.add_parser("train-dense", help="fine-tune the bi-encoder (bundled MiniLM base) on BEIR train qrels "
                                           "with in-batch + BM25 hard negatives; serve it with CHSR_MODEL_PATH")
    d.add_argument("data_dir", type=Path, help="BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv")
    d.add_argument("out_dir", type=Path)
    d.add_argument("--split", default="train")
    d.add_argument("--base-model", type=Path, default=None)
    d.add_argument("--epochs", type=int, default=1)
    d.add_argument("--batch-size", type=int, default=32)
    d.add_argument("--lr", type=float, default=2e-5)
    d.add_argument("--max-triples", type=int, default=None)
    d.add_argument("--seed", type=int, default=42)
    d.add_argument("--device", default=None, help="cpu (default) or cuda")

    def run_dense(args: argparse.Namespace) -> int:
        from tools.train.dense import train_bi_encoder

        logging.getLogger().setLevel(logging.INFO)
        if args.split == "test":
            raise SystemExit("error: --split test: never train on the evaluation split")
        train_bi_encoder(args.data_dir, args.out_dir, args.base_model, split=args.split, epochs=args.epochs,
                         batch_size=args.batch_size, learning_rate=args.lr, seed=args.seed,
                         max_triples=args.max_triples, device=args.device)
        return 0

    d.set_defaults(func=run_dense)
