"""`chsr eval cerb`: the CHSR-RRF ablation on CERB-style cases through the mesh.

Only the query text is sent (``--hints gold`` adds the gold subject + level as client
hints). Scoring follows ``../shared/data/curriculum/README.md``; the per-chunk and
per-case rules are the pure functions of :mod:`tools.eval.curriculum_metrics`. The
corpus file is the authority for chunk metadata (the response's copy is the fallback).

Case kinds: ``abstention`` (expect_empty_scope, no labels: scored on abstention
success only), ``relaxation`` (expect_empty_scope with labels from relaxed_scope),
``in_scope`` (the rest). Relevance metrics skip abstention cases; ESS is scored on
``in_scope`` cases only (by construction the exact scope of the others holds nothing
relevant, so an oracle gate scores ESS 1.0 exactly when those are left out: the
reference numbers).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from chsr.client import GatewayClient
from tools.eval import curriculum_metrics as cm
from tools.eval import metrics as qm
from tools.eval.report import bootstrap_dict, machine_info, mean_or_none
from tools.eval.runner import PipelineRun, QuerySpec, index_summary, run_id_map, run_pipeline

log = logging.getLogger(__name__)

REL_METRICS: tuple[str, ...] = ("ndcg@8", "recall@8")   # K = 8 for every variant (seed 000 section 3.5)
HINT_FIELDS: tuple[str, ...] = ("subject", "level")       # "gold subject+level as client hints"
OUTCOMES: tuple[str, ...] = ("exact_hit", "flagged_recovery", "miss", "contaminated", "empty", "error")


@dataclass(frozen=True)
class Case:
    case_id: str
    query: str
    slice: str
    task_type: str
    scope: dict[str, Any]
    relevant: dict[str, int]
    expect_empty_scope: bool = False
    relaxed_scope: dict[str, Any] | None = None

    @property
    def kind(self) -> str:
        if self.expect_empty_scope:
            return "relaxation" if self.relevant else "abstention"
        return "in_scope"


@dataclass(frozen=True)
class CerbConfig:
    corpus: Path
    cases: Path
    pipelines: tuple[str, ...]
    k: int = 8
    hints: str = "none"              # none | gold
    gateway: str | None = None
    out: Path = Path("benchmarks/cerb-dev")
    concurrency: int = 1             # one request at a time: the latency is the pipeline's own
    max_cases: int | None = None


def load_cases(path: Path, max_cases: int | None = None) -> list[Case]:
    cases: list[Case] = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        obj = json.loads(line)
        try:
            relevant = {str(k): int(v) for k, v in (obj.get("relevant") or {}).items()}
            cases.append(Case(str(obj["case_id"]), obj["query"], obj.get("slice", ""), obj.get("task_type", ""),
                              dict(obj.get("scope") or {}), relevant, bool(obj.get("expect_empty_scope", False)),
                              obj.get("relaxed_scope")))
        except KeyError as exc:
            raise ValueError(f"{path}:{line_no}: case needs field {exc}") from None
    return cases[:max_cases] if max_cases else cases


def load_corpus_metadata(path: Path) -> dict[str, dict[str, Any]]:
    """``_id -> metadata`` of the corpus the mesh indexed (BEIR jsonl with a metadata object)."""
    meta: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                obj = json.loads(line)
                meta[str(obj["_id"])] = dict(obj.get("metadata") or {})
    return meta


def case_hints(case: Case, mode: str) -> dict[str, Any] | None:
    if mode == "none":
        return None
    if mode != "gold":
        raise ValueError(f"hints: unknown '{mode}'; valid: none, gold")
    hints = {f: case.scope[f] for f in HINT_FIELDS if case.scope.get(f) is not None}
    return hints or None


def score_case(case: Case, rec: Mapping[str, Any], corpus_meta: Mapping[str, Mapping[str, Any]],
               rel: Mapping[str, float | None]) -> dict[str, Any]:
    """Every curriculum metric of one (variant, case); ``rel`` = ranx nDCG@8 / Recall@8."""
    results = rec.get("results", [])
    metas = [corpus_meta.get(r["doc_id"], r.get("metadata") or {}) for r in results]
    relaxed = cm.is_relaxed(rec.get("final_step"))
    target = cm.leakage_scope(case.scope, case.relaxed_scope, relaxed)
    leaked, returned = cm.leakage_counts(metas, target)
    t_leaked, _ = cm.leakage_counts(metas, target, cm.CURRICULUM_TUPLE)
    flagged = [(m, r.get("relaxation"), r.get("violations", [])) for m, r in zip(metas, results)]
    silent = cm.silent_contamination(flagged, target)
    ess = (cm.exact_scope_success([(r["doc_id"], m) for r, m in zip(results, metas)], case.scope, case.relevant)
           if case.kind == "in_scope" else None)
    checks = cm.scope_field_checks(rec.get("scope"), case.scope)
    return {
        "case_id": case.case_id, "slice": case.slice, "task_type": case.task_type, "kind": case.kind,
        "query": case.query, "n_results": returned, "error": rec.get("error"),
        "final_step": rec.get("final_step"), "relaxed": relaxed,
        **{m: (None if case.kind == "abstention" else rel.get(m)) for m in REL_METRICS},
        "leaked": leaked, "tuple_leaked": t_leaked,
        "leakage": leaked / returned if returned else 0.0,
        "tuple_leakage": t_leaked / returned if returned else 0.0,
        "contaminated": leaked > 0, "tuple_contaminated": t_leaked > 0, "silent_contaminated": silent,
        "ess": ess,
        "abstention_success": (cm.abstention_success([(s, v) for _, s, v in flagged]) and not rec.get("error")
                               if case.kind == "abstention" else None),
        "relaxation_success": (cm.relaxation_success(metas, case.relaxed_scope, relaxed)
                               if case.kind == "relaxation" else None),
        "outcome": "error" if rec.get("error") else cm.case_outcome(returned, ess, relaxed, silent),
        "scope_extracted": rec.get("scope", {}),
        "scope_check": {c.field: c.outcome for c in checks},
        "latency_ms": rec.get("latency_ms"), "timings_ms": rec.get("timings_ms", {}),
        "degraded": rec.get("degraded", []),
        "results": [{"doc_id": r["doc_id"], "step": r.get("relaxation"), "violations": r.get("violations", []),
                     "leaked_fields": cm.leaked_fields(m, target), "grade": case.relevant.get(r["doc_id"], 0)}
                    for r, m in zip(results, metas)],
    }


def score_run(cases: Sequence[Case], run: PipelineRun, corpus_meta: Mapping[str, Mapping[str, Any]]
              ) -> list[dict[str, Any]]:
    by_id = {r["query_id"]: r for r in run.records}
    judged = {c.case_id: c.relevant for c in cases if c.kind != "abstention"}
    per_q = qm.per_query(judged, {q: d for q, d in run_id_map(run.records).items() if q in judged},
                         list(REL_METRICS)) if judged else {m: {} for m in REL_METRICS}
    return [score_case(c, by_id.get(c.case_id, {"results": [], "error": "missing"}), corpus_meta,
                       {m: per_q[m].get(c.case_id) for m in REL_METRICS}) for c in cases]


def summarise(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Aggregate per-case rows: pooled leakage (share of all returned chunks, README definition),
    per-query means for everything else; each rate over the cases it applies to."""
    def rate(key: str) -> float | None:
        return mean_or_none(None if r[key] is None else float(r[key]) for r in rows)

    answered = [r for r in rows if r["n_results"]]
    return {
        "n": len(rows),
        **{m: rate(m) for m in REL_METRICS},
        "tuple_leakage": cm.pooled_rate((r["tuple_leaked"], r["n_results"]) for r in rows),
        "leakage": cm.pooled_rate((r["leaked"], r["n_results"]) for r in rows),
        "tuple_leakage_per_query": mean_or_none(r["tuple_leakage"] for r in answered),
        "leakage_per_query": mean_or_none(r["leakage"] for r in answered),
        "contamination": rate("contaminated"), "tuple_contamination": rate("tuple_contaminated"),
        "silent_contamination": rate("silent_contaminated"),
        "ess": rate("ess"), "abstention_success": rate("abstention_success"),
        "relaxation_success": rate("relaxation_success"),
        "empty": mean_or_none(float(r["n_results"] == 0) for r in rows),
        "relaxed": mean_or_none(float(r["relaxed"]) for r in rows),
        "n_ess": sum(r["ess"] is not None for r in rows), "n_rel": sum(r["ndcg@8"] is not None for r in rows),
        "n_abstention": sum(r["abstention_success"] is not None for r in rows),
        "errors": sum(1 for r in rows if r["error"]),
        "outcomes": {o: sum(r["outcome"] == o for r in rows)
                     for o in OUTCOMES},
    }


