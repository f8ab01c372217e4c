"""Write the `chsr eval cerb` report directory ("Benchmark").

Layout::

    README.md             definitions, ablation table, per slice / task type, bootstrap, scope accuracy, targets
    results.json          every number in the README (strict JSON)
    per_case.jsonl        one line per (variant, case): metrics, outcome, extracted scope, results with flags
    runs/<variant>.trec   TREC run files
    leakage_vs_ess.png    curriculum-tuple leakage vs exact-scope success, one point per variant
    per_slice_<metric>.png  per-slice bars (nDCG@8, tuple leakage, ESS) per variant
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from tools.eval import plots
from tools.eval.cerb import OUTCOMES
from tools.eval.curriculum_metrics import GOLD_FIELDS
from tools.eval.report import fmt, fmt_p, machine_lines, md_table, write_json, write_jsonl
from tools.eval.runner import PipelineRun
from tools.runfile import write_trec

MAIN_COLUMNS: tuple[tuple[str, str], ...] = (
    ("ndcg@8", "nDCG@8"), ("recall@8", "R@8"), ("tuple_leakage", "tuple leakage"), ("leakage", "leakage"),
    ("tuple_contamination", "tuple contam."), ("contamination", "contam."),
    ("silent_contamination", "silent contam."), ("ess", "ESS"), ("abstention_success", "abstention"),
    ("relaxation_success", "relax. success"), ("empty", "empty"),
)
SLICE_METRICS: tuple[tuple[str, str], ...] = (("ndcg@8", "nDCG@8"), ("tuple_leakage", "curriculum-tuple leakage"),
                                              ("ess", "exact-scope success"))
DEFINITIONS = """\
Definitions (scoring policy of the curriculum data README; code: `tools/eval/curriculum_metrics.py`):

- **leakage**: share of all returned chunks (pooled over cases) whose metadata contradicts a non-null gold scope
  field; null metadata under a set field counts as leaked; list values are any-of. Relaxation cases are measured
  against `relaxed_scope` when the system reports it relaxed (final step ≠ W0), otherwise against `scope`.
  **tuple leakage** (the headline) restricts this to subject, level, year, session, paper.
- **contamination**: share of cases whose top-k holds at least one leaked chunk (tuple contam.: tuple fields
  only). **silent contamination**: share of cases with a leaked chunk the system did *not* flag (returned at
  W0 with no violations), i.e. leakage presented as an exact answer.
- **ESS** (exact-scope success): ≥ 1 returned chunk matches every non-null gold field incl. question_number; when
  the question number is pinned the chunk must also be labelled (README caveat, `mcq_boards.05`); scored on
  cases whose exact scope is answerable (`expect_empty_scope` false).
- **abstention**: abstention cases answered with nothing presented as exact (empty, or every result flagged).
  **relax. success**: relaxation cases where the system relaxed and ≥ 1 chunk lies in `relaxed_scope`.
