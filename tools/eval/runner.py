"""Run benchmark queries through the gateway and keep per-query telemetry.

Every request goes through the real mesh with ``no_cache=True`` so the latencies
are real, and each pipeline gets one unrecorded warm-up request first (lazy model
loads and connection set-up would otherwise land on the first query's latency).
"""

from __future__ import annotations

import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import grpc
from tqdm import tqdm

from chsr.client import GatewayClient, rpc_error_message
from tools.runfile import response_to_record

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class QuerySpec:
    """One benchmark request: id, text and optional client scope hints."""

    query_id: str
    text: str
    hints: Mapping[str, Any] | None = None


@dataclass
class PipelineRun:
    pipeline: str
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [r for r in self.records if "error" in r]


def run_pipeline(client: GatewayClient, pipeline: str, queries: Sequence[QuerySpec], k: int,
                 concurrency: int = 2, timeout_s: float = 60.0, warmup: bool = True) -> PipelineRun:
    """Send every query once; a failed query keeps a record with ``error`` and no results."""

    def one(q: QuerySpec) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            resp = client.search(q.text, k, pipeline, dict(q.hints) if q.hints else None,
                                 no_cache=True, timeout=timeout_s)
        except grpc.RpcError as exc:
            return {"query_id": q.query_id, "pipeline": pipeline, "results": [], "error": rpc_error_message(exc),
                    "latency_ms": (time.perf_counter() - start) * 1000}
        record = response_to_record(q.query_id, resp)
        record["latency_ms"] = (time.perf_counter() - start) * 1000
        record["pipeline"] = pipeline
        return record

    if warmup and queries:
        warm = one(queries[0])
        if "error" in warm:
            log.warning("warm-up request for pipeline %s failed: %s", pipeline, warm["error"])
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        records = list(tqdm(pool.map(one, queries), total=len(queries), desc=pipeline, unit="q",
                            file=sys.stderr, leave=False))
    run = PipelineRun(pipeline, records)
    if run.errors:
        log.warning("pipeline %s: %d of %d queries failed (first: %s)", pipeline, len(run.errors),
                    len(records), run.errors[0]["error"])
    return run


def run_id_map(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """``{query_id: {doc_id: score}}`` for the metrics library, ranks kept by descending score.

    Scores are replaced by ``1 / rank`` so ties and non-monotone fused scores cannot
    reorder what the gateway returned.
    """
    out: dict[str, dict[str, float]] = {}
    for rec in records:
        docs: dict[str, float] = {}
        for rank, r in enumerate(rec.get("results", []), start=1):
            docs.setdefault(r["doc_id"], 1.0 / rank)
        out[str(rec["query_id"])] = docs
    return out


def index_summary(client: GatewayClient) -> dict[str, int]:
    """Documents per backend; refuse to benchmark an empty index (a silent all-zero report)."""
    stats = client.stats()
    counts = {b.backend: int(b.documents) for b in stats.backends}
    if not any(counts.values()):
        raise RuntimeError(f"the gateway at {client.address} has an empty index: ingest the corpus first")
    return counts
