"""The gate report's re-weighting of the generated set to dev's slice x task-type mix (issue 21, item 1)."""

from __future__ import annotations

import pytest

from tools.gate.mesh_report import mix_line, mix_weighted

pytestmark = pytest.mark.unit


def _row(slice_: str, task: str, leakage: float | None, ess: float | None = None) -> dict:
    return {"slice": slice_, "task_type": task, "leakage": leakage, "ess": ess}


def test_each_cell_counts_as_often_as_dev_has_cases_in_it():
    generated = [_row("table", "exact", 0.0)] * 9 + [_row("table", "adversarial", 1.0)]
    dev = [_row("table", "exact", 0.0), _row("table", "adversarial", 0.0), _row("table", "adversarial", 0.0)]
    assert mix_weighted(generated, dev, "leakage") == pytest.approx((2 / 3, 1.0))   # plain mean: 0.1


def test_cells_the_generated_set_lacks_are_left_out_and_reported():
    generated = [_row("mcq", "exact", 0.2)]
    dev = [_row("mcq", "exact", 0.0), _row("formula", "synthesis", 0.0), _row("formula", "synthesis", None)]
    mean, covered = mix_weighted(generated, dev, "leakage")
    assert mean == pytest.approx(0.2) and covered == pytest.approx(0.5)   # the None case is not in the mix
    assert mix_weighted([], dev, "leakage") == (None, 0.0)


def test_the_report_line_says_the_gap_and_the_coverage():
    line = mix_line([_row("mcq", "exact", 0.1, 1.0)], [_row("mcq", "exact", 0.0, 1.0)],
                    [_row("mcq", "exact", 0.3, 0.5)])
    assert "leakage 0.100 vs validation 0.300 (gap -0.200; cells covering 100% of dev's cases)" in line
    assert "exact-scope success 1.000 vs validation 0.500 (gap +0.500" in line
