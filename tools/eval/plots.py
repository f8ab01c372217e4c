"""PNG plots of the benchmark reports (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def metric_bars(path: Path, pipelines: Sequence[str], metrics: Sequence[str],
                means: Mapping[str, Mapping[str, float | None]],
                cis: Mapping[str, Mapping[str, tuple[float, float]]], title: str) -> None:
    """Grouped bars: one group per metric, one bar per pipeline, 95% bootstrap CI whiskers."""
    fig, ax = plt.subplots(figsize=(max(7.0, 0.3 * len(metrics) * max(1, len(pipelines)) + 3), 4.5))
    width = 0.8 / max(1, len(pipelines))
    x = np.arange(len(metrics))
    for i, p in enumerate(pipelines):
        vals = np.array([_num(means[p].get(m)) for m in metrics])
        lo = np.array([_num(cis.get(p, {}).get(m, (np.nan, np.nan))[0]) for m in metrics])
        hi = np.array([_num(cis.get(p, {}).get(m, (np.nan, np.nan))[1]) for m in metrics])
        err = np.vstack([np.clip(vals - lo, 0, None), np.clip(hi - vals, 0, None)])
        err = np.nan_to_num(err)
        ax.bar(x + (i - (len(pipelines) - 1) / 2) * width, np.nan_to_num(vals), width, yerr=err,
               capsize=2, label=p)
    ax.set_xticks(x, list(metrics))
    ax.set_ylim(0, 1.15)  # headroom for the legend
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=min(4, max(1, len(pipelines))), loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def latency_distributions(path: Path, latencies: Mapping[str, Sequence[float]], title: str) -> None:
    """Box plot of end-to-end latency per pipeline on a log axis (tails matter: p95/p99)."""
    names = [p for p, ms in latencies.items() if len(ms)]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(names) + 2), 4.5))
    if names:
        ax.boxplot([list(latencies[p]) for p in names], whis=(1, 99), showfliers=True)
        ax.set_xticks(range(1, len(names) + 1), names, rotation=45, ha="right")
        ax.set_yscale("log")
    ax.set_ylabel("latency (ms, client round trip)")
    ax.set_title(title + " (whiskers p1-p99)")
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def scatter_labelled(path: Path, points: Mapping[str, tuple[float | None, float | None]],
                     xlabel: str, ylabel: str, title: str) -> None:
    """One labelled point per variant (e.g. curriculum-tuple leakage vs exact-scope success)."""
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for name, (x, y) in points.items():
        if x is None or y is None:
            continue
        ax.scatter([x], [y], s=40)
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(5, 4))
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    _save(fig, path)


def grouped_bars(path: Path, groups: Sequence[str], series: Mapping[str, Mapping[str, float | None]],
                 ylabel: str, title: str) -> None:
    """Bars per group (e.g. slice), one bar per series (e.g. variant); missing values are gaps."""
    names = list(series)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.25 * len(groups) * max(1, len(names)) + 2), 4.5))
    width = 0.8 / max(1, len(names))
    x = np.arange(len(groups))
    for i, name in enumerate(names):
        vals = np.array([_num(series[name].get(g)) for g in groups])
        ax.bar(x + (i - (len(names) - 1) / 2) * width, np.nan_to_num(vals), width, label=name)
    ax.set_xticks(x, list(groups), rotation=30, ha="right")
    ax.set_ylim(0, 1.15)  # headroom for the legend
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=min(6, max(1, len(names))))
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def _num(v: float | None) -> float:
    return float("nan") if v is None else float(v)


def _save(fig: plt.Figure, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
