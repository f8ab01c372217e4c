"""Run-file records (`chsr run` format) and TREC output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chsr.scope import Scope
from chsr.stages import TIMING_STAGES
from chsr.relaxation import step_name
from chsr.v1 import common_pb2, gateway_pb2



def response_to_record(query_id: str, resp: gateway_pb2.SearchResponse) -> dict[str, Any]:
    timings = {t.stage: round(t.ms, 3) for t in resp.timings}
    return {
        "query_id": query_id,
        "results": [{"doc_id": r.doc_id, "score": r.score, "relaxation": step_name(r.relaxation),
                     "violations": list(r.violations), "metadata": _meta(r.metadata),
                     "citation": _citation(r.citation)} for r in resp.results],
        "scope": Scope.from_proto(resp.scope).to_dict(),
        "relaxation_trace": [{"step": step_name(a.step), "filter": Scope.from_proto(a.filter).to_dict(),
                              "admissible": a.admissible, "on_topic": a.on_topic, "accepted": a.accepted,
                              "reason": a.reason} for a in resp.relaxation_trace],
        "final_step": step_name(resp.final_step),
        "timings_ms": {s: timings.get(s, 0.0) for s in TIMING_STAGES} | {"cache": timings.get("cache", 0.0)},
        "cache_hit": resp.cache_hit,
        "degraded": list(resp.degraded),
        "fusion_telemetry": dict(resp.fusion_telemetry),
    }


def _meta(m: common_pb2.Metadata) -> dict[str, Any]:
    return {f.name: v for f, v in m.ListFields()}


def _citation(c: common_pb2.Citation) -> dict[str, Any]:
    """``{"source", "page_start", "page_end", "heading_path"}``; pages null for unpaged sources."""
    return {"source": c.source or c.title, "page_start": c.page_start if c.HasField("page_start") else None,
            "page_end": c.page_end if c.HasField("page_end") else None, "heading_path": list(c.heading_path)}


def write_trec(records: list[dict[str, Any]], path: Path, tag: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        for rec in records:
            for rank, r in enumerate(rec["results"], start=1):
                fh.write(f"{rec['query_id']} Q0 {r['doc_id']} {rank} {r['score']:.6f} {tag}\n")
