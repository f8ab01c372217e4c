"""Hand-written probes through a running mesh: what the gate answers, and whether a known item comes first.

Probes are written from an issue's text, not from a case file (``benchmarks/cerb-generalisation/mesh-round11``).
Each line of the input is ``{"query": ..., "target": doc id (optional), "scope": {field: value} (optional)}``.
The report is a markdown table: the answer's size, its relaxation step, the papers / levels / years it holds and
the answer's notes; for a probe with a target, whether the target is at rank 1 and how many results fall outside
the expected scope (compared field by field with the chunk's metadata, as the curriculum scorer does).

    python -m tools.gate.hand_probes PROBES.jsonl --gateway 127.0.0.1:57051 --out probes.md
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from chsr.client import GatewayClient
from chsr.documents import metadata_from_proto
from chsr.v1 import common_pb2, gateway_pb2


@dataclass(frozen=True)
class Verdict:
    """How an answer meets a probe with a target: the target's 1-based rank (0: absent) and the results whose
    metadata differs from the expected scope on any of its fields."""

    rank: int
    out_of_scope: int

    @property
    def passed(self) -> bool:
        return self.rank == 1 and self.out_of_scope == 0


def judge(results: Sequence[tuple[str, Mapping[str, Any]]], target: str, scope: Mapping[str, Any]) -> Verdict:
    """``results``: (doc id, metadata) best first."""
    ids = [doc_id for doc_id, _ in results]
    rank = ids.index(target) + 1 if target in ids else 0
    outside = sum(1 for _, meta in results if any(meta.get(k) != v for k, v in scope.items()))
    return Verdict(rank, outside)


def _row(probe: Mapping[str, Any], resp: gateway_pb2.SearchResponse) -> tuple[str, Verdict | None]:
    step = common_pb2.RelaxationStep.Name(resp.final_step).removeprefix("RELAXATION_STEP_")
    held = "; ".join(dict.fromkeys(f"{r.metadata.paper or r.metadata.subject} {r.metadata.level} "
                                   f"{r.metadata.year or ''}".strip() for r in resp.results))
    verdict = None
    if probe.get("target"):
        verdict = judge([(r.doc_id, metadata_from_proto(r.metadata)) for r in resp.results], probe["target"], probe.get("scope", {}))
    check = "" if verdict is None else (f"{'pass' if verdict.passed else 'FAIL'} (target rank {verdict.rank}, "
                                        f"{verdict.out_of_scope} outside the scope)")
    answer = f"{len(resp.results)} results, {step}" + (f": {held}" if held else "")
    notes = " / ".join(resp.scope_notes)
    return f"| {probe['query']} | {answer} | {notes} | {check} |", verdict


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probes", type=Path)
    ap.add_argument("--gateway", default="127.0.0.1:50051")
    ap.add_argument("--pipeline", default="E")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    client = GatewayClient(a.gateway)
    rows = ["| query | answer | notes | target |", "|---|---|---|---|"]
    verdicts: list[Verdict] = []
    for line in a.probes.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        probe = json.loads(line)
        row, verdict = _row(probe, client.search(probe["query"], k=8, pipeline=a.pipeline, no_cache=True))
        rows.append(row)
        if verdict is not None:
            verdicts.append(verdict)
    a.out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    sys.stdout.write(f"{len(rows) - 2} probes; with a target: {sum(v.passed for v in verdicts)} of {len(verdicts)} "
                     f"pass -> {a.out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
