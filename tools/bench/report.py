"""Write a load report: ``report.json``, ``README.md`` (tables, targets, machine) and the plots.

The README states the machine (CPU model, cores, RAM) and the load average
before and after, because on a shared 2-core box the neighbours' load is part
of the measurement (xhluca/bm25s style: speed tables always name the machine).
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from pathlib import Path

from tools.bench.plots import plot_report
from chsr.stages import TIMING_STAGES

TARGETS = [  # (label, pipelines, concurrency, cache, metric, bound, "le"|"ge") — issue 22's load targets
    ("C p95 at concurrency 1, cache miss", ("C",), 1, "miss", "p95", 40.0, "le"),
    ("E p95 at concurrency 1, cache miss", ("E",), 1, "miss", "p95", 60.0, "le"),
    ("QPS at concurrency 8, cache miss", ("C",), 8, "miss", "qps", 80.0, "ge"),
    ("cache-hit p95 at concurrency 1", None, 1, "hit", "p95", 2.0, "le"),
]
ANCHOR_TARGET = 1.5   # C p95 / the p95 of Weaviate's own hybrid call, same run, same queries
RATIO_TARGET = 1.3


def machine_info() -> dict[str, object]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        mem_kb = int(Path("/proc/meminfo").read_text().split("MemTotal:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        mem_kb = 0
    return {"cpu": model, "cores": os.cpu_count(), "ram_gib": round(mem_kb / 1024 / 1024, 1),
            "os": platform.platform(), "python": sys.version.split()[0],
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "load_before": [round(x, 2) for x in os.getloadavg()]}


def _settle_text(settle: dict | None) -> str:
    if not settle:
        return " Measured at once (no wait for the engines to go idle)."
    state = "idle" if settle.get("settled") else "still busy"
    return (f" Before the first run the engines were waited for {settle['waited_s']:g} s until {state} "
            f"({settle['cores']:g} cores in the last 5 s).")


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.1f}" if value >= 10 else f"{value:.2f}"
    return str(value)


def _table(header: list[str], rows: list[list[object]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(_fmt(c) for c in row) + " |" for row in rows]


def target_rows(runs: list[dict], ratio: list[dict], anchor: list[dict] = ()) -> list[list[object]]:  # type: ignore[assignment]
    rows: list[list[object]] = []
    for label, pipelines, conc, cache, metric, bound, op in TARGETS:
        for r in runs:  # the default mesh, then each dense-service variant measured end to end
            if not r["mode"].startswith("mesh") or (r["cache"], r["concurrency"]) != (cache, conc):
                continue
            if pipelines is not None and r["pipeline"] not in pipelines:
                continue
            value = r["qps"] if metric == "qps" else r["latency_ms"][metric]
            met = value <= bound if op == "le" else value >= bound
            variant = f", {r['mode'][6:]}" if r["mode"] != "mesh" else ""
            rows.append([f"{label} ({r['pipeline']}{variant})", f"{'≤' if op == 'le' else '≥'} {bound:g}", value,
                         "yes" if met else "**no**"])
    for r in anchor:
        if r["pipeline"] == "C" and r["ratio"] is not None:
            rows.append([f"C p95 / Weaviate hybrid p95, concurrency {r['concurrency']}", f"≤ {ANCHOR_TARGET}", r["ratio"],
                         "yes" if r["ratio"] <= ANCHOR_TARGET else "**no**"])
    for r in ratio:
        if r["concurrency"] == 1 and r["ratio"] is not None:
            rows.append([f"mesh / in-process p50, concurrency 1 ({r['pipeline']})", f"≤ {RATIO_TARGET}", r["ratio"],
                         "yes" if r["ratio"] <= RATIO_TARGET else "**no**"])
    return rows


def _run_rows(runs: list[dict], mode: str, cache: str) -> list[list[object]]:
    rows = []
    for r in runs:
        if r["mode"] == mode and r["cache"] == cache:
            lat = r["latency_ms"]
            cpu = ", ".join(f"{k} {v:.2f}" for k, v in sorted(r.get("cpu_cores", {}).items()) if v >= 0.01)
            rows.append([r["pipeline"], r["concurrency"], r["qps"], lat["p50"], lat["p95"], lat["p99"],
                         sum(r["errors"].values()), r["degraded"], cpu or "-"])
    return rows


def _stage_rows(runs: list[dict]) -> list[list[object]]:
    rows = []
    for r in runs:
        if r["cache"] == "miss":
            stages = r["stages_ms"]
            cells = [f"{stages[s]['p50']:.1f} / {stages[s]['p95']:.1f}" if s in stages else "-"
                     for s in TIMING_STAGES]
            rows.append([r["mode"], r["pipeline"], r["concurrency"], *cells])
    return rows


def _lever_lines(levers: dict) -> list[str]:
    lines = ["## Encoder levers (query encoding alone, in-process)", ""]
    if "onnx" in levers:
        lines += [f"ONNX Runtime: {levers['onnx']}", ""]
    rows = [[name, c, res["qps"], res["latency_ms"]["p50"], res["latency_ms"]["p95"]]
            for name, by_c in levers.get("encoders", {}).items() for c, res in by_c.items()]
    lines += _table(["encoder", "concurrency", "encodings/s", "p50 ms", "p95 ms"], rows) + [""]
    quality = levers.get("quality")
    if quality:
        nd = quality["ndcg@10"]
        lines += [f"Quality cost, dense-only nDCG@10 on the demo qrels ({quality['queries']} queries, "
                  f"{quality['documents']} documents): fp32 {nd['fp32']}, int8 queries over fp32 document vectors "
                  f"{nd['int8_queries_fp32_docs']}, int8 both sides {nd['int8_both']}; query-embedding cosine "
                  f"fp32 vs int8 mean {quality['query_cosine_fp32_vs_int8']['mean']} "
                  f"(min {quality['query_cosine_fp32_vs_int8']['min']}).", ""]
    return lines


def render_readme(report: dict, plots: list[str]) -> str:
    m, runs = report["machine"], report["runs"]
    cfg = report["config"]
    header = ["pipeline", "clients", "QPS", "p50 ms", "p95 ms", "p99 ms", "errors", "degraded", "CPU cores by process"]
    lines = [
        "# Load benchmark", "",
        f"`chsr bench load --pipelines {','.join(cfg['pipelines'])} --concurrency "
        f"{','.join(map(str, cfg['concurrency']))} --duration {cfg['duration_s']:g} --queries {cfg['queries']}`"
        f" — {report['queries']['count']} {report['queries']['source']} queries, k={cfg['k']}, "
        f"backend {cfg['backend']}, query encoder {cfg.get('query_encoder', 'torch')}, "
        f"query-vector LRU {cfg.get('query_vector_cache', 'unknown')} entries (0 = off), closed loop, "
        f"{cfg['warmup_s']:g} s warm-up per run, "
        f"{report['elapsed_s']} s in all.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM; {m['os']}; Python {m['python']}; "
        f"{m['date_utc']}. Load average before {m['load_before']}, after {m.get('load_after')} "
        "(other work on the machine competes for the same cores)." + _settle_text(report.get("settle")), "",
        "CPU is cores used during the run (CPU seconds / wall seconds, from /proc) per process.", "",
        "## Targets", "", *_table(["target", "bound", "measured", "met"], target_rows(runs, report.get(
            "mesh_inprocess_p50_ratio", []), report.get("anchor_ratio", []))), "",
        "## Through the mesh, cache miss (`no_cache`)", "", *_table(header, _run_rows(runs, "mesh", "miss")), "",
    ]
    hits = _run_rows(runs, "mesh", "hit")
    if hits:
        lines += [f"## Through the mesh, cache hit (a primed set of {cfg['hit_queries']} queries)", "",
                  *_table(header, hits), ""]
    lines += ["## Per stage, p50 / p95 ms (from SearchResponse.timings)", "",
              *_table(["mode", "pipeline", "clients", *TIMING_STAGES],
                      _stage_rows(runs)), ""]
    anchor_rows = _run_rows(runs, "anchor", "miss")
    if anchor_rows:
        lines += ["## The anchor: one Weaviate hybrid call (BM25 + vector fused in Weaviate), the query encoded by "
                  "the mesh's own encoder, same queries, same run", "", *_table(header, anchor_rows), "",
                  *_table(["pipeline", "clients", "mesh p95 ms", "anchor p95 ms", "ratio"],
                          [[r["pipeline"], r["concurrency"], r["mesh_p95_ms"], r["anchor_p95_ms"], r["ratio"]]
                           for r in report.get("anchor_ratio", [])]), ""]
    inproc = _run_rows(runs, "inprocess", "miss")
    if inproc:
        lines += ["## In-process (same servicers, no network), cache miss", "", *_table(header, inproc), "",
                  *_table(["pipeline", "clients", "mesh p50 ms", "in-process p50 ms", "ratio"],
                          [[r["pipeline"], r["concurrency"], r["mesh_p50_ms"], r["inprocess_p50_ms"], r["ratio"]]
                           for r in report.get("mesh_inprocess_p50_ratio", [])]), ""]
    for mode in dict.fromkeys(r["mode"] for r in runs if r["mode"].startswith("mesh, dense ")):
        lines += [f"## Through the mesh, {mode[6:]} (service restarted with it), cache miss", "",
                  *_table(header, _run_rows(runs, mode, "miss")), ""]
    if "levers" in report:
        lines += _lever_lines(report["levers"])
    lines += [f"![{p}]({p})" for p in plots] + [""]
    return "\n".join(lines)


def write_report(report: dict, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(report, indent=2, default=str))
    plots = plot_report(report["runs"], out_dir)
    (out_dir / "README.md").write_text(render_readme(report, plots))
