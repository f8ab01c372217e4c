"""Cluster vs single node, from two load reports measured in one run (issue 22, item 4).

    python -m tools.bench.cluster_ratio SINGLE/report.json CLUSTER/report.json --out OUT

Writes ``OUT/ratio.json`` and ``OUT/README.md``: per pipeline and concurrency (cache-miss runs) the p50 / p95
latency and QPS of each, their ratios (cluster / single; the target is a C p95 ratio <= 2), and the CPU cores each
process used, summed per engine, so the overhead can be read off where it goes (engine nodes vs the mesh).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

P95_RATIO_TARGET = 2.0   # issue 22: 3-node clusters, C p95 <= 2 x single node, in one run


def _key(run: dict[str, Any]) -> tuple[str, int]:
    return str(run["pipeline"]), int(run["concurrency"])


def miss_runs(report: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    """A load report's uncached mesh runs, keyed by (pipeline, clients)."""
    return {_key(r): r for r in report["runs"] if r["mode"] == "mesh" and r["cache"] == "miss"}


def engine_cores(cpu_cores: dict[str, float]) -> dict[str, float]:
    """Cores per kind of process: ``elasticsearch-1..3`` summed as ``elasticsearch``, and so on."""
    out: dict[str, float] = {}
    for name, cores in cpu_cores.items():
        kind = re.sub(r"-\d+$", "", name)
        out[kind] = round(out.get(kind, 0.0) + cores, 3)
    return out


def compare(single: dict[str, Any], cluster: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (pipeline, concurrency) measured in both reports."""
    a, b = miss_runs(single), miss_runs(cluster)
    rows = []
    for key in sorted(set(a) & set(b)):
        s, c = a[key], b[key]
        s95, c95 = s["latency_ms"]["p95"], c["latency_ms"]["p95"]
        rows.append({
            "pipeline": key[0], "concurrency": key[1],
            "single": {"p50_ms": s["latency_ms"]["p50"], "p95_ms": s95, "qps": s["qps"],
                       "cores": engine_cores(s.get("cpu_cores", {}))},
            "cluster": {"p50_ms": c["latency_ms"]["p50"], "p95_ms": c95, "qps": c["qps"],
                        "cores": engine_cores(c.get("cpu_cores", {}))},
            "p95_ratio": round(c95 / s95, 2) if s95 else None,
            "qps_ratio": round(c["qps"] / s["qps"], 2) if s["qps"] else None,
        })
    return rows


def readme(rows: list[dict[str, Any]], single: dict[str, Any], cluster: dict[str, Any]) -> str:
    m = single["machine"]
    lines = [
        "# 3-node clusters vs single node, one run (issue 22, item 4)", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB. Single-node run {m['date_utc']} (load before "
        f"{m['load_before']}, after {m.get('load_after')}); cluster run {cluster['machine']['date_utc']} (load before "
        f"{cluster['machine']['load_before']}, after {cluster['machine'].get('load_after')}). Both: the same mesh "
        "settings, queries and corpus, cache miss; the engines and the mesh share the same 2 cores.", "",
        "| pipeline | clients | single p50 / p95 ms | cluster p50 / p95 ms | p95 ratio | single QPS | cluster QPS "
        "| QPS ratio | met (p95 ratio <= 2) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        s, c = r["single"], r["cluster"]
        met = "yes" if r["p95_ratio"] is not None and r["p95_ratio"] <= P95_RATIO_TARGET else "**no**"
        lines.append(f"| {r['pipeline']} | {r['concurrency']} | {s['p50_ms']:.1f} / {s['p95_ms']:.1f} | "
                     f"{c['p50_ms']:.1f} / {c['p95_ms']:.1f} | {r['p95_ratio']} | {s['qps']:.1f} | {c['qps']:.1f} | "
                     f"{r['qps_ratio']} | {met} |")
    lines += ["", "CPU cores used during each run, per kind of process (engine nodes summed):", "",
              "| pipeline | clients | single | cluster |", "|---|---:|---|---|"]
    for r in rows:
        fmt = lambda cores: ", ".join(f"{k} {v:.2f}" for k, v in sorted(cores.items()) if v >= 0.01)  # noqa: E731
        lines.append(f"| {r['pipeline']} | {r['concurrency']} | {fmt(r['single']['cores'])} | "
                     f"{fmt(r['cluster']['cores'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("single", type=Path)
    ap.add_argument("cluster", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    single, cluster = json.loads(a.single.read_text()), json.loads(a.cluster.read_text())
    rows = compare(single, cluster)
    if not rows:
        raise SystemExit("no (pipeline, concurrency) cache-miss run is in both reports")
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "ratio.json").write_text(json.dumps({"target_p95_ratio": P95_RATIO_TARGET, "rows": rows}, indent=1))
    (a.out / "README.md").write_text(readme(rows, single, cluster))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