def breakdown(rows: Sequence[Mapping[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r[key], []).append(r)
    return {g: summarise(rs) for g, rs in sorted(groups.items())}


def scope_accuracy(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Per gold field: accuracy and the correct / missed / spurious / wrong counts."""
    out: dict[str, Any] = {}
    for f in cm.GOLD_FIELDS:
        outcomes = [r["scope_check"][f] for r in rows]
        counts = {o: outcomes.count(o) for o in ("correct", "missed", "spurious", "wrong")}
        out[f] = {"accuracy": counts["correct"] / len(outcomes) if outcomes else None, **counts}
    tuple_ok = [all(r["scope_check"][f] == "correct" for f in cm.CURRICULUM_TUPLE) for r in rows]
    all_ok = [all(o == "correct" for o in r["scope_check"].values()) for r in rows]
    out["curriculum_tuple"] = {"accuracy": float(np.mean(tuple_ok)) if rows else None}
    out["all_fields"] = {"accuracy": float(np.mean(all_ok)) if rows else None}
    out["scope_reported"] = any(r["scope_extracted"] for r in rows)
    return out


def consecutive_bootstrap(order: Sequence[str], rows: Mapping[str, Sequence[Mapping[str, Any]]]
                          ) -> list[dict[str, Any]]:
    """Paired bootstrap (1,000, seed 42; seed 000 section 3.7) between consecutive variants,
    Δ = later - earlier, over the cases where the metric applies."""
    out = []
    for prev, nxt in zip(order, order[1:]):
        for metric in ("ndcg@8", "tuple_leakage", "leakage", "ess"):
            pairs = [(b[metric], a[metric]) for a, b in zip(rows[prev], rows[nxt])
                     if a[metric] is not None and b[metric] is not None]
            if len(pairs) < 2:
                continue
            later, earlier = ([float(x) for x in col] for col in zip(*pairs))
            out.append({"from": prev, "to": nxt, "metric": metric, "n": len(pairs)}
                       | bootstrap_dict(qm.paired_bootstrap(later, earlier)))
    return out


def compute(cfg: CerbConfig, cases: Sequence[Case], runs: Mapping[str, PipelineRun],
            corpus_meta: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    rows = {p: score_run(cases, run, corpus_meta) for p, run in runs.items()}
    unknown = sorted({d for c in cases for d in c.relevant if d not in corpus_meta})
    results = {
        "benchmark": "cerb", "corpus": str(cfg.corpus), "cases": str(cfg.cases), "k": cfg.k, "hints": cfg.hints,
        "concurrency": cfg.concurrency,
        "n_cases": len(cases), "pipelines": list(runs),
        "kinds": {k: sum(c.kind == k for c in cases) for k in ("in_scope", "relaxation", "abstention")},
        "summary": {p: summarise(r) for p, r in rows.items()},
        "by_slice": {p: breakdown(r, "slice") for p, r in rows.items()},
        "by_task_type": {p: breakdown(r, "task_type") for p, r in rows.items()},
        "latency_ms": {p: {"client": qm.latency_summary([r["latency_ms"] for r in run.records if "error" not in r]),
                           "server_total": qm.latency_summary([r["timings_ms"]["total"] for r in run.records
                                                               if "error" not in r])}
                       for p, run in runs.items()},
        "bootstrap": consecutive_bootstrap(list(runs), rows),
        "scope_accuracy": {p: scope_accuracy(r) for p, r in rows.items()},
        "labels_not_in_corpus": unknown[:50],
    }
    if unknown:
        log.warning("%d labelled ids are not in the corpus file (e.g. %s)", len(unknown), unknown[:3])
    return results, rows


def run_cerb(cfg: CerbConfig) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]], dict[str, PipelineRun]]:
    cases = load_cases(cfg.cases, cfg.max_cases)
    corpus_meta = load_corpus_metadata(cfg.corpus)
    client = GatewayClient(cfg.gateway)
    index = index_summary(client)
    queries = [QuerySpec(c.case_id, c.query, case_hints(c, cfg.hints)) for c in cases]
    runs = {p: run_pipeline(client, p, queries, cfg.k, cfg.concurrency) for p in dict.fromkeys(cfg.pipelines)}
    results, rows = compute(cfg, cases, runs, corpus_meta)
    results["machine"] = machine_info(client.address)
    results["index"] = index | {"corpus_file_chunks": len(corpus_meta)}
    return results, rows, runs
