"""The gate through the mesh, scored the way the held-out check scores it.

``queries``: a case file (``cases.*.jsonl`` schema) -> a ``chsr run`` queries file (query text
only: ``{"_id": case_id, "text": query}``; a ``--sample`` keeps every n-th case, stratified by
order). ``summary``: the shared scorer's ``--json`` outputs per (set, pipeline) -> one markdown
table (nDCG@8, leakage, exact-scope success, abstention, empty) plus gate-stage latency read
from the run files. Used by ``scripts/bench_gate_mesh.sh``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

METRICS = (("ndcg", "nDCG@8"), ("leakage", "leakage"), ("ess", "exact-scope success"),
           ("abstain_ok", "abstention"), ("empty", "empty"))


def write_queries(cases: Path, out: Path, sample: int, cases_out: Path | None = None) -> int:
    """The queries file; with ``cases_out`` also the sampled cases (the scorer must see the same set)."""
    lines = [line for line in cases.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = lines[::sample] if sample > 1 else lines
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for line in kept:
            case = json.loads(line)
            fh.write(json.dumps({"_id": case["case_id"], "text": case["query"]}, ensure_ascii=False) + "\n")
    if cases_out is not None:
        cases_out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return len(kept)


def _p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(0.95 * len(values)))] if values else 0.0


def _stage(run: Path, stage: str) -> tuple[float, float]:
    ms = [json.loads(line)["timings_ms"].get(stage, 0.0) for line in run.read_text().splitlines() if line.strip()]
    return (statistics.median(ms) if ms else 0.0), _p95(ms)


def summary(root: Path, sets: list[str], pipelines: list[str]) -> str:
    lines = ["| pipeline | set | " + " | ".join(label for _, label in METRICS) + " | probe p50/p95 ms | gate p50/p95 ms |",
             "|---|---|" + "---:|" * (len(METRICS) + 2)]
    for name in sets:
        for pipeline in pipelines:
            scored = root / f"{name}-{pipeline}.score.json"
            if not scored.is_file():
                continue
            agg = json.loads(scored.read_text())["aggregate"]
            cells = ["-" if agg.get(key) is None else f"{agg[key]:.3f}" for key, _ in METRICS]
            run = root / f"{name}-{pipeline}.run.jsonl"
            probe, gate = _stage(run, "probe"), _stage(run, "gate")
            lines.append(f"| {pipeline} | {name} | " + " | ".join(cells) +
                         f" | {probe[0]:.1f} / {probe[1]:.1f} | {gate[0]:.1f} / {gate[1]:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("queries")
    q.add_argument("cases", type=Path)
    q.add_argument("out", type=Path)
    q.add_argument("--sample", type=int, default=1)
    q.add_argument("--cases-out", type=Path)
    s = sub.add_parser("summary")
    s.add_argument("root", type=Path)
    s.add_argument("--sets", default="dev,generated")
    s.add_argument("--pipelines", default="B,C,E")
    args = ap.parse_args(argv)
    if args.cmd == "queries":
        sys.stdout.write(f"{write_queries(args.cases, args.out, args.sample, args.cases_out)} queries -> {args.out}\n")
    else:
        sys.stdout.write(summary(args.root, args.sets.split(","), args.pipelines.split(",")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
