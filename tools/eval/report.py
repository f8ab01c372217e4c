"""Shared pieces of the benchmark reports: machine description, files, markdown tables.

The README of every report states the machine it ran on (bm25s's practice of
publishing speed tables with the hardware).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import subprocess
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np


def machine_info(gateway: str | None = None) -> dict[str, Any]:
    """CPU model, cores, RAM, Python, OS, UTC date and the repository commit."""
    info: dict[str, Any] = {
        "cpu_model": _cpu_model(),
        "cpu_cores": os.cpu_count(),
        "ram_gib": _ram_gib(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date_utc": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git_commit": _git_commit(),
    }
    if gateway:
        info["gateway"] = gateway
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _ram_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError):
        pass
    return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def machine_lines(info: Mapping[str, Any]) -> list[str]:
    return [f"- CPU: {info.get('cpu_model')} ({info.get('cpu_cores')} cores), RAM {info.get('ram_gib')} GiB",
            f"- Python {info.get('python')} on {info.get('platform')}",
            f"- Date (UTC): {info.get('date_utc')}; commit {info.get('git_commit') or 'unknown'}"
            + (f"; gateway {info['gateway']}" if info.get("gateway") else "")]


# ---- files -------------------------------------------------------------------------
def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (np.floating, np.integer)):
        return _jsonable(value.item())
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def write_json(path: Path, data: Any) -> None:
    """Strict JSON: NaN/inf become null so every consumer can parse the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_jsonable(data), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
                    encoding="utf-8")


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(_jsonable(dict(row)), ensure_ascii=False, allow_nan=False) + "\n")


# ---- numbers and tables --------------------------------------------------------------
def fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{float(value):.{digits}f}"


def fmt_p(p: float | None) -> str:
    if p is None or not math.isfinite(p):
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def md_table(header: Sequence[str], rows: Iterable[Sequence[Any]], digits: int = 3) -> list[str]:
    """A markdown table; numbers formatted with ``digits`` decimals, strings as given."""
    rows = [list(r) for r in rows]
    numeric = [i > 0 and any(not isinstance(r[i], str) or _looks_numeric(r[i]) for r in rows)
               for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(c if isinstance(c, str) else fmt(c, digits) for c in row) + " |")
    return lines


def _looks_numeric(text: str) -> bool:
    return bool(text) and (text[0].isdigit() or text[0] in "+-–<[")


def mean_or_none(values: Iterable[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def bootstrap_dict(result: tuple[float, float, float, float]) -> dict[str, float]:
    """Name the fields of :func:`tools.eval.metrics.paired_bootstrap`'s tuple for the JSON report."""
    mean_delta, ci_low, ci_high, p_value = result
    return {"mean_delta": mean_delta, "ci_low": ci_low, "ci_high": ci_high, "p_value": p_value}


def bootstrap_mean_ci(values: Sequence[float], n: int = 1000, seed: int = 42,
                      level: float = 0.95) -> tuple[float, float]:
    """Percentile CI of a mean over resampled queries (error bars of the metric plots;
    1,000 resamples, seed 42 like the paired tests: seed 000 section 3.7)."""
    x = np.asarray([v for v in values if v is not None], dtype=np.float64)
    if x.size == 0:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(n, x.size))].mean(axis=1)
    tail = (1.0 - level) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)

