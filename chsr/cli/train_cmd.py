"""`chsr train-reranker`: fine-tune a cross-encoder from a local base model on a BEIR train split."""

from __future__ import annotations

import argparse
import logging


def add_parsers(sub: argparse._SubParsersAction) -> None:
    from services.rerank.train import add_train_arguments, run_training

    p = sub.add_parser("train-reranker", help="fine-tune a CrossEncoder (bundled MiniLM base) on BEIR train qrels "
                                              "with BM25 hard negatives; load it with CHSR_CROSS_ENCODER_PATH")
    add_train_arguments(p)

    def run(args: argparse.Namespace) -> int:
        logging.getLogger().setLevel(logging.INFO)
        return run_training(args)

    p.set_defaults(func=run)
