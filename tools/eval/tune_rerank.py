"""Tune the cross-encoder blend on TRAIN qrels: weight and pool per first-stage pipeline.

Only the train queries the cross-encoder was not trained on are used (``chsr train-reranker
--holdout-every N`` records which): on its own training queries a cross-encoder looks far better
than it is. For each base pipeline (the fusion a ``*_rerank`` / ``*_ce`` mode reranks) every such query goes
through the mesh once (``k = max pool``, cache bypassed) and each (query, document) pair of its pool
is scored once by the same ONNX int8 cross-encoder and truncation the rerank server uses. Then a
grid: pool in ``--pools``, weight in 0, 0.05 .. 1, reordering the pool's head by
:func:`services.rerank.chain.interpolate` exactly as the server does; nDCG@10 per cell (ranx). The
best cell whose measured scoring p95 fits ``--p95-budget-ms`` *and* whose gain over the first stage is
significant on these queries (paired bootstrap, ``--alpha``, default 0.05) wins; ties go to the smaller
weight (closer to the first stage) and the smaller pool (cheaper). When no cell gains significantly the
weight is 0: the mode returns the first stage's order and the server scores nothing (a reranker that
does not reliably help on unseen queries is not used). Never run it on the test split.

    python -m tools.eval.tune_rerank ../shared/data/scifact --gateway 127.0.0.1:58051 \\
        --cross-encoder ~/.cache/chsr/models/ce-scifact-v4 --out benchmarks/scifact-rerank/tuning.json
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from chsr.client import GatewayClient
from chsr.config import get_settings
from services.rerank.chain import interpolate
from services.rerank.onnx_cross_encoder import OnnxCrossEncoderScorer
from tools.eval import metrics as qm
from tools.eval.beir import BeirData, load_beir
from tools.train.reranker import holdout_ids

log = logging.getLogger(__name__)
WEIGHTS = tuple(round(w, 2) for w in np.arange(0.0, 1.0001, 0.05))


def blended_run(pools: dict[str, list[tuple[str, float]]], ce: dict[tuple[str, str], float], pool: int,
                weight: float) -> dict[str, dict[str, float]]:
    """``{qid: {doc: 1/rank}}`` after reranking each query's first ``pool`` candidates."""
    run: dict[str, dict[str, float]] = {}
    for qid, cands in pools.items():
        head, tail = cands[:pool], cands[pool:]
        if weight > 0 and head:
            s = interpolate(np.array([ce[(qid, d)] for d, _ in head]), np.array([f for _, f in head]), weight)
            order = sorted(range(len(head)), key=lambda i: (-s[i], i))
            head = [head[i] for i in order]
        run[qid] = {d: 1.0 / r for r, (d, _) in enumerate(head + tail, start=1)}
    return run


def scoring_p95_ms(client: GatewayClient, scorer: OnnxCrossEncoderScorer, queries: Sequence[str],
                   pipeline: str, pools: Sequence[int]) -> dict[int, float]:
    """p95 of scoring a real pool of each size (one call per query, as the rerank server makes it)."""
    texts = {}
    for q in queries:
        resp = client.search(q, max(pools), pipeline, no_cache=True, timeout=60)
        texts[q] = [f"{r.title}\n{r.text}" if r.title else r.text for r in resp.results]
    scorer.score(queries[0], texts[queries[0]][:5])  # warm
    out = {}
    for p in pools:
        times = []
        for q in queries:
            t0 = time.perf_counter()
            scorer.score(q, texts[q][:p])
            times.append((time.perf_counter() - t0) * 1000)
        out[p] = float(np.percentile(times, 95))
    return out


def choose(grid: dict[str, float], p95: dict[int, float], budget_ms: float, pools: Sequence[int],
           pool: int | None = None, p_values: dict[str, float] | None = None, alpha: float = 1.0) -> tuple[int, float]:
    """Best nDCG@10 among cells whose pool fits the budget (or is ``pool``) and, with ``p_values``, whose gain
    over the first stage is significant at ``alpha``; ties: smaller weight, then smaller pool. No such cell:
    the smallest pool at weight 0 (the first stage)."""
    base = min(v for c, v in grid.items() if float(c.split(":")[1]) == 0.0)
    fits = [(v, -float(c.split(":")[1]), -int(c.split(":")[0]), c) for c, v in grid.items()
            if (int(c.split(":")[0]) == pool if pool else p95[int(c.split(":")[0])] <= budget_ms)
            and (p_values is None or float(c.split(":")[1]) == 0.0 or (v > base and p_values[c] < alpha))]
    best = max(fits)[3] if fits else f"{min(pools)}:0.0"
    return int(best.split(":")[0]), float(best.split(":")[1])


