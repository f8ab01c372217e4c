"""Evaluation library: IR metrics (via ranx), paired bootstrap, Pearson and latency summaries."""

from tools.eval.metrics import (DEFAULT_METRICS, evaluate, latency_summary, mrr, ndcg, ndcg_reference,
                               paired_bootstrap, pearson, per_query, precision, recall)

__all__ = [
    "DEFAULT_METRICS", "evaluate", "per_query", "ndcg", "mrr", "precision", "recall", "ndcg_reference",
    "paired_bootstrap", "pearson", "latency_summary",
]
