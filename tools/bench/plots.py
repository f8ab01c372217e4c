"""PNG plots of a load report: latency vs concurrency and QPS vs concurrency (matplotlib, Agg)."""

from __future__ import annotations

from pathlib import Path

LATENCY_PNG = "latency_vs_concurrency.png"
QPS_PNG = "qps_vs_concurrency.png"


def _series(runs: list[dict], mode: str, cache: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in runs:
        if r["mode"] == mode and r["cache"] == cache:
            out.setdefault(r["pipeline"], []).append(r)
    return {p: sorted(rs, key=lambda r: r["concurrency"]) for p, rs in out.items()}


def plot_report(runs: list[dict], out_dir: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    miss, hit = _series(runs, "mesh", "miss"), _series(runs, "mesh", "hit")
    variants = {mode: _series(runs, mode, "miss") for mode in dict.fromkeys(r["mode"] for r in runs)
                if mode.startswith("mesh, dense ")}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharex=True)
    for ax, pct in zip(axes, ("p50", "p95")):
        for pipeline, rs in miss.items():
            line, = ax.plot([r["concurrency"] for r in rs], [r["latency_ms"][pct] for r in rs], "o-",
                            label=f"{pipeline} miss")
            if pipeline in hit:
                hs = hit[pipeline]
                ax.plot([r["concurrency"] for r in hs], [r["latency_ms"][pct] for r in hs], "s--",
                        color=line.get_color(), alpha=0.6, label=f"{pipeline} hit")
        for mode, series in variants.items():
            for pipeline, rs in series.items():
                ax.plot([r["concurrency"] for r in rs], [r["latency_ms"][pct] for r in rs], "x:",
                        label=f"{pipeline} miss, {mode[6:]}")
        ax.set_title(f"end-to-end {pct} latency")
        ax.set_xlabel("concurrent clients")
        ax.set_ylabel("ms")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out_dir / LATENCY_PNG, dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.2))
    lines = [("miss", miss, "o-"), ("hit", hit, "s--")] + [(f"miss, {m[6:]}", v, "x:") for m, v in variants.items()]
    for label, series, style in lines:
        for pipeline, rs in series.items():
            ax.plot([r["concurrency"] for r in rs], [r["qps"] for r in rs], style, label=f"{pipeline} {label}")
    ax.set_title("throughput (successful answers / s)")
    ax.set_xlabel("concurrent clients")
    ax.set_ylabel("QPS")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out_dir / QPS_PNG, dpi=110)
    plt.close(fig)
    return [LATENCY_PNG, QPS_PNG]