def reselect(previous: dict, gateway: str, model: Path, latency_queries: Sequence[str], budget_ms: float,
             pool: int | None = None) -> dict:
    """Re-measure the scoring p95 and re-choose from a previous run's grid (no re-scoring of train)."""
    scorer = OnnxCrossEncoderScorer(model, get_settings().cache_dir, max_length=previous["max_length"])
    scorer.ensure_loaded()
    pools = [int(p) for p in previous["pools"]]
    p95 = scoring_p95_ms(GatewayClient(gateway), scorer, latency_queries, next(iter(previous["pipelines"])), pools)
    out = {**previous, "scoring_p95_ms": p95, "p95_budget_ms": budget_ms, "fixed_pool": pool}
    out.pop("scoring_p95_ms_estimate", None)
    for v in out["pipelines"].values():
        chosen, weight = choose(v["grid"], p95, budget_ms, pools, pool, v.get("grid_p"), previous.get("alpha", 1.0))
        v["best"] = {"pool": chosen, "ce_weight": weight, "ndcg@10": v["grid"][f"{chosen}:{weight}"]}
    return out


def held_out(data: BeirData, model: Path) -> BeirData:
    """The queries the cross-encoder was *not* trained on (its ``chsr_training.json`` says which:
    ``holdout_every``). Tuning the blend on the CE's own training queries overrates it: the first
    model scored 0.74 nDCG@10 alone on them and 0.57 on test."""
    meta = json.loads((model / "chsr_training.json").read_text(encoding="utf-8"))
    every = int(meta.get("holdout_every", 0))
    if every <= 0:
        raise SystemExit(f"error: {model} was trained on every train query; retrain it with "
                         "--holdout-every N so the blend can be tuned on unseen queries")
    positives = {q: {d for d, r in data.qrels.get(q, {}).items() if r > 0} for q in data.queries}
    positives = {q: docs for q, docs in positives.items() if docs}
    by_document = meta.get("holdout_by", "query") == "document"   # models before the option held out single queries
    keep = holdout_ids(list(positives), every, positives if by_document else None)
    return BeirData({q: t for q, t in data.queries.items() if q in keep},
                    {q: r for q, r in data.qrels.items() if q in keep})


