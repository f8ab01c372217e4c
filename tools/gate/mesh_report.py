"""The gate through the mesh, scored the way the held-out check scores it.

``queries``: a case file (``cases.*.jsonl`` schema) -> a ``chsr run`` queries file (query text
only: ``{"_id": case_id, "text": query}``; a ``--sample`` keeps every n-th case, stratified by
order). ``summary``: the shared scorer's ``--json`` outputs per (set, pipeline) -> one markdown
table (nDCG@8, leakage, exact-scope success, abstention, empty) plus gate-stage latency read
from the run files. ``breakdown``: per task type and slice, the sets side by side, and the gap between
generated and validation, plain and with generated re-weighted to dev's slice x task-type mix (dev and
validation share their authoring; the generated set's mix is only its kind counts). Used by
``scripts/bench_gate_mesh.sh``.
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


def _mean(rows: list[dict], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return sum(values) / len(values) if values else None


def _cell(rows: list[dict]) -> str:
    if not rows:
        return "-"
    parts = [_mean(rows, key) for key in ("ndcg", "leakage", "ess")]
    return f"{len(rows)}: " + " / ".join("-" if v is None else f"{v:.2f}" for v in parts)


def breakdown(root: Path, sets: list[str], pipeline: str) -> str:
    """Per task type and per slice, each set side by side: ``n: nDCG@8 / leakage / exact-scope success``; then
    how far generated (and the authored set) are from validation on leakage and exact-scope success (the issue 21
    protocol)."""
    per = {}
    for name in sets:
        scored = root / f"{name}-{pipeline}.score.json"
        if scored.is_file():
            per[name] = json.loads(scored.read_text())["per_case"]
    if not per:
        return ""
    out = [f"### pipeline {pipeline}: n: nDCG@8 / leakage / exact-scope success", ""]
    for group in ("task_type", "slice"):
        values = sorted({r[group] for rows in per.values() for r in rows})
        out += [f"| {group} | " + " | ".join(per) + " |", "|---|" + "---:|" * len(per)]
        for value in values:
            out.append(f"| {value} | " + " | ".join(_cell([r for r in rows if r[group] == value])
                                                    for rows in per.values()) + " |")
        out.append("")
    for name in ("generated", "authored"):
        if name in per and "validation" in per:
            out += [gap_line(name, per[name], per["validation"]), ""]
            if name == "generated" and "dev" in per:
                out += [mix_line(per["generated"], per["dev"], per["validation"]), ""]
    return "\n".join(out) + "\n"


def gap_line(name: str, rows: list[dict], validation: list[dict]) -> str:
    """How far a measuring set is from validation on leakage and exact-scope success (the issue 21 protocol)."""
    gaps = []
    for key, label in (("leakage", "leakage"), ("ess", "exact-scope success")):
        mine, val = _mean(rows, key), _mean(validation, key)
        if mine is not None and val is not None:
            gaps.append(f"{label} {name} {mine:.3f} vs validation {val:.3f} (gap {mine - val:+.3f})")
    return f"{name.capitalize()} vs validation: " + "; ".join(gaps)


def _cell_of(row: dict) -> tuple[str, str]:
    return row["slice"], row["task_type"]


def mix_weighted(rows: list[dict], mix: list[dict], key: str) -> tuple[float | None, float]:
    """``key``'s mean over ``rows``, each (slice, task type) cell weighted by how many of ``mix``'s cases (with a
    value for ``key``) fall in it; cells ``rows`` lacks are left out. Returns (mean, share of ``mix`` covered)."""
    weights: dict[tuple[str, str], int] = {}
    for row in mix:
        if row.get(key) is not None:
            weights[_cell_of(row)] = weights.get(_cell_of(row), 0) + 1
    num = den = 0.0
    for cell, weight in weights.items():
        mean = _mean([r for r in rows if _cell_of(r) == cell], key)
        if mean is not None:
            num, den = num + weight * mean, den + weight
    total = sum(weights.values())
    return (num / den if den else None), (den / total if total else 0.0)


def mix_line(generated: list[dict], dev: list[dict], validation: list[dict]) -> str:
    """Generated re-weighted to dev's slice x task-type mix (dev and validation share their authoring; the generated
    set's mix is its kind counts), beside validation: how far apart they are once the mix is the authored one."""
    parts = []
    for key, label in (("leakage", "leakage"), ("ess", "exact-scope success")):
        gen, covered = mix_weighted(generated, dev, key)
        val = _mean(validation, key)
        if gen is not None and val is not None:
            parts.append(f"{label} {gen:.3f} vs validation {val:.3f} (gap {gen - val:+.3f}; "
                         f"cells covering {covered:.0%} of dev's cases)")
    return "Generated weighted to dev's slice x task-type mix: " + "; ".join(parts)


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
    b = sub.add_parser("breakdown", help="per task type and slice, sets side by side")
    b.add_argument("root", type=Path)
    b.add_argument("--sets", default="dev,generated,validation")
    b.add_argument("--pipelines", default="C,E")
    args = ap.parse_args(argv)
    if args.cmd == "queries":
        sys.stdout.write(f"{write_queries(args.cases, args.out, args.sample, args.cases_out)} queries -> {args.out}\n")
    elif args.cmd == "breakdown":
        sys.stdout.write("\n".join(breakdown(args.root, args.sets.split(","), p) for p in args.pipelines.split(",")))
    else:
        sys.stdout.write(summary(args.root, args.sets.split(","), args.pipelines.split(",")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
