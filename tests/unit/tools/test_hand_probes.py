"""The hand-probe verdict: the target first, nothing outside the expected scope (tools/gate/hand_probes.py)."""

from __future__ import annotations

import pytest

from tools.gate.hand_probes import judge

pytestmark = pytest.mark.unit

PHYSICS = {"subject": "physics", "year": 2020, "question_number": 11}
CHEMISTRY = {"subject": "chemistry", "year": 2020, "question_number": 11}


def test_the_target_first_and_every_result_in_scope_passes():
    verdict = judge([("p11", PHYSICS), ("p11:solution", PHYSICS)], "p11", {"subject": "physics", "year": 2020})
    assert verdict.rank == 1 and verdict.out_of_scope == 0 and verdict.passed


@pytest.mark.parametrize("results,rank,outside", [
    ([("c11", CHEMISTRY), ("p11", PHYSICS)], 2, 1),   # found, but below an out-of-scope result
    ([("c11", CHEMISTRY)], 0, 1),                      # not found
    ([], 0, 0),                                        # an empty answer never passes
])
def test_a_lower_rank_a_missing_target_or_a_result_outside_the_scope_fails(results, rank, outside):
    verdict = judge(results, "p11", {"subject": "physics"})
    assert (verdict.rank, verdict.out_of_scope, verdict.passed) == (rank, outside, False)