def tune(data_dir: Path, gateway: str, pipelines: Sequence[str], model: Path, pools: Sequence[int],
         max_length: int, p95_budget_ms: float, split: str, max_queries: int | None, alpha: float = 0.05) -> dict:
    if split == "test":
        raise SystemExit("error: --split test: tune on train only")
    data = held_out(load_beir(data_dir, split), model)
    if max_queries:
        ids = list(data.queries)[:max_queries]
        data = BeirData({q: data.queries[q] for q in ids}, {q: data.qrels[q] for q in ids})
    client = GatewayClient(gateway)
    scorer = OnnxCrossEncoderScorer(model, get_settings().cache_dir, max_length=max_length)
    scorer.ensure_loaded()
    k = max(pools)
    ce: dict[tuple[str, str], float] = {}
    out: dict = {"split": split, "queries": len(data.queries), "model": str(model), "max_length": max_length,
                 "pools": list(pools), "weights": list(WEIGHTS), "p95_budget_ms": p95_budget_ms, "alpha": alpha,
                 "pipelines": {}}
    base_pools: dict[str, dict[str, list[tuple[str, float]]]] = {}
    for name in pipelines:
        started = time.perf_counter()
        base_pools[name] = {}
        for i, (qid, text) in enumerate(data.queries.items()):
            resp = client.search(text, k, name, no_cache=True, timeout=60)
            cands = [(r.doc_id, float(r.score)) for r in resp.results]
            base_pools[name][qid] = cands
            todo = [(d, r.title + "\n" + r.text if r.title else r.text) for (d, _), r in zip(cands, resp.results)
                    if (qid, d) not in ce]
            if todo:
                for (d, _), s in zip(todo, scorer.score(text, [t for _, t in todo])):
                    ce[(qid, d)] = float(s)
            if i % 100 == 0:
                log.info("%s: %d/%d queries, %d pairs scored", name, i, len(data.queries), len(ce))
        log.info("%s pools in %.0fs", name, time.perf_counter() - started)
    p95 = scoring_p95_ms(client, scorer, list(data.queries.values())[:30], pipelines[0], pools)
    out["scoring_p95_ms"] = p95
    for name, qpools in base_pools.items():
        grid, grid_p = {}, {}
        first = qm.per_query(data.qrels, blended_run(qpools, ce, pools[0], 0.0), ["ndcg@10"])["ndcg@10"]
        qids = sorted(first)
        for p in pools:
            for w in WEIGHTS:
                cell = qm.per_query(data.qrels, blended_run(qpools, ce, p, w), ["ndcg@10"])["ndcg@10"]
                grid[f"{p}:{w}"] = float(np.mean([cell[q] for q in qids]))
                grid_p[f"{p}:{w}"] = qm.paired_bootstrap(np.array([cell[q] for q in qids]),
                                                         np.array([first[q] for q in qids]))[3] if w > 0 else 1.0
        base = grid[f"{pools[0]}:0.0"]
        pool, weight = choose(grid, p95, p95_budget_ms, pools, p_values=grid_p, alpha=alpha)
        best = f"{pool}:{weight}"
        unconstrained = max((v, c) for c, v in grid.items() if p95[int(c.split(":")[0])] <= p95_budget_ms)[1]
        ce_alone = max(grid[f"{p}:1.0"] for p in pools)
        out["pipelines"][name] = {"first_stage_ndcg@10": base, "best": {"pool": pool, "ce_weight": weight,
                                  "ndcg@10": grid[best], "p": grid_p[best]},
                                  "best_ignoring_significance": {"cell": unconstrained, "ndcg@10": grid[unconstrained],
                                                                 "p": grid_p[unconstrained]},
                                  "ce_alone_best_ndcg@10": ce_alone, "grid": grid, "grid_p": grid_p}
        log.info("%s: first stage %.4f, CE alone %.4f, chosen pool %d weight %.2f -> %.4f (p %.3f); best cell %s "
                 "%.4f (p %.3f)", name, base, ce_alone, pool, weight, grid[best], grid_p[best], unconstrained,
                 grid[unconstrained], grid_p[unconstrained])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path)
    ap.add_argument("--gateway", required=True)
    ap.add_argument("--cross-encoder", type=Path, required=True)
    ap.add_argument("--pipelines", default="rrf,hybrid_fixed,hybrid_calibrated")
    ap.add_argument("--pools", default="10,20,30,50")
    ap.add_argument("--max-length", type=int, default=128)
    ap.add_argument("--p95-budget-ms", type=float, default=350.0, help="scoring time the chosen pool may take")
    ap.add_argument("--alpha", type=float, default=0.05, help="a blend is used only if its gain over the first "
                    "stage on the held-out queries is significant at this level (paired bootstrap, two-sided)")
    ap.add_argument("--split", default="train")
    ap.add_argument("--max-queries", type=int, default=None)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--reselect", action="store_true", help="keep --out's grid; re-measure p95 and re-choose")
    ap.add_argument("--pool", type=int, default=None, help="with --reselect: fix the pool (the p95 was measured "
                    "on a quiet machine), choose only the weight")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if args.reselect:
        previous = json.loads(args.out.read_text(encoding="utf-8"))
        data = load_beir(args.data_dir, previous["split"], 30)
        result = reselect(previous, args.gateway, args.cross_encoder, list(data.queries.values()), args.p95_budget_ms,
                          args.pool)
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        return 0
    result = tune(args.data_dir, args.gateway, [p for p in args.pipelines.split(",") if p], args.cross_encoder,
                  [int(p) for p in args.pools.split(",")], args.max_length, args.p95_budget_ms, args.split,
                  args.max_queries, args.alpha)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
