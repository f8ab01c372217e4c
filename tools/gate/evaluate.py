"""Offline, in-process evaluation of scope-from-evidence (issue 14, item 3).

    python -m tools.gate.evaluate --corpus ../shared/data/curriculum/corpus.jsonl \
        --generated benchmarks/cerb-generalisation/generated.jsonl --dev ../shared/data/curriculum/cases.dev.jsonl \
        --scifact ../shared/data/scifact --out benchmarks/cerb-generalisation [--fit]

Builds the embedded BM25 and exact dense indexes over the corpus, runs the unfiltered probe
for every query, and (``--fit``) fits the per-field calibration on the generated set only
and writes ``services/gate/evidence_params.json``. Reports per-field extraction accuracy and
calibration, then simulates B / old gate / new gate retrieval (``simulate.py``) and scores it
with the rules of ``../shared/tools/curriculum_score.py`` (imported by path). On the generated
set every figure of the new gate is out-of-fold (5 folds by ``split_group``); dev cases are
never fitted on. ``--scifact`` adds the mixed-index check (curriculum + SciFact abstracts).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from sklearn.model_selection import GroupKFold

from chsr.scope import Scope
from services.gate.evidence import PARAMS_PATH, EvidenceParams, decide_scope
from services.gate.evidence_features import MODEL_FIELDS
from services.gate.vocabulary import Vocabulary
from tools.gate import report
from tools.gate.calibrate import expected_calibration_error, fit_params, gold_values, training_rows
from tools.gate.mixed import mixed_check
from tools.gate.probe_index import ProbeIndex, QueryEncoder, load_docs
from tools.gate.probe_run import QueryRun, load_cases, run_probe
from tools.gate.simulate import Simulator

log = logging.getLogger("tools.gate.evaluate")
SCORER = Path(__file__).resolve().parents[3] / "shared" / "tools" / "curriculum_score.py"
DEFAULT_PARAMS = EvidenceParams(models={})
ACC_FIELDS = MODEL_FIELDS


def load_scorer(path: Path = SCORER) -> Any:
    spec = importlib.util.spec_from_file_location("curriculum_score", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def field_accuracy(cases: Sequence[dict], predicted: Sequence[Scope]) -> dict[str, dict[str, float]]:
    out = {}
    for name in ACC_FIELDS:
        correct = missing = wrong = extra = gold_n = covered = 0
        for case, scope in zip(cases, predicted):
            gold, pred = gold_values(case, name), set(getattr(scope, name))
            gold_n += bool(gold)
            covered += bool(gold and pred)
            if gold == pred:
                correct += 1
            elif gold and not pred:
                missing += 1
            elif gold:
                wrong += 1
            else:
                extra += 1
        n = len(cases) or 1
        out[name] = {"accuracy": correct / n, "coverage": covered / (gold_n or 1), "wrong": wrong / n,
                     "extra": extra / n, "missing": missing / n, "n_gold": gold_n}
    return out


def fold_params(runs: Sequence[QueryRun], index: ProbeIndex, base: EvidenceParams, folds: int = 5,
                precision: float = 0.95) -> list[EvidenceParams]:
    """Per query, the params fitted without its split group (out-of-fold decisions on the generated set)."""
    groups = np.array([r.case["split_group"] for r in runs])
    chosen: list[EvidenceParams | None] = [None] * len(runs)
    for f, (train, test) in enumerate(GroupKFold(n_splits=folds).split(groups, groups, groups)):
        params, _ = fit_params(training_rows([runs[i] for i in train], index, base), base, precision)
        for i in test:
            chosen[i] = params
        log.info("fold %d fitted", f)
    return chosen  # type: ignore[return-value]


def evaluate_set(name: str, runs: Sequence[QueryRun], params: Sequence[EvidenceParams], sim: Simulator,
                 scorer: Any, meta: dict) -> dict[str, Any]:
    cases = [r.case for r in runs]
    decisions, ms = [], []
    for run, p in zip(runs, params):
        t0 = time.perf_counter()
        decisions.append(decide_scope(run.stated, run.hits(sim.index, p.depth), p, known=sim.known))
        ms.append((time.perf_counter() - t0) * 1000)
    acc = {"old": field_accuracy(cases, [r.old_scope for r in runs]),
           "new": field_accuracy(cases, [d.filter for d in decisions])}
    pipelines = {
        "B": lambda r, d: sim.ungated(r),
        "C_old": lambda r, d: sim.gated(r, r.old_scope),
        "L_old": lambda r, d: sim.laddered(r, r.old_ladder, r.old_strict),
        "C_new": lambda r, d: sim.gated(r, d.filter, d),
        "L_new": lambda r, d: sim.laddered(r, sim.new_ladder(d), d.strict_keys, d),
    }
    metrics, per_case = {}, {}
    for pipe, fn in pipelines.items():
        run_map = {r.case["case_id"]: fn(r, d) for r, d in zip(runs, decisions)}
        rows = scorer.score(cases, run_map, meta, sim.k)
        metrics[pipe] = scorer.agg(rows)
        per_case[pipe] = rows
        log.info("%s %s ndcg=%.3f leak=%.3f", name, pipe, metrics[pipe]["ndcg"][0] or 0, metrics[pipe]["leakage"][0] or 0)
    by_kind: dict[str, dict[str, Any]] = {}
    for pipe, rows in per_case.items():
        groups = defaultdict(list)
        for row in rows:
            groups[row["case_id"].split(".")[0]].append(row)
        for kind, kind_rows in groups.items():
            by_kind.setdefault(kind, {})[pipe] = scorer.agg(kind_rows)
    labels = defaultdict(int)
    for d in decisions:
        labels[d.label] += 1
    timing = {"evidence_ms_p50": float(np.percentile(ms, 50)), "evidence_ms_p95": float(np.percentile(ms, 95)),
              "extract_ms_p50": float(np.percentile([r.extract_ms for r in runs], 50)),
              "extract_ms_p95": float(np.percentile([r.extract_ms for r in runs], 95))}
    return {"accuracy": acc, "metrics": metrics, "labels": dict(labels), "timing": timing, "per_case": per_case,
            "by_kind": by_kind,
            "decisions": decisions}


def calibration(runs: Sequence[QueryRun], index: ProbeIndex, base: EvidenceParams, out: Path,
                precision: float = 0.95) -> tuple[EvidenceParams, dict]:
    rows = training_rows(runs, index, base)
    params, oof = fit_params(rows, base, precision)
    ece, bins = {}, {}
    for name, r in rows.items():
        e, table = expected_calibration_error(oof[name], r.y)
        ece[name] = (e, len(r.y), float(r.y.mean()) if len(r.y) else 0.0)
        bins[name] = table
    report.reliability_plot(out / "reliability_generated.png", bins, "Evidence model calibration, generated set (out-of-fold)")
    return params, {"ece": ece, "bins": bins}


def _probe_all(sets: dict, index: ProbeIndex, enc: QueryEncoder | None, vocab: Vocabulary, cache: Path | None) -> dict:
    import pickle

    if cache is not None and cache.is_file():
        runs = pickle.loads(cache.read_bytes())
        if all(len(runs.get(n, [])) == len(c) for n, c in sets.items()):
            return runs
    runs = {}
    for name, cases in sets.items():
        vectors = enc.queries([c["query"] for c in cases]) if enc else None
        runs[name] = run_probe(cases, index, vectors, vocab)
    if cache is not None:
        cache.write_bytes(pickle.dumps(runs))
    return runs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--generated", type=Path, required=True)
    ap.add_argument("--dev", type=Path)
    ap.add_argument("--scifact", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fit", action="store_true", help=f"refit and write {PARAMS_PATH.name}")
    ap.add_argument("--limit", type=int, default=0, help="first N generated cases only (smoke runs)")
    ap.add_argument("--no-dense", action="store_true")
    ap.add_argument("--runs-cache", type=Path, help="pickle of the probe runs (reused when it exists)")
    ap.add_argument("--precision", type=float, default=0.95, help="out-of-fold precision a filter threshold must reach")
    ap.add_argument("--penalty", type=float, default=DEFAULT_PARAMS.penalty, help="rank penalty strength (1 - s * p)")
    ap.add_argument("--depth", type=int, default=DEFAULT_PARAMS.depth, help="probe hits per leg the evidence reads")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    args.out.mkdir(parents=True, exist_ok=True)
    docs = load_docs([args.corpus])
    enc = None if args.no_dense else QueryEncoder()
    index = ProbeIndex.build(docs, enc.documents(docs) if enc else None)
    vocab = Vocabulary.from_corpus(args.corpus).warm_up()
    scorer, meta = load_scorer(), {d.id: d.metadata for d in docs}
    sim = Simulator(index, vocab)
    sets = {"generated": load_cases(args.generated)[: args.limit or None]}
    if args.dev:
        sets["dev"] = load_cases(args.dev)
    runs = _probe_all(sets, index, enc, vocab, args.runs_cache)
    base = replace(DEFAULT_PARAMS, penalty=args.penalty, depth=args.depth)
    params, calib = calibration(runs["generated"], index, base, args.out, args.precision)
    if args.fit:
        PARAMS_PATH.write_text(json.dumps(params.to_dict(), indent=1) + "\n", encoding="utf-8")
    results = {"calibration": {k: v for k, v in calib.items()}, "sets": {}}
    results["sets"]["generated"] = evaluate_set(
        "generated", runs["generated"], fold_params(runs["generated"], index, base, precision=args.precision), sim, scorer, meta)
    if "dev" in runs:
        results["sets"]["dev"] = evaluate_set("dev", runs["dev"], [params] * len(runs["dev"]), sim, scorer, meta)
    if args.scifact:
        results["mixed"] = mixed_check(args.scifact, docs, enc, vocab, params, args.out, sets.get("dev", ()), scorer)
    from tools.gate.write_report import write_report

    write_report(results, params, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
