"""Tables and figures of the gate-generalisation report (benchmarks/cerb-generalisation/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np


def field_table(acc: Mapping[str, Mapping[str, Mapping[str, float]]], fields: Sequence[str]) -> str:
    """``acc[gate][field] = {accuracy, coverage, wrong, extra, n_gold}`` -> markdown."""
    gates = list(acc)
    head = "| field | " + " | ".join(f"{g} acc | {g} cov | {g} wrong | {g} extra" for g in gates) + " | gold n |"
    lines = [head, "|---|" + "---:|" * (4 * len(gates) + 1)]
    for f in fields:
        cells = []
        for g in gates:
            a = acc[g].get(f, {})
            cells += [f"{a.get('accuracy', 0):.3f}", f"{a.get('coverage', 0):.3f}", f"{a.get('wrong', 0):.3f}",
                      f"{a.get('extra', 0):.3f}"]
        n = next(iter(acc.values())).get(f, {}).get("n_gold", 0)
        lines.append(f"| {f} | " + " | ".join(cells) + f" | {n} |")
    return "\n".join(lines)


def metrics_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """``rows[label] = aggregate`` (curriculum_score.agg output: metric -> (value, n))."""
    cols = ("ndcg", "leakage", "ess", "abstain_ok", "empty")
    names = {"ndcg": "nDCG@8", "leakage": "leakage", "ess": "exact-scope success", "abstain_ok": "abstention",
             "empty": "empty"}
    lines = ["| pipeline | set | " + " | ".join(names[c] for c in cols) + " |", "|---|---|" + "---:|" * len(cols)]
    for label, agg in rows.items():
        pipe, _, subset = label.partition("@")
        vals = [("-" if agg[c][0] is None else f"{agg[c][0]:.3f}") for c in cols]
        lines.append(f"| {pipe} | {subset} | " + " | ".join(vals) + " |")
    return "\n".join(lines)


def kind_table(by_kind: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    pipes = list(next(iter(by_kind.values()))) if by_kind else []
    lines = ["| kind | n | " + " | ".join(pipes) + " |", "|---|---:|" + "---:|" * len(pipes)]
    fmt = lambda v: "-" if v[0] is None else f"{v[0]:.2f}"
    for kind in sorted(by_kind):
        row = by_kind[kind]
        n = row[pipes[0]]["empty"][1]
        cells = [f"{fmt(row[p]['ndcg'])} / {fmt(row[p]['leakage'])} / {fmt(row[p]['ess'] if row[p]['ess'][1] else row[p]['abstain_ok'])}"
                 for p in pipes]
        lines.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def calibration_table(ece: Mapping[str, tuple[float, int, float]]) -> str:
    lines = ["| field | candidates | positive rate | ECE (10 bins, out-of-fold) |", "|---|---:|---:|---:|"]
    for f, (e, n, rate) in ece.items():
        lines.append(f"| {f} | {n} | {rate:.3f} | {e:.4f} |")
    return "\n".join(lines)


def reliability_plot(path: Path, bins: Mapping[str, list[tuple[float, float, int]]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(bins)
    cols = min(4, len(names))
    rows = int(np.ceil(len(names) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        table = bins[name]
        ax.plot([0, 1], [0, 1], "--", color="grey", lw=1)
        if table:
            conf, acc, n = zip(*table)
            ax.plot(conf, acc, "o-", ms=4)
            for c, a, k in table:
                ax.annotate(str(k), (c, a), fontsize=6, xytext=(2, -8), textcoords="offset points")
        ax.set_title(name, fontsize=9)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("predicted p", fontsize=8)
        ax.set_ylabel("observed rate", fontsize=8)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def bar_plot(path: Path, rows: Mapping[str, Mapping[str, Any]], metric: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(rows)
    vals = [rows[label][metric][0] or 0.0 for label in labels]
    fig, ax = plt.subplots(figsize=(max(5, 0.6 * len(labels)), 3.2))
    ax.bar(range(len(labels)), vals, color=["#888" if l.startswith("B") else "#4a7" if "new" in l else "#c74" for l in labels])
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    ax.set_title(title, fontsize=10)
    for i, v in enumerate(vals):
        ax.text(i, v, f"{v:.2f}", ha="center", va="bottom", fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
