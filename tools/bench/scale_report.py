"""Plots and tables for ``tools.bench.scale`` (``<out>/results.json`` -> ``*.png`` + ``tables.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SERIES = ("elasticsearch/ungated", "elasticsearch/gated", "weaviate/ungated", "weaviate/gated")


def _get(row: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(row, dict) or key not in row:
            return None
        row = row[key]
    return row


def _multi(row: dict[str, Any], section: dict[str, Any]) -> dict[str, Any]:
    return next((v for k, v in section.items() if k != "c1"), {})


def _plot(out: Path, name: str, title: str, ylabel: str, xs: list[int], lines: dict[str, list[Any]],
          log_y: bool = False) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, ys in lines.items():
        pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel("corpus size (chunks)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)


def write_report(out: Path) -> str:
    data = json.loads((out / "results.json").read_text())
    rows = data["sizes"]
    xs = [r["size"] for r in rows]
    lat: dict[str, list[Any]] = {}
    qps: dict[str, list[Any]] = {}
    for s in SERIES:
        lat[f"{s} p50"] = [_get(r, "engines", s, "c1", "latency_ms", "p50") for r in rows]
        lat[f"{s} p95"] = [_get(r, "engines", s, "c1", "latency_ms", "p95") for r in rows]
        qps[s] = [_multi(r, _get(r, "engines", s) or {}).get("qps") for r in rows]
    lat["end-to-end C p50"] = [_get(r, "end_to_end", "c1", "latency_ms", "p50") for r in rows]
    lat["end-to-end C p95"] = [_get(r, "end_to_end", "c1", "latency_ms", "p95") for r in rows]
    qps["end-to-end C"] = [_multi(r, _get(r, "end_to_end") or {}).get("qps") for r in rows]
    _plot(out, "latency_vs_size.png", "p50 / p95 at one client (ids + scores, depth 100)", "ms", xs, lat, log_y=True)
    _plot(out, "qps_vs_size.png", "QPS, closed loop (engines: 4 clients, end to end: 8)", "queries / s", xs, qps)
    mem = {f"{e} RSS": [_get(r, "footprint_after_queries", e, "rss_mb") for r in rows] for e in ("elasticsearch", "weaviate")}
    mem["elasticsearch heap used"] = [_get(r, "footprint_after_queries", "elasticsearch", "heap_used_mb") for r in rows]
    _plot(out, "memory_vs_size.png", "engine memory", "MB", xs, mem, log_y=True)
    disk = {f"{e} data dir": [_get(r, "footprint", e, "disk_mb") for r in rows] for e in ("elasticsearch", "weaviate")}
    _plot(out, "disk_vs_size.png", "data on disk", "MB", xs, disk, log_y=True)
    ingest = {e: [_get(r, "ingest", e, "docs_per_s") for r in rows] for e in ("elasticsearch", "weaviate")}
    _plot(out, "ingest_vs_size.png", "ingest rate of each increment (product upserts, vectors precomputed)",
          "documents / s", xs, ingest)

    lines = ["| size | engine | variant | p50 ms | p95 ms | QPS (4 clients) | p95 ms (4 clients) | load avg |",
             "|---:|---|---|---:|---:|---:|---:|---|"]
    for r in rows:
        for s in SERIES:
            c1 = _get(r, "engines", s, "c1") or {}
            cn = _multi(r, _get(r, "engines", s) or {})
            eng, var = s.split("/")
            lines.append(f"| {r['size']:,} | {eng} | {var} | {_f(_get(c1, 'latency_ms', 'p50'))} | "
                         f"{_f(_get(c1, 'latency_ms', 'p95'))} | {_f(cn.get('qps'))} | {_f(_get(cn, 'latency_ms', 'p95'))} | "
                         f"{c1.get('load_before')} |")
    lines += ["", "| size | end-to-end C p50 ms | p95 ms | QPS (8 clients) | p95 ms (8 clients) | degraded | load avg |",
              "|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        c1 = _get(r, "end_to_end", "c1") or {}
        cn = _multi(r, _get(r, "end_to_end") or {})
        lines.append(f"| {r['size']:,} | {_f(_get(c1, 'latency_ms', 'p50'))} | {_f(_get(c1, 'latency_ms', 'p95'))} | "
                     f"{_f(cn.get('qps'))} | {_f(_get(cn, 'latency_ms', 'p95'))} | {c1.get('degraded', '')}/{cn.get('degraded', '')} | "
                     f"{c1.get('load_before')} |")
    lines += ["", "| size | ES RSS MB | ES heap MB | ES disk MB | ES ingest docs/s | Weaviate RSS MB | Weaviate disk MB | "
              "Weaviate ingest docs/s |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        f = r.get("footprint_after_queries", {})
        lines.append(f"| {r['size']:,} | {_f(_get(f, 'elasticsearch', 'rss_mb'))} | {_f(_get(f, 'elasticsearch', 'heap_used_mb'))} | "
                     f"{_f(_get(r, 'footprint', 'elasticsearch', 'disk_mb'))} | {_f(_get(r, 'ingest', 'elasticsearch', 'docs_per_s'))} | "
                     f"{_f(_get(f, 'weaviate', 'rss_mb'))} | {_f(_get(r, 'footprint', 'weaviate', 'disk_mb'))} | "
                     f"{_f(_get(r, 'ingest', 'weaviate', 'docs_per_s'))} |")
    text = "\n".join(lines) + "\n"
    (out / "tables.md").write_text(text)
    return text


def _f(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.1f}" if v >= 10 else f"{v:.2f}"
    return str(v)
