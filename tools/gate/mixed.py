"""Mixed-index check: curriculum chunks + SciFact abstracts in one index (issue 14).

SciFact claims are statements about science, not requests for exam material; their
abstracts carry no curriculum metadata. The old gate gives 130 of the 300 test claims a
scope from topic words and then filters the abstracts away. Here: the share of test claims
that the old and the new gate constrain, and SciFact nDCG@10 / recall@100 of ungated RRF
against each gate (qrels/test.tsv; train claims are not used).
"""

from __future__ import annotations

import csv
import json
import logging
import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chsr.documents import Doc
from services.gate.evidence import EvidenceParams, decide_scope
from services.gate.vocabulary import Vocabulary
from tools.gate.probe_index import ProbeIndex, QueryEncoder, load_docs
from tools.gate.probe_run import run_probe
from tools.gate.simulate import Simulator

log = logging.getLogger(__name__)


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            out.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    return out


def ndcg(ranked: Sequence[str], rel: dict[str, int], k: int) -> float:
    dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(rel.values(), reverse=True)[:k]))
    return dcg / ideal if ideal else 0.0


def mixed_check(scifact: Path, curriculum_docs: list[Doc], enc: QueryEncoder | None, vocab: Vocabulary,
                params: EvidenceParams, out: Path, dev_cases: Sequence[dict] = (), scorer: Any = None) -> dict[str, Any]:
    """SciFact test claims on the mixed index; with ``dev_cases`` also the curriculum dev cases on it
    (the same gate must still gate curriculum requests when the index holds other material)."""
    sci_docs = load_docs([scifact / "corpus.jsonl"])
    docs = curriculum_docs + sci_docs
    vectors = np.concatenate([enc.documents(curriculum_docs), enc.documents(sci_docs)]) if enc else None
    index = ProbeIndex.build(docs, vectors)
    qrels = _qrels(scifact / "qrels" / "test.tsv")
    with open(scifact / "queries.jsonl", encoding="utf-8") as fh:
        queries = [json.loads(line) for line in fh if line.strip()]
    cases = [{"case_id": q["_id"], "query": q["text"], "split_group": q["_id"]} for q in queries if q["_id"] in qrels]
    qvec = enc.queries([c["query"] for c in cases]) if enc else None
    runs = run_probe(cases, index, qvec, vocab)
    sim = Simulator(index, vocab, k=10)
    rows = {"B": [], "C_old": [], "C_new": []}
    recall = {"B": [], "C_old": [], "C_new": []}
    old_gated = new_gated = new_ranked = 0
    shares, examples = [], []
    for run in runs:
        decision = decide_scope(run.stated, run.hits(index, params.depth), params, known=sim.known)
        shares.append(decision.curriculum_share)
        old_gated += not run.old_scope.is_empty()
        new_gated += decision.label == "gated"
        if decision.label != "ungated" and len(examples) < 10:
            examples.append({"claim": run.case["query"], "filter": decision.filter.to_dict(),
                             "penalties": {k: list(v[0]) for k, v in decision.penalties.items()},
                             "curriculum_share": round(decision.curriculum_share, 3)})
        new_ranked += decision.label == "ranked"
        rel = qrels[run.case["case_id"]]
        for name, flt, dec in (("B", None, None), ("C_old", run.old_scope, None), ("C_new", decision.filter, decision)):
            sim.k = 100
            top = [r["doc_id"] for r in (sim.ungated(run) if flt is None else sim.gated(run, flt, dec))]
            rows[name].append(ndcg(top, rel, 10))
            recall[name].append(sum(1 for d in top if d in rel) / len(rel))
    n = len(runs) or 1
    result = {"claims": len(runs), "old_gated_share": old_gated / n, "new_gated_share": new_gated / n,
              "new_ranked_share": new_ranked / n, "curriculum_share_mean": float(np.mean(shares)) if shares else 0.0,
              "ndcg10": {k: float(np.mean(v)) for k, v in rows.items()},
              "recall100": {k: float(np.mean(v)) for k, v in recall.items()}, "constrained_examples": examples}
    if dev_cases and scorer is not None:
        result["dev_on_mixed"] = _dev_on_mixed(dev_cases, index, enc, vocab, params, scorer, sim)
    log.info("mixed: %s", {k: v for k, v in result.items() if k != "constrained_examples"})
    return result


def _dev_on_mixed(cases: Sequence[dict], index: ProbeIndex, enc: QueryEncoder | None, vocab: Vocabulary,
                  params: EvidenceParams, scorer: Any, sim: Simulator) -> dict[str, Any]:
    from tools.gate.evaluate import evaluate_set

    runs = run_probe(cases, index, enc.queries([c["query"] for c in cases]) if enc else None, vocab)
    sim.k = 8
    meta = {d.id: d.metadata for d in index.docs}
    res = evaluate_set("dev-on-mixed", runs, [params] * len(runs), sim, scorer, meta)
    return {p: {k: v[0] for k, v in m.items()} for p, m in res["metrics"].items()}
