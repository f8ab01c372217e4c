"""`chsr eval beir`: a BEIR split through the mesh, per pipeline ("Benchmark").

Metrics (nDCG@10, MRR@10, P@3, P@5, R@5, R@100) come from the maintained ranx
library via :mod:`tools.eval.metrics`; paired bootstrap (1,000 resamples, seed 42,
seed 002 "H2") against a named baseline; the H1 table correlates every entropy
variant the fusion service reports in its telemetry (``h_<list>_<norm>``, see
``services/fusion/modes.py``) with per-query nDCG@10 and MRR@10 (Pearson, seed 002).
Tune on ``qrels/train.tsv`` only; report on test.
"""

from __future__ import annotations

import csv
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from chsr.client import GatewayClient
from tools.eval import metrics as qm
from tools.eval.report import bootstrap_dict, bootstrap_mean_ci, machine_info
from tools.eval.runner import PipelineRun, QuerySpec, index_summary, run_id_map, run_pipeline
from chsr.stages import LEGS, TIMING_STAGES

log = logging.getLogger(__name__)

METRICS: tuple[str, ...] = ("ndcg@10", "mrr@10", "precision@3", "precision@5", "recall@5", "recall@100")
LABELS: dict[str, str] = {"ndcg@10": "nDCG@10", "mrr@10": "MRR@10", "precision@3": "P@3", "precision@5": "P@5",
                          "recall@5": "R@5", "recall@100": "R@100"}
BOOTSTRAP_METRICS: tuple[str, ...] = ("ndcg@10", "mrr@10")
RETRIEVERS: tuple[str, ...] = LEGS
CALIBRATIONS: tuple[str, ...] = ("raw", "minmax", "zscore", "cdf")   # services/fusion/params.py ENTROPY_NORMS
H1_METRICS: tuple[str, ...] = ("ndcg@10", "mrr@10")


@dataclass(frozen=True)
class BeirData:
    queries: dict[str, str]              # query id -> text, only the ids judged in the split
    qrels: dict[str, dict[str, int]]


@dataclass(frozen=True)
class BeirConfig:
    data_dir: Path
    split: str
    pipelines: tuple[str, ...]
    baseline: str
    k: int = 100
    gateway: str | None = None
    out: Path = Path("benchmarks/scifact")
    concurrency: int = 2
    max_queries: int | None = None
    h1_pipeline: str | None = None
    #: (pipeline, its reference) pairs bootstrapped besides the baseline, e.g. a rerank mode vs its fusion
    pairs: tuple[tuple[str, str], ...] = ()


def load_qrels(path: Path) -> dict[str, dict[str, int]]:
    """BEIR qrels TSV (header ``query-id corpus-id score``)."""
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        for i, row in enumerate(csv.reader(fh, delimiter="\t")):
            if not row or (i == 0 and not row[-1].strip().lstrip("-").isdigit()):
                continue
            if len(row) < 3:
                raise ValueError(f"{path}:{i + 1}: expected 3 tab-separated columns")
            qrels.setdefault(row[0].strip(), {})[row[1].strip()] = int(row[2])
    return qrels


def load_beir(data_dir: Path, split: str, max_queries: int | None = None) -> BeirData:
    """Queries of ``split`` in qrels order; ``max_queries`` keeps the first N (smoke runs)."""
    qrels_path = data_dir / "qrels" / f"{split}.tsv"
    if not qrels_path.exists():
        raise FileNotFoundError(f"qrels: no such file: {qrels_path}")
    qrels = load_qrels(qrels_path)
    texts: dict[str, str] = {}
    with (data_dir / "queries.jsonl").open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if line.strip():
                obj = json.loads(line)
                if "_id" not in obj or "text" not in obj:
                    raise ValueError(f"queries.jsonl:{line_no}: query needs '_id' and 'text'")
                texts[str(obj["_id"])] = obj["text"]
    missing = [q for q in qrels if q not in texts]
    if missing:
        raise ValueError(f"qrels/{split}.tsv: {len(missing)} query ids not in queries.jsonl, e.g. {missing[:3]}")
    ids = list(qrels)[: max_queries] if max_queries else list(qrels)
    return BeirData({q: texts[q] for q in ids}, {q: qrels[q] for q in ids})


def judged_ids(data: BeirData) -> list[str]:
    """Queries with >= 1 positive judgement (the metrics library skips the others)."""
    return [q for q in data.queries if any(r > 0 for r in data.qrels.get(q, {}).values())]


def per_query_metrics(run: PipelineRun, data: BeirData) -> dict[str, dict[str, float]]:
    """``{metric: {query_id: value}}`` over every query of the split (failed = empty run)."""
    return qm.per_query(data.qrels, run_id_map(run.records), list(METRICS))


def entropy_keys() -> list[tuple[str, str, str]]:
    return [(r, c, f"h_{r}_{c}") for r in RETRIEVERS for c in CALIBRATIONS]


