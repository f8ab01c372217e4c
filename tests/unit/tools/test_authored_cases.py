"""The independently authored case set (benchmarks/cerb-generalisation/authored): its labels obey the curriculum
README's case rules against the corpus, so a figure measured on it means what the shared scorer says it means."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.unit

REPO_ROOT = Path(__file__).resolve().parents[3]
CASES = REPO_ROOT / "benchmarks" / "cerb-generalisation" / "authored" / "cases.jsonl"
CURRICULUM_DIR = Path(os.environ.get("CHSR_CURRICULUM_DIR", REPO_ROOT.parent / "shared" / "data" / "curriculum"))
KEYS = {"case_id", "query", "slice", "task_type", "scope", "relevant", "expect_empty_scope", "relaxed_scope",
        "split_group", "notes"}
SCOPE_FIELDS = ("subject", "level", "year", "session", "paper", "content_type", "question_number")


def _admits(scope: dict[str, Any] | None, meta: dict[str, Any]) -> bool:
    """The scorer's rule: every non-null scope field matches (a list is any of); a null metadata value never does."""
    for name in SCOPE_FIELDS:
        want = (scope or {}).get(name)
        if want is None:
            continue
        allowed = want if isinstance(want, list) else [want]
        if meta.get(name) is None or meta.get(name) not in allowed:
            return False
    return True


@pytest.fixture(scope="module")
def corpus() -> dict[str, dict[str, Any]]:
    path = CURRICULUM_DIR / "corpus.jsonl"
    if not path.is_file():
        pytest.skip(f"curriculum corpus not found at {CURRICULUM_DIR} (set CHSR_CURRICULUM_DIR)")
    with path.open(encoding="utf-8") as fh:
        return {row["_id"]: row["metadata"] for row in map(json.loads, fh)}


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_case_has_the_schema_and_a_unique_id(cases):
    assert len(cases) == 3792
    assert len({c["case_id"] for c in cases}) == len(cases)
    for case in cases:
        assert set(case) == KEYS, case["case_id"]
        assert case["case_id"].split("_", 1)[0] in ("ia", "ib", "ic", "id", "ie", "if", "ig", "ih", "ii", "ij", "ik", "il", "im", "in", "io", "ip", "iq", "ir", "is", "it", "iu", "iv", "iw",
                                                        "ix", "iy", "iz", "ja", "jb", "jc", "jd", "je", "jf",
                                                        "jg", "jh", "ji", "jj", "jk", "jl", "jm", "jn", "jo", "jp", "jq", "jr",
                                                        "js", "jt", "ju", "jv", "jw", "jx", "jy", "jz", "ka",
                                                        "kb", "kc", "kd", "ke", "kf", "kg", "kh", "ki", "kj", "kk", "kl", "km", "kn", "ko", "kp", "kq", "kr", "ks", "kt", "ku", "kv", "kw", "kx", "ky", "kz", "la", "lb", "lc", "ld", "le", "lf", "lg", "lh", "li", "lj", "lk", "ll", "lm", "ln",
                                                        "lo", "lp", "lq", "lr", "ls", "lt", "lu", "lv", "lw", "lx", "ly", "lz", "ma",
                                                        "mb", "mc", "md", "me", "mf", "mg", "mh", "mi", "mj", "mk", "ml", "mm", "mn", "mo", "mp", "mq", "mr", "ms", "mt",
                                                        "mu", "mv", "mw", "mx", "my", "mz", "na", "nb"), case["case_id"]


def test_labels_lie_in_the_scope_or_for_a_relaxation_in_the_relaxed_scope_only(cases, corpus):
    for case in cases:
        for doc_id in case["relevant"]:
            assert doc_id in corpus, (case["case_id"], doc_id)
            meta = corpus[doc_id]
            if case["relaxed_scope"]:
                assert not _admits(case["scope"], meta) and _admits(case["relaxed_scope"], meta), case["case_id"]
            else:
                assert _admits(case["scope"], meta), (case["case_id"], doc_id)


def test_abstentions_ask_for_what_the_corpus_lacks_and_other_scopes_hold_something(cases, corpus):
    """An abstention (no labels) names a paper the corpus does not hold; a relaxation's scope is empty *or off topic*
    (curriculum README), so only the other cases must find something in their scope."""
    for case in cases:
        held = any(_admits(case["scope"], meta) for meta in corpus.values())
        if not case["relevant"]:
            assert case["expect_empty_scope"] and case["task_type"] == "adversarial" and not held, case["case_id"]
        elif not case["expect_empty_scope"]:
            assert held, case["case_id"]
        else:
            assert case["relaxed_scope"], case["case_id"]
