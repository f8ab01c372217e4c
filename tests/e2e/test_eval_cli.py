"""`chsr eval cerb` and `chsr eval beir` end to end against the running mesh (issues 4 and 5).

The reports are written for the demo corpus: the CERB run uses the demo cases, the
BEIR run a tiny BEIR folder built in tmp from the demo queries and qrels.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from tools.cli.main import main
from tests.conftest import DEMO_CORPUS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DEMO = DEMO_CORPUS.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _assert_unit(value, where: str) -> None:
    if value is None:
        return
    assert isinstance(value, (int, float)) and not math.isnan(value), where
    assert 0.0 <= value <= 1.0, f"{where} = {value} not in [0, 1]"


def _assert_png(path: Path) -> None:
    assert path.read_bytes()[:8] == PNG_MAGIC, path


def _assert_trec(path: Path) -> None:
    lines = path.read_text().splitlines()
    assert lines, path
    for line in lines:
        qid, q0, doc, rank, score, tag = line.split(" ")
        assert q0 == "Q0" and int(rank) >= 1 and float(score) == float(score)


def test_eval_cerb_writes_a_parseable_report(mesh, tmp_path):
    cases = DEMO / "cases.jsonl"
    assert cases.exists(), "tools/demo/cases.jsonl is missing"
    out = tmp_path / "cerb"
    variants = ["A", "B", "B+", "C", "D", "E"]
    rc = main(["eval", "cerb", "--corpus", str(DEMO_CORPUS), "--cases", str(cases), "--pipelines",
               ",".join(variants), "--gateway", mesh.gateway, "--out", str(out)])
    assert rc == 0
    for name in ("README.md", "results.json", "per_case.jsonl", "leakage_vs_ess.png", "per_slice_ndcg8.png",
                 "per_slice_tuple-leakage.png", "per_slice_ess.png"):
        assert (out / name).is_file(), name
    for name in ("leakage_vs_ess.png", "per_slice_ndcg8.png"):
        _assert_png(out / name)
    results = json.loads((out / "results.json").read_text())
    n_cases = sum(1 for line in cases.read_text().splitlines() if line.strip())
    assert results["pipelines"] == variants and results["n_cases"] == n_cases
    for v in variants:
        s = results["summary"][v]
        assert s["errors"] == 0
        for key in ("ndcg@8", "recall@8", "leakage", "tuple_leakage", "contamination", "tuple_contamination",
                    "silent_contamination", "ess", "abstention_success", "empty"):
            _assert_unit(s[key], f"{v}.{key}")
        for field, acc in results["scope_accuracy"][v].items():
            if isinstance(acc, dict):
                _assert_unit(acc["accuracy"], f"{v}.scope.{field}")
        assert results["latency_ms"][v]["client"]["p95"] > 0
    # the ungated variant reports no scope; the gated ones extract one
    assert not results["scope_accuracy"]["B"]["scope_reported"]
    assert results["scope_accuracy"]["C"]["scope_reported"]
    assert [b["from"] for b in results["bootstrap"] if b["metric"] == "ndcg@8"] == variants[:-1]
    rows = [json.loads(line) for line in (out / "per_case.jsonl").read_text().splitlines()]
    assert len(rows) == n_cases * len(variants)
    for row in rows:
        for key in ("ndcg@8", "recall@8", "leakage", "tuple_leakage"):
            _assert_unit(row[key], f"{row['pipeline']}/{row['case_id']}.{key}")
        assert row["n_results"] <= 8
    _assert_trec(out / "runs" / "E.trec")
    readme = (out / "README.md").read_text()
    assert "tuple leakage" in readme and "| `E` |" in readme


def test_eval_cerb_with_gold_hints(mesh, tmp_path):
    out = tmp_path / "cerb-gold"
    rc = main(["eval", "cerb", "--corpus", str(DEMO_CORPUS), "--cases", str(DEMO / "cases.jsonl"), "--pipelines",
               "C", "--hints", "gold", "--max-cases", "6", "--gateway", mesh.gateway, "--out", str(out)])
    assert rc == 0
    results = json.loads((out / "results.json").read_text())
    assert results["hints"] == "gold" and results["n_cases"] == 6
    _assert_unit(results["summary"]["C"]["tuple_leakage"], "C.tuple_leakage")
    assert "gold subject and level" in (out / "README.md").read_text()


def _tiny_beir(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    shutil.copy(DEMO / "queries.jsonl", root / "queries.jsonl")
    shutil.copy(DEMO / "qrels.tsv", root / "qrels" / "test.tsv")
    return root


def test_eval_beir_writes_a_parseable_report(mesh, tmp_path):
    data = _tiny_beir(tmp_path / "tiny")
    out = tmp_path / "beir"
    pipelines = ["sparse", "hybrid_calibrated"]
    rc = main(["eval", "beir", str(data), "--split", "test", "--pipelines", ",".join(pipelines), "--baseline", "rrf",
               "--k", "20", "--gateway", mesh.gateway, "--out", str(out)])
    assert rc == 0
    for name in ("README.md", "results.json", "per_query.jsonl", "metrics.png", "latency.png"):
        assert (out / name).is_file(), name
    _assert_png(out / "metrics.png")
    _assert_png(out / "latency.png")
    results = json.loads((out / "results.json").read_text())
    assert results["pipelines"] == ["rrf", *pipelines]   # the baseline is added when absent
    assert results["n_queries"] > 0
    for p in results["pipelines"]:
        assert results["errors"][p] == 0
        for metric, value in results["metrics"][p].items():
            _assert_unit(value, f"{p}.{metric}")
        _assert_trec(out / "runs" / f"{p}.trec")
    assert {b["pipeline"] for b in results["bootstrap"]} == set(pipelines)
    for b in results["bootstrap"]:
        assert b["ci_low"] <= b["mean_delta"] <= b["ci_high"] and 0.0 <= b["p_value"] <= 1.0
    assert results["h1"]["pipeline"] == "hybrid_calibrated"
    for row in results["h1"]["rows"]:
        assert row["r_ndcg@10"] is None or -1.0 <= row["r_ndcg@10"] <= 1.0
    rows = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    assert len(rows) == (results["n_queries"] + results["n_unjudged_skipped"]) * len(results["pipelines"])
    for row in rows:
        _assert_unit(row["ndcg@10"], f"{row['pipeline']}/{row['query_id']}")
    assert "nDCG@10" in (out / "README.md").read_text()
