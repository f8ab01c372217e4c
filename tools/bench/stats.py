"""Summaries of a load run: throughput, end-to-end and per-stage latency percentiles.

Per-stage figures come from ``SearchResponse.timings`` (the gateway's own
measurement of each stage call), end-to-end from the client's wall clock.
Percentiles are NumPy's linear interpolation over successful requests only;
errors are counted by status code beside them.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

import numpy as np

from tools.bench.driver import Sample
from chsr.stages import ALL_STAGES

PERCENTILES = (50, 95, 99)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {f"p{p}": float("nan") for p in PERCENTILES} | {"mean": float("nan"), "max": float("nan")}
    arr = np.asarray(values, dtype=np.float64)
    out = {f"p{p}": round(float(np.percentile(arr, p)), 3) for p in PERCENTILES}
    return out | {"mean": round(float(arr.mean()), 3), "max": round(float(arr.max()), 3)}


def stage_percentiles(samples: Iterable[Sample]) -> dict[str, dict[str, float]]:
    per_stage: dict[str, list[float]] = {}
    for s in samples:
        for stage, ms in s.timings.items():
            per_stage.setdefault(stage, []).append(ms)
    order = {name: i for i, name in enumerate(ALL_STAGES)}
    return {stage: percentiles(v) for stage, v in sorted(per_stage.items(), key=lambda kv: order.get(kv[0], 99))}


def summarise(samples: list[Sample], wall_s: float) -> dict[str, object]:
    """One run's figures; QPS counts successful answers per second of wall time."""
    ok = [s for s in samples if s.code == "OK"]
    return {
        "requests": len(samples),
        "ok": len(ok),
        "errors": dict(Counter(s.code for s in samples if s.code != "OK")),
        "degraded": sum(1 for s in ok if s.degraded),
        "cache_hits": sum(1 for s in ok if s.cache_hit),
        "wall_s": round(wall_s, 3),
        "qps": round(len(ok) / wall_s, 2) if wall_s > 0 else 0.0,
        "latency_ms": percentiles([s.latency_ms for s in ok]),
        "stages_ms": stage_percentiles(ok),
    }