- nDCG@8 / R@8 (ranx, graded labels) skip abstention cases; **empty** = share of cases with no results.
"""


def write_cerb_report(out: Path, results: dict[str, Any], rows: Mapping[str, Sequence[Mapping[str, Any]]],
                      runs: Mapping[str, PipelineRun]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for p, run in runs.items():
        write_trec(list(run.records), out / "runs" / f"{p}.trec", p)
    write_jsonl(out / "per_case.jsonl", ({"pipeline": p} | dict(r) for p, rs in rows.items() for r in rs))
    write_json(out / "results.json", results)
    variants = results["pipelines"]
    summ = results["summary"]
    plots.scatter_labelled(out / "leakage_vs_ess.png",
                           {p: (summ[p]["tuple_leakage"], summ[p]["ess"]) for p in variants},
                           "curriculum-tuple leakage", "exact-scope success", "Leakage vs ESS per variant")
    slices = sorted({s for p in variants for s in results["by_slice"][p]})
    for key, label in SLICE_METRICS:
        plots.grouped_bars(out / f"per_slice_{_slug(key)}.png", slices,
                           {p: {s: results["by_slice"][p].get(s, {}).get(key) for s in slices} for p in variants},
                           label, f"{label} per slice")
    (out / "README.md").write_text("\n".join(_readme(results)) + "\n", encoding="utf-8")


def _slug(key: str) -> str:
    return key.replace("@", "").replace("_", "-")


def _readme(res: dict[str, Any]) -> list[str]:
    variants = res["pipelines"]
    hints = "query text only" if res["hints"] == "none" else "query text + gold subject and level as client hints"
    kinds = res["kinds"]
    lines = [f"# CERB-style curriculum benchmark: `{Path(res['cases']).name}`", "",
             f"{res['n_cases']} cases ({kinds['in_scope']} in scope, {kinds['relaxation']} relaxation, "
             f"{kinds['abstention']} abstention), K = {res['k']}, {hints}; every request through the gateway "
             f"(gRPC mesh) with the cache bypassed, {res['concurrency']} request(s) in flight, one warm-up request "
             "per variant. Produced by `chsr eval cerb`.", "", DEFINITIONS,
             "## Ablation", ""]
    rows = []
    for p in variants:
        s, lat = res["summary"][p], res["latency_ms"][p]["client"]
        rows.append([f"`{p}`"] + [s[k] for k, _ in MAIN_COLUMNS]
                    + [fmt(lat.get("p50"), 1), fmt(lat.get("p95"), 1), s["errors"]])
    lines += md_table(["variant"] + [h for _, h in MAIN_COLUMNS] + ["p50 ms", "p95 ms", "errors"], rows, 3)
    s0 = res["summary"][variants[0]] if variants else {}
    lines += ["", f"Denominators: nDCG/R@8 over {s0.get('n_rel')} cases, ESS over {s0.get('n_ess')}, "
              f"abstention over {s0.get('n_abstention')}; leakage over all returned chunks.", ""]
    lines += _outcomes(res) + _breakdowns(res, "by_slice", "slice") + _breakdowns(res, "by_task_type", "task type")
    lines += _bootstrap(res) + _scope_accuracy(res) + _targets(res)
    lines += ["## Files", "", "`results.json`, `per_case.jsonl` (per variant and case: metrics, outcome, extracted "
              "scope and per-field check, results with step / violations / leaked fields), `runs/<variant>.trec`.",
              "", "![leakage vs ESS](leakage_vs_ess.png)", ""]
    lines += [f"![{label}](per_slice_{_slug(k)}.png)" for k, label in SLICE_METRICS]
    lines += ["", "## Machine", ""] + machine_lines(res.get("machine", {}))
    if res.get("index"):
        lines.append("- Index: " + ", ".join(f"{b} {n}" for b, n in res["index"].items()))
    return lines


def _outcomes(res: dict[str, Any]) -> list[str]:
    names = OUTCOMES if any(res["summary"][p]["errors"] for p in res["pipelines"]) else OUTCOMES[:-1]
    rows = [[f"`{p}`"] + [res["summary"][p]["outcomes"][o] for o in names] for p in res["pipelines"]]
    return ["### Case outcomes (seed 000: exact hit, leakage-flagged recovery, contaminated or empty failure)", "",
            *md_table(["variant", *names], rows), ""]


def _breakdowns(res: dict[str, Any], key: str, title: str) -> list[str]:
    variants = res["pipelines"]
    groups = sorted({g for p in variants for g in res[key][p]})
    lines = [f"## Per {title}", ""]
    for metric, label in SLICE_METRICS + (("recall@8", "Recall@8"), ("contamination", "contamination")):
        rows = [[g, res[key][variants[0]][g]["n"] if variants else 0]
                + [res[key][p].get(g, {}).get(metric) for p in variants] for g in groups]
        lines += [f"**{label}**", "", *md_table([title, "n", *[f"`{p}`" for p in variants]], rows), ""]
    return lines


def _bootstrap(res: dict[str, Any]) -> list[str]:
    if not res["bootstrap"]:
        return []
    rows = [[f"`{b['from']}` → `{b['to']}`", b["metric"], b["n"], f"{b['mean_delta']:+.4f}",
             f"[{b['ci_low']:+.4f}, {b['ci_high']:+.4f}]", fmt_p(b["p_value"])] for b in res["bootstrap"]]
    return ["## Paired bootstrap between consecutive variants", "",
            "1,000 resamples of the cases, seed 42; Δ = later − earlier; leakage here is the per-case share "
            "(an empty answer leaks 0).", "",
            *md_table(["transition", "metric", "n", "mean Δ", "95% CI", "p"], rows), ""]


def _scope_accuracy(res: dict[str, Any]) -> list[str]:
    variants = [p for p in res["pipelines"] if res["scope_accuracy"][p]["scope_reported"]]
    ungated = [p for p in res["pipelines"] if p not in variants]
    lines = ["## Scope extraction accuracy (the response's W0 scope vs the gold scope)", ""]
    if not variants:
        return lines + ["No variant reported a scope.", ""]
    fields = [*GOLD_FIELDS, "curriculum_tuple", "all_fields"]
    rows = [[f] + [res["scope_accuracy"][p][f]["accuracy"] for p in variants] for f in fields]
    lines += md_table(["field", *[f"`{p}`" for p in variants]], rows)
    first = res["scope_accuracy"][variants[0]]
    lines += ["", f"Errors of `{variants[0]}` (missed / spurious / wrong): "
              + "; ".join(f"{f} {first[f]['missed']}/{first[f]['spurious']}/{first[f]['wrong']}" for f in GOLD_FIELDS)]
    if ungated:
        lines.append(f"Variants reporting no scope (ungated): {', '.join(f'`{p}`' for p in ungated)}.")
    return lines + [""]


def _targets(res: dict[str, Any]) -> list[str]:
    """Targets for E (query text only) and the C vs B leakage cut."""
    s = res["summary"]
    if "E" not in s:
        return []
    e, lat = s["E"], res["latency_ms"]["E"]["client"]
    checks = [("curriculum-tuple leakage ≤ 0.05", e["tuple_leakage"], e["tuple_leakage"] <= 0.05),
              ("ESS ≥ 0.95", e["ess"], e["ess"] is not None and e["ess"] >= 0.95),
              ("nDCG@8 ≥ 0.70", e["ndcg@8"], e["ndcg@8"] is not None and e["ndcg@8"] >= 0.70),
              ("every abstention case answered with nothing at W0", e["abstention_success"],
               e["abstention_success"] in (None, 1.0)),
              ("p95 ≤ 100 ms", lat.get("p95"), lat.get("p95") is not None and lat["p95"] <= 100)]
    if "B" in s and "C" in s:
        b, c = s["B"]["tuple_leakage"], s["C"]["tuple_leakage"]
        cut = b / c if c else (float("inf") if b else None)
        checks.append(("C cuts tuple leakage ≥ 5× vs B", cut, cut is not None and cut >= 5))
    rows = [[name, _target_value(v, name), "met" if ok else "NOT met"] for name, v, ok in checks]
    note = "" if res["hints"] == "none" else " (this run passes gold hints: the targets are for query text only)"
    return [f"## Targets (variant E){note}", "", *md_table(["target", "value", ""], rows), ""]


def _target_value(value: float | None, name: str) -> str:
    if value is None:
        return "–"
    if value == float("inf"):
        return "∞ (C leaks nothing)"
    if "×" in name:
        return fmt(value, 1) + "×"
    return fmt(value, 1) if "ms" in name else fmt(value, 3)
