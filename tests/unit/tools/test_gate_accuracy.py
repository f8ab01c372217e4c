"""Scope-extraction accuracy per field on the CERB-style dev cases (needs ../shared/data/curriculum).

The vocabulary is built from the shared corpus exactly as the gate service is
configured (``write_corpus_vocabulary`` -> ``CHSR_VOCABULARY_PATH``). The numbers
are logged (run with ``-o log_cli=true -o log_cli_level=INFO`` to see them); the
floors are deliberately modest - they catch regressions, they are not targets.
Held-out cases exist, so nothing here is tuned to individual dev cases.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.conftest import CURRICULUM_DIR
from tools.eval.gate_accuracy import format_scores, score_extraction
from services.gate.logic import run_gate
from services.gate.vocabulary import Vocabulary, write_corpus_vocabulary

pytestmark = [pytest.mark.unit, pytest.mark.data]
log = logging.getLogger(__name__)

#: Exact-match floors per field (dev numbers at the time of writing are in the gate's report).
FLOORS = {"subject": 0.75, "level": 0.65, "year": 0.9, "session": 0.9, "paper": 0.85, "content_type": 0.8,
          "question_number": 0.85}
#: A wrong constraint is worse than a missing one (it excludes admissible evidence): keep it rare on the tuple.
MAX_OVER = {"subject": 0.1, "level": 0.05, "year": 0.05, "session": 0.05, "paper": 0.05}


@pytest.fixture(scope="module")
def curriculum() -> Path:
    if not (CURRICULUM_DIR / "corpus.jsonl").is_file() or not (CURRICULUM_DIR / "cases.dev.jsonl").is_file():
        pytest.skip(f"curriculum data not found at {CURRICULUM_DIR} (set CHSR_CURRICULUM_DIR)")
    return CURRICULUM_DIR


@pytest.fixture(scope="module")
def vocab(curriculum: Path, tmp_path_factory: pytest.TempPathFactory) -> Vocabulary:
    path = write_corpus_vocabulary(curriculum / "corpus.jsonl", tmp_path_factory.mktemp("vocab") / "curriculum.json")
    return Vocabulary.load(path)


@pytest.fixture(scope="module")
def cases(curriculum: Path) -> list[dict]:
    with (curriculum / "cases.dev.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_extraction_accuracy_per_field(vocab, cases, record_property):
    scores, diffs = score_extraction(cases, vocab)
    log.info("scope-extraction accuracy on %d dev cases (exact / over-constrained / missed):\n%s",
             len(cases), format_scores(scores))
    for diff in diffs:
        log.debug("%(case_id)s %(field)s gold=%(gold)s got=%(got)s", diff)
    for name, score in scores.items():
        record_property(f"exact_{name}", round(score.rate("exact"), 3))
    low = {n: round(s.rate("exact"), 3) for n, s in scores.items() if s.rate("exact") < FLOORS[n]}
    assert not low, f"below floor: {low}"
    over = {n: round(scores[n].rate("over"), 3) for n, limit in MAX_OVER.items() if scores[n].rate("over") > limit}
    assert not over, f"too many wrong constraints: {over}"


def test_every_dev_query_gets_a_well_formed_ladder(vocab, cases):
    for case in cases:
        result = run_gate(case["query"], vocab=vocab, expand_query=True)
        labels = [rung.label for rung in result.ladder]
        assert labels[0] == "W0" and labels == sorted(labels), case["case_id"]
        if result.strict_keys:
            assert "W2" not in labels, case["case_id"]


def test_abstention_cases_name_what_is_missing(vocab, cases):
    """The gate says why W0 is empty; the gateway decides whether to relax (README: abstain)."""
    for case in cases:
        if case["task_type"] == "adversarial" and case["expect_empty_scope"] and not case["relevant"]:
            result = run_gate(case["query"], vocab=vocab)
            assert result.notes, case["case_id"]
