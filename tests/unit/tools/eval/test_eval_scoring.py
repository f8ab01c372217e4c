"""Per-case scoring and aggregation of the benchmark commands, on hand-built records (issues 4 and 5)."""

import json
import math

import pytest

from tools.eval import beir, cerb
from tools.eval.report import md_table, write_json

pytestmark = pytest.mark.unit

SCOPE = {"subject": "physics", "level": "grade_10", "year": 2019, "session": None, "paper": "P1",
         "content_type": "exam_question", "question_number": 3}
META = {
    "q3": {"subject": "physics", "level": "grade_10", "year": 2019, "paper": "P1", "content_type": "exam_question",
           "question_number": 3},
    "q3_2018": {"subject": "physics", "level": "grade_10", "year": 2018, "paper": "P1",
                "content_type": "exam_question", "question_number": 3},
    "chem": {"subject": "chemistry", "level": "grade_10", "year": 2019, "paper": "C1",
             "content_type": "exam_question", "question_number": 3},
}


def _rec(case_id, docs, step="W0_EXACT", violations=None, scope=None):
    violations = violations or {}
    return {"query_id": case_id, "final_step": step, "scope": scope or {}, "latency_ms": 5.0,
            "timings_ms": {"total": 4.0}, "degraded": [],
            "results": [{"doc_id": d, "relaxation": step, "violations": violations.get(d, []), "metadata": {}}
                        for d in docs]}


def test_score_case_uses_corpus_metadata_and_counts_by_hand():
    case = cerb.Case("c1", "q", "mcq", "exact", SCOPE, {"q3": 2})
    row = cerb.score_case(case, _rec("c1", ["q3_2018", "q3", "chem"], scope={"subject": ["physics"]}), META,
                          {"ndcg@8": 0.63, "recall@8": 1.0})
    assert (row["leaked"], row["tuple_leaked"], row["n_results"]) == (2, 2, 3)
    assert row["tuple_leakage"] == pytest.approx(2 / 3)
    assert row["contaminated"] and row["silent_contaminated"]
    assert row["ess"] is True and row["outcome"] == "contaminated"
    assert row["scope_check"]["subject"] == "correct" and row["scope_check"]["level"] == "missed"
    assert [r["leaked_fields"] for r in row["results"]] == [["year"], [], ["subject", "paper"]]


def test_relaxation_case_is_measured_against_relaxed_scope_only_when_relaxed():
    relaxed_scope = dict(SCOPE, year=None)
    case = cerb.Case("r1", "q", "mcq", "relaxation", dict(SCOPE, year=2031), {"q3_2018": 2}, True, relaxed_scope)
    widened = cerb.score_case(case, _rec("r1", ["q3_2018"], step="W1_DROP_TOPIC",
                                         violations={"q3_2018": ["year"]}), META, {})
    assert widened["leaked"] == 0 and widened["relaxation_success"] and widened["outcome"] == "flagged_recovery"
    assert widened["ess"] is None  # ESS is scored on answerable exact scopes only
    silent = cerb.score_case(case, _rec("r1", ["q3_2018"]), META, {})
    assert silent["leaked"] == 1 and silent["silent_contaminated"] and not silent["relaxation_success"]


def test_abstention_case_success_and_no_relevance_metrics():
    case = cerb.Case("a1", "q", "mcq", "adversarial", dict(SCOPE, year=2031), {}, True, None)
    assert case.kind == "abstention"
    empty = cerb.score_case(case, _rec("a1", []), META, {"ndcg@8": 0.0})
    assert empty["abstention_success"] and empty["ndcg@8"] is None and empty["outcome"] == "empty"
    shown = cerb.score_case(case, _rec("a1", ["q3"]), META, {})
    assert shown["abstention_success"] is False and shown["tuple_leaked"] == 1


def test_summarise_pools_leakage_over_chunks_and_means_the_rest():
    rows = [
        {"n_results": 4, "leaked": 3, "tuple_leaked": 1, "leakage": 0.75, "tuple_leakage": 0.25},
        {"n_results": 0, "leaked": 0, "tuple_leaked": 0, "leakage": 0.0, "tuple_leakage": 0.0},
        {"n_results": 2, "leaked": 0, "tuple_leaked": 0, "leakage": 0.0, "tuple_leakage": 0.0},
    ]
    base = {"ndcg@8": None, "recall@8": None, "contaminated": False, "tuple_contaminated": False,
            "silent_contaminated": False, "ess": None, "abstention_success": None, "relaxation_success": None,
            "relaxed": False, "error": None, "outcome": "miss"}
    rows = [base | r for r in rows]
    rows[0] |= {"ndcg@8": 0.5, "contaminated": True, "ess": True}
    rows[2] |= {"ndcg@8": 1.0, "ess": False}
    s = cerb.summarise(rows)
    assert s["leakage"] == pytest.approx(3 / 6) and s["tuple_leakage"] == pytest.approx(1 / 6)
    assert s["leakage_per_query"] == pytest.approx(0.375)           # mean over the 2 answered cases
    assert s["ndcg@8"] == pytest.approx(0.75) and s["ess"] == pytest.approx(0.5)
    assert s["contamination"] == pytest.approx(1 / 3) and s["empty"] == pytest.approx(1 / 3)
    assert s["abstention_success"] is None and s["n_rel"] == 2


def test_case_hints_gold_sends_subject_and_level_only():
    case = cerb.Case("c", "q", "s", "exact", dict(SCOPE, subject=["physics", "mathematics"]), {})
    assert cerb.case_hints(case, "gold") == {"subject": ["physics", "mathematics"], "level": "grade_10"}
    assert cerb.case_hints(case, "none") is None
    with pytest.raises(ValueError, match="hints"):
        cerb.case_hints(case, "silver")


def test_beir_qrels_loader_and_h1_table(tmp_path):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td3\t0\n")
    queries = "".join(json.dumps({"_id": q, "text": q}) + "\n" for q in ("q1", "q2", "q3"))
    (tmp_path / "queries.jsonl").write_text(queries)
    data = beir.load_beir(tmp_path, "test")
    assert data.qrels == {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 0}}
    assert beir.judged_ids(data) == ["q1", "q2"]
    assert list(beir.load_beir(tmp_path, "test", max_queries=1).queries) == ["q1"]
    records = [{"query_id": q, "fusion_telemetry": {"h_sparse_raw": h}}
               for q, h in (("a", 1.0), ("b", 2.0), ("c", 3.0))]
    quality = {"ndcg@10": {"a": 0.9, "b": 0.5, "c": 0.1}, "mrr@10": {"a": 1.0, "b": 0.5, "c": 0.0}}
    table = beir.h1_table(records, quality)
    (row,) = [r for r in table["rows"] if r["key"] == "h_sparse_raw"]
    assert row["r_ndcg@10"] == pytest.approx(-1.0) and row["n"] == 3
    assert "h_dense_cdf" in table["missing"]


def test_report_helpers_write_strict_json_and_align_tables(tmp_path):
    write_json(tmp_path / "r.json", {"x": math.nan, "y": [1.5, math.inf]})
    assert json.loads((tmp_path / "r.json").read_text()) == {"x": None, "y": [1.5, None]}
    lines = md_table(["name", "value"], [["`a`", 0.12345], ["`b`", None]])
    assert lines[1] == "|---|---:|" and lines[2] == "| `a` | 0.123 |" and lines[3] == "| `b` | – |"
