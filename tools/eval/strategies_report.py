"""benchmarks/strategies/README.md from the per-dataset results of :mod:`tools.eval.strategies`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.eval.report import fmt, fmt_p, md_table, write_json
from tools.eval.strategies import LABELS, METRICS

#: Seed 003's own table (MRR, R@1, R@3, R@5, nDCG@5), 14 queries over 11 documents, for the side-by-side.
SEED = {1: (0.573, 0.429, 0.714, 0.786, 0.612), 2: (0.392, 0.143, 0.500, 0.714, 0.448),
        3: (0.554, 0.357, 0.714, 0.786, 0.595), 4: (0.524, 0.286, 0.714, 0.857, 0.599),
        5: (0.488, 0.214, 0.714, 0.857, 0.573), 6: (0.629, 0.500, 0.714, 0.857, 0.678),
        7: (0.629, 0.500, 0.714, 0.857, 0.678), 8: (0.625, 0.500, 0.786, 0.857, 0.683),
        9: (0.402, 0.214, 0.500, 0.643, 0.437), 10: (0.483, 0.286, 0.571, 0.857, 0.567),
        11: (0.292, 0.143, 0.357, 0.571, 0.339), 12: (0.494, 0.286, 0.571, 0.786, 0.549),
        13: (0.112, 0.000, 0.143, 0.286, 0.142), 14: (0.565, 0.429, 0.714, 0.786, 0.621),
        15: (0.292, 0.143, 0.357, 0.571, 0.339)}


def save(out: Path, result: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    public = {k: v for k, v in result.items() if not k.startswith("_")}
    write_json(out / f"{result['dataset']}.json", public)
    with (out / f"{result['dataset']}.per_query.json").open("w", encoding="utf-8") as fh:
        json.dump(result["_per_query"], fh, sort_keys=True)


def _cell(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    if value is None:
        return "—"
    ci = row.get(f"{key}_ci95")
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else f"{value:.3f}"


def table(result: dict[str, Any]) -> list[str]:
    header = ["#", "strategy", "pipeline", *(LABELS[m] for m in METRICS), "entity cov.", "relation cov.",
              "Δ MRR vs BM25 (p)", "seed MRR"]
    rows = []
    for r in result["rows"]:
        seed = fmt(SEED[r["number"]][0])
        if not r["available"]:
            rows.append([r["number"], r["strategy"], f"`{r['pipeline']}`", f"unavailable: {r['reason']}",
                         *[""] * (len(METRICS) + 2), seed])
            continue
        boot = r.get("vs_bm25_mrr")
        delta = f"{boot['mean_delta']:+.3f} ({fmt_p(boot['p_value'])})" if boot else "—"
        rows.append([r["number"], r["strategy"], f"`{r['pipeline']}`", *(_cell(r, m) for m in METRICS),
                     _cell(r, "entity_coverage"), _cell(r, "relation_coverage"), delta, seed])
    return md_table(header, rows)


def load(out: Path, dataset: str) -> dict[str, Any] | None:
    path = out / f"{dataset}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def write_readme(out: Path) -> Path:
    """Both datasets' tables, the reproduce command and the hand-written findings (``findings.md``)."""
    lines = ["# Seed 003's fifteen strategies, through the mesh", "",
             "Produced by `chsr eval strategies` (`scripts/bench_legs.sh strategies`). Metrics as the seed defines "
             "them: MRR (cut at 10), R@K = binary hit rate in the top K, nDCG@5; 95 % bootstrap CIs over queries "
             "(1,000 resamples, seed 42); Δ MRR vs BM25 = paired bootstrap, p two-sided. Entity / relation "
             "coverage over the committed target sample (`targets.jsonl`: hand-written target entities and "
             "subject-predicate-object terms per query; case-insensitive substring match in the top 5, a relation "
             "counts when its three terms occur in one top-5 text). Every strategy runs ungated (query text "
             "only), as in the seed. Seed MRR: the seed's own table (14 queries, 11 documents).", ""]
    findings = out / "findings.md"
    if findings.exists():
        lines += [findings.read_text(encoding="utf-8").strip(), ""]
    for dataset, title in (("scifact", "SciFact (BEIR test, 300 claims, 5,183 abstracts)"),
                           ("curriculum", "Curriculum dev cases (query text only; cases with a relevant item)")):
        result = load(out, dataset)
        if result is None:
            continue
        lines += [f"## {title}", "", f"{result['queries']} queries, {result['targets']} with coverage targets.", ""]
        lines += table(result) + [""]
    lines += ["## Files", "", "`<dataset>.json` (every number), `<dataset>.per_query.json` (per strategy, metric and "
              "query), `targets.jsonl` (coverage targets), `findings.md` (the paragraph above).", ""]
    path = out / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="write benchmarks/strategies/README.md")
    ap.add_argument("out", type=Path, nargs="?", default=Path("benchmarks/strategies"))
    args = ap.parse_args(argv)
    write_readme(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