def h1_table(records: Sequence[Mapping[str, Any]], quality: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """Pearson r and p of each entropy variant vs per-query quality; missing variants named."""
    rows, missing = [], []
    for retriever, calibration, key in entropy_keys() + [(r, "used", f"h_{r}") for r in RETRIEVERS]:
        pairs = [(rec["fusion_telemetry"][key], rec["query_id"]) for rec in records
                 if key in rec.get("fusion_telemetry", {}) and rec["query_id"] in quality[H1_METRICS[0]]]
        if not pairs:
            missing.append(key)
            continue
        row: dict[str, Any] = {"retriever": retriever, "calibration": calibration, "key": key, "n": len(pairs)}
        h = [float(v) for v, _ in pairs]
        for metric in H1_METRICS:
            y = [float(quality[metric][qid]) for _, qid in pairs]
            r, p = qm.pearson(h, y)
            row[f"r_{metric}"], row[f"p_{metric}"] = r, p
        rows.append(row)
    return {"rows": rows, "missing": missing, "cdf_missing_share": _share(records, "cdf_missing")}


def _share(records: Sequence[Mapping[str, Any]], key: str) -> float | None:
    vals = [float(r["fusion_telemetry"][key]) for r in records if key in r.get("fusion_telemetry", {})]
    return float(np.mean(vals)) if vals else None


def alpha_summary(records: Sequence[Mapping[str, Any]]) -> dict[str, float] | None:
    """Mean/std/min/max of the per-query fusion alpha (does entropy weighting move alpha?)."""
    a = np.array([float(r["fusion_telemetry"]["alpha"]) for r in records if "alpha" in r.get("fusion_telemetry", {})])
    if a.size == 0:
        return None
    return {"mean": float(a.mean()), "std": float(a.std()), "min": float(a.min()), "max": float(a.max()),
            "n": int(a.size)}


def default_h1_pipeline(pipelines: Sequence[str]) -> str:
    """The first entropy-fusion pipeline run (seed 002 computes H1 for its calibrated mode)."""
    try:
        from gateway.pipelines import PIPELINES
        entropy = [p for p in pipelines if p in PIPELINES and PIPELINES[p].fusion_mode == "entropy"]
    except ImportError:  # the client may run without the gateway package
        entropy = [p for p in pipelines if "entropy" in p or "calibrated" in p]
    return entropy[0] if entropy else pipelines[0]


def compute(cfg: BeirConfig, data: BeirData, runs: Mapping[str, PipelineRun]) -> dict[str, Any]:
    """Everything the report shows, as one JSON-able dict (results.json)."""
    qids = judged_ids(data)
    per_q = {p: per_query_metrics(run, data) for p, run in runs.items()}
    means = {p: {m: float(np.mean([per_q[p][m][q] for q in qids])) for m in METRICS} for p in runs}
    cis = {p: {m: bootstrap_mean_ci([per_q[p][m][q] for q in qids]) for m in METRICS} for p in runs}
    latency = {p: {"client": qm.latency_summary([r["latency_ms"] for r in run.records if "error" not in r]),
                   "stages": _stage_latency(run.records)} for p, run in runs.items()}
    boot = []
    for p in runs:
        if p == cfg.baseline:
            continue
        for m in BOOTSTRAP_METRICS:
            a = [per_q[p][m][q] for q in qids]
            b = [per_q[cfg.baseline][m][q] for q in qids]
            boot.append({"pipeline": p, "baseline": cfg.baseline, "metric": m}
                        | bootstrap_dict(qm.paired_bootstrap(a, b)))
    pairs = []
    for p, ref in cfg.pairs:
        if p in runs and ref in runs:
            for m in BOOTSTRAP_METRICS:
                pairs.append({"pipeline": p, "baseline": ref, "metric": m} | bootstrap_dict(qm.paired_bootstrap(
                    [per_q[p][m][q] for q in qids], [per_q[ref][m][q] for q in qids])))
    h1_pipe = cfg.h1_pipeline if cfg.h1_pipeline in runs else default_h1_pipeline(list(runs))
    h1_all = {p: h1_table(run.records, per_q[p]) for p, run in runs.items()}
    return {
        "benchmark": "beir", "data_dir": str(cfg.data_dir), "split": cfg.split, "k": cfg.k, "concurrency": cfg.concurrency,
        "n_queries": len(qids), "n_unjudged_skipped": len(data.queries) - len(qids),
        "pipelines": list(runs), "baseline": cfg.baseline,
        "metrics": means, "ci95": cis, "latency_ms": latency,
        "errors": {p: len(run.errors) for p, run in runs.items()},
        "degraded": {p: sum(1 for r in run.records if r.get("degraded")) for p, run in runs.items()},
        "bootstrap": boot, "pairs": pairs,
        "h1": {"pipeline": h1_pipe, **h1_all[h1_pipe]}, "h1_by_pipeline": h1_all,
        "alpha": {p: alpha_summary(run.records) for p, run in runs.items()},
        "_per_query": per_q,
    }


def _stage_latency(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float | None]]:
    ok = [r for r in records if "error" not in r]
    return {s: qm.latency_summary([r["timings_ms"].get(s, 0.0) for r in ok]) for s in TIMING_STAGES}


def run_beir(cfg: BeirConfig) -> tuple[dict[str, Any], dict[str, PipelineRun]]:
    """Load, run every pipeline through the gateway, compute; the caller writes the report."""
    data = load_beir(cfg.data_dir, cfg.split, cfg.max_queries)
    client = GatewayClient(cfg.gateway)
    queries = [QuerySpec(q, text) for q, text in data.queries.items()]
    pipelines = list(dict.fromkeys(cfg.pipelines if cfg.baseline in cfg.pipelines
                                   else (cfg.baseline, *cfg.pipelines)))
    pipelines += [ref for _, ref in cfg.pairs if ref not in pipelines]
    index = index_summary(client)
    runs = {p: run_pipeline(client, p, queries, cfg.k, cfg.concurrency) for p in pipelines}
    results = compute(cfg, data, runs)
    results["machine"] = machine_info(client.address)
    results["index"] = index
    return results, runs

