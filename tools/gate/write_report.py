"""Write ``results.json``, the figures and the tables' markdown (``tables.md``) of an evaluation run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from services.gate.evidence import EvidenceParams
from services.gate.evidence_features import MODEL_FIELDS
from tools.gate import report


def _agg(metrics: dict) -> dict:
    return {k: v[0] for k, v in metrics.items()}


def write_report(results: dict[str, Any], params: EvidenceParams, out: Path) -> None:
    sets = results["sets"]
    rows = {f"{pipe}@{name}": m for name, s in sets.items() for pipe, m in s["metrics"].items()}
    parts = ["## Retrieval (K = 8, RRF k = 60, depth 100 per leg, in-process)", "", report.metrics_table(rows), ""]
    for name, s in sets.items():
        parts += [f"## Scope accuracy per field: {name} ({len(s['decisions'])} queries)", "",
                  report.field_table(s["accuracy"], MODEL_FIELDS), "",
                  f"Labels of the new gate: {s['labels']}; timing (ms): "
                  + ", ".join(f"{k} {v:.2f}" for k, v in s["timing"].items()), ""]
        report.bar_plot(out / f"ndcg8_{name}.png", {p: m for p, m in s["metrics"].items()}, "ndcg", f"nDCG@8, {name}")
        report.bar_plot(out / f"leakage_{name}.png", {p: m for p, m in s["metrics"].items()}, "leakage", f"leakage, {name}")
    for name, s in sets.items():
        parts += [f"## By query kind: {name} (nDCG@8 / leakage / exact-scope success)", "", report.kind_table(s["by_kind"]), ""]
    parts += ["## Calibration (generated set, out-of-fold)", "",
              report.calibration_table(results["calibration"]["ece"]), ""]
    parts += ["## Thresholds", "", "| field | filter at p >= | rank at p >= |", "|---|---:|---:|"]
    parts += [f"| {n} | {m.filter_threshold:.2f} | {m.rank_threshold:.2f} |" for n, m in params.models.items()]
    if "mixed" in results:
        mx = results["mixed"]
        parts += ["", "## Mixed index (curriculum + SciFact), SciFact test claims", "",
                  "| gate | claims constrained | nDCG@10 | recall@100 |", "|---|---:|---:|---:|",
                  f"| ungated RRF | 0.000 | {mx['ndcg10']['B']:.3f} | {mx['recall100']['B']:.3f} |",
                  f"| old gate (C) | {mx['old_gated_share']:.3f} | {mx['ndcg10']['C_old']:.3f} | {mx['recall100']['C_old']:.3f} |",
                  f"| new gate (C) | {mx['new_gated_share']:.3f} (+{mx['new_ranked_share']:.3f} ranked) | "
                  f"{mx['ndcg10']['C_new']:.3f} | {mx['recall100']['C_new']:.3f} |"]
    (out / "tables.md").write_text("\n".join(parts) + "\n", encoding="utf-8")
    slim = {"calibration": {"ece": results["calibration"]["ece"]},
            "sets": {n: {"metrics": {p: _agg(m) for p, m in s["metrics"].items()}, "accuracy": s["accuracy"],
                         "labels": s["labels"], "timing": s["timing"]} for n, s in sets.items()},
            "mixed": results.get("mixed")}
    (out / "results.json").write_text(json.dumps(slim, indent=1, default=float) + "\n", encoding="utf-8")
