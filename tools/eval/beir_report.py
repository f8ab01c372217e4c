"""Write the `chsr eval beir` report directory ("Benchmark").

Layout::

    README.md          tables: metrics, latency, bootstrap vs baseline, H1, alpha; machine
    results.json       everything in the tables (strict JSON)
    per_query.jsonl    one line per (pipeline, query): metrics, latency, stage timings, telemetry
    runs/<pipeline>.trec   TREC run files
    metrics.png        metric bars with 95% bootstrap CIs
    latency.png        latency distribution per pipeline
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from tools.eval import plots
from tools.eval.beir import LABELS, METRICS
from tools.eval.report import fmt, fmt_p, machine_lines, md_table, write_json, write_jsonl
from tools.eval.runner import PipelineRun
from tools.runfile import write_trec
from chsr.stages import TIMING_STAGES


def write_beir_report(out: Path, results: dict[str, Any], runs: Mapping[str, PipelineRun]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    per_q = results.pop("_per_query")
    for p, run in runs.items():
        write_trec([r for r in run.records], out / "runs" / f"{p}.trec", p)
    write_jsonl(out / "per_query.jsonl", _per_query_rows(runs, per_q))
    write_json(out / "results.json", results)
    pipelines = results["pipelines"]
    plots.metric_bars(out / "metrics.png", pipelines, [LABELS[m] for m in METRICS],
                      {p: {LABELS[m]: v for m, v in results["metrics"][p].items()} for p in pipelines},
                      {p: {LABELS[m]: tuple(v) for m, v in results["ci95"][p].items()} for p in pipelines},
                      f"BEIR {results['split']} ({results['n_queries']} queries), 95% bootstrap CI")
    plots.latency_distributions(out / "latency.png",
                                {p: [r["latency_ms"] for r in run.records if "error" not in r]
                                 for p, run in runs.items()}, "End-to-end latency through the gateway")
    (out / "README.md").write_text("\n".join(_readme(results)) + "\n", encoding="utf-8")


def _per_query_rows(runs: Mapping[str, PipelineRun], per_q: Mapping[str, Mapping[str, Mapping[str, float]]]):
    for p, run in runs.items():
        for rec in run.records:
            qid = rec["query_id"]
            yield {"pipeline": p, "query_id": qid} | {m: per_q[p][m].get(qid) for m in METRICS} | {
                "n_results": len(rec.get("results", [])), "latency_ms": rec.get("latency_ms"),
                "timings_ms": rec.get("timings_ms"), "final_step": rec.get("final_step"),
                "degraded": rec.get("degraded", []), "fusion_telemetry": rec.get("fusion_telemetry", {}),
                "top10": [r["doc_id"] for r in rec.get("results", [])[:10]], "error": rec.get("error")}


def _readme(res: dict[str, Any]) -> list[str]:
    pipes = res["pipelines"]
    lines = [f"# BEIR benchmark: `{Path(res['data_dir']).name}` {res['split']} split", "",
             f"{res['n_queries']} queries, k = {res['k']}, every query through the gateway (gRPC mesh) with "
             f"the cache bypassed, {res['concurrency']} request(s) in flight; metrics by ranx; latency = client "
             "round trip after one warm-up request per pipeline.",
             "Produced by `chsr eval beir`.", "", "## Quality and latency", ""]
    header = ["pipeline"] + [LABELS[m] for m in METRICS] + ["p50 ms", "p95 ms", "p99 ms", "errors"]
    rows = []
    for p in pipes:
        lat = res["latency_ms"][p]["client"]
        rows.append([f"`{p}`" + (" (baseline)" if p == res["baseline"] else "")]
                    + [res["metrics"][p][m] for m in METRICS]
                    + [fmt(lat.get("p50"), 1), fmt(lat.get("p95"), 1), fmt(lat.get("p99"), 1), res["errors"][p]])
    lines += md_table(header, rows, digits=4) + [""]
    lines += ["Server-side stage latency p95 (ms):", ""]
    lines += md_table(["pipeline", *TIMING_STAGES],
                      [[f"`{p}`"] + [fmt(res["latency_ms"][p]["stages"].get(s, {}).get("p95"), 1) for s in TIMING_STAGES]
                       for p in pipes]) + [""]
    lines += _bootstrap_section(res) + _pairs_section(res) + _h1_section(res) + _alpha_section(res)
    lines += ["## Files", "", "`results.json` (all numbers), `per_query.jsonl` (per pipeline and query: metrics, "
              "latency, stage timings, fusion telemetry), `runs/<pipeline>.trec`, `metrics.png`, `latency.png`.",
              "", "![metrics](metrics.png)", "", "![latency](latency.png)", "", "## Machine", ""]
    lines += machine_lines(res.get("machine", {}))
    if res.get("index"):
        lines.append("- Index: " + ", ".join(f"{b} {n} documents" for b, n in res["index"].items()))
    return lines


def _bootstrap_section(res: dict[str, Any]) -> list[str]:
    if not res["bootstrap"]:
        return []
    lines = [f"## Paired bootstrap vs `{res['baseline']}`", "",
             "1,000 resamples of the queries, seed 42; Δ = pipeline − baseline; p two-sided.", ""]
    rows = [[f"`{b['pipeline']}`", LABELS[b["metric"]], f"{b['mean_delta']:+.4f}",
             f"[{b['ci_low']:+.4f}, {b['ci_high']:+.4f}]", fmt_p(b["p_value"]),
             "yes" if b["p_value"] < 0.05 else "no"] for b in res["bootstrap"]]
    return lines + md_table(["pipeline", "metric", "mean Δ", "95% CI", "p", "p < 0.05"], rows) + [""]


def _pairs_section(res: dict[str, Any]) -> list[str]:
    if not res.get("pairs"):
        return []
    lines = ["## Paired bootstrap: each pipeline vs its reference", "",
             "1,000 resamples of the queries, seed 42; Δ = pipeline − reference; p two-sided.", ""]
    rows = [[f"`{b['pipeline']}`", f"`{b['baseline']}`", LABELS[b["metric"]], f"{b['mean_delta']:+.4f}",
             f"[{b['ci_low']:+.4f}, {b['ci_high']:+.4f}]", fmt_p(b["p_value"])] for b in res["pairs"]]
    return lines + md_table(["pipeline", "reference", "metric", "mean Δ", "95% CI", "p"], rows) + [""]


def _h1_section(res: dict[str, Any]) -> list[str]:
    h1 = res["h1"]
    lines = [f"## H1: entropy vs per-query quality (`{h1['pipeline']}`)", "",
             "Pearson r (p) of each retriever's score entropy, per calibration, against the pipeline's "
             "per-query nDCG@10 and MRR@10 (seed 002). `used` = the entropy the fusion used for alpha.", ""]
    rows = [[r["retriever"], r["calibration"], r["n"], fmt(r["r_ndcg@10"], 4), fmt_p(r["p_ndcg@10"]),
             fmt(r["r_mrr@10"], 4), fmt_p(r["p_mrr@10"])] for r in h1["rows"]]
    if rows:
        lines += md_table(["retriever", "calibration", "n", "r vs nDCG@10", "p", "r vs MRR@10", "p"], rows)
    else:
        lines.append("No entropy telemetry was returned by this pipeline.")
    if h1["missing"]:
        lines += ["", "Not available (absent from the fusion telemetry): "
                  + ", ".join(f"`{k}`" for k in h1["missing"])
                  + (" — CDF variants need calibrators built for the index (`cdf_missing` share "
                     f"{fmt(h1['cdf_missing_share'], 2)})." if any(k.endswith("_cdf") for k in h1["missing"]) else ".")]
    return lines + [""]


def _alpha_section(res: dict[str, Any]) -> list[str]:
    rows = [[f"`{p}`", a["n"], a["mean"], a["std"], a["min"], a["max"]]
            for p, a in res["alpha"].items() if a]
    if not rows:
        return []
    return ["## Fusion alpha per query (sparse weight)", ""] + md_table(
        ["pipeline", "n", "mean", "std", "min", "max"], rows, digits=4) + [""]
