"""Seed 003's coverage metrics and the rerank-blend tuning, by hand."""

from __future__ import annotations

import pytest

from tools.eval.strategies import STRATEGIES, coverage
from tools.eval.tune_rerank import blended_run, choose

pytestmark = pytest.mark.unit


def test_fifteen_strategies_in_the_seed_order():
    assert [s.number for s in STRATEGIES] == list(range(1, 16))
    assert STRATEGIES[12].pipeline == "specter2" and STRATEGIES[13].pipeline == "kg_rrf"


def test_entity_and_relation_coverage():
    texts = {"a": "brca1 increases breast cancer risk", "b": "p53 and tumor growth", "c": "unrelated"}
    target = {"entities": ["BRCA1", "p53", "mTOR"],
              "relations": [["brca1", "increas", "cancer"], ["p53", "inhibit", "tumor"], ["brca1", "", "p53"]]}
    ent, rel = coverage(["a", "b", "c"], texts, target)
    assert ent == pytest.approx(2 / 3)        # mTOR not retrieved
    assert rel == pytest.approx(1 / 3)        # only the first triple has its three terms in one text
    assert coverage(["c"], texts, target) == (0.0, 0.0)


def test_blend_reorders_only_the_pool_head():
    pools = {"q": [("a", 3.0), ("b", 2.0), ("c", 1.0)]}
    ce = {("q", "a"): 0.0, ("q", "b"): 1.0, ("q", "c"): 5.0}
    assert list(blended_run(pools, ce, pool=2, weight=1.0)["q"]) == ["b", "a", "c"]
    assert list(blended_run(pools, ce, pool=3, weight=0.0)["q"]) == ["a", "b", "c"]


def test_choose_prefers_quality_then_the_smaller_weight_and_pool_within_the_budget():
    grid = {"10:0.0": 0.70, "10:0.5": 0.75, "10:0.6": 0.75, "20:0.5": 0.80}
    assert choose(grid, {10: 200.0, 20: 900.0}, 400.0, [10, 20]) == (10, 0.5)
    assert choose(grid, {10: 200.0, 20: 300.0}, 400.0, [10, 20]) == (20, 0.5)
    assert choose(grid, {10: 200.0, 20: 300.0}, 400.0, [10, 20], pool=10) == (10, 0.5)


def test_choose_uses_a_blend_only_when_its_gain_is_significant():
    grid = {"10:0.0": 0.70, "10:0.2": 0.72, "10:0.5": 0.75, "20:0.0": 0.70, "20:0.5": 0.76}
    p95 = {10: 200.0, 20: 300.0}
    p = {"10:0.0": 1.0, "10:0.2": 0.01, "10:0.5": 0.20, "20:0.0": 1.0, "20:0.5": 0.30}
    assert choose(grid, p95, 400.0, [10, 20], p_values=p, alpha=0.05) == (10, 0.2)
    assert choose(grid, p95, 400.0, [10, 20], p_values={**p, "10:0.2": 0.5}, alpha=0.05) == (10, 0.0)
    # a significant *loss* is not a gain
    assert choose({"10:0.0": 0.70, "10:0.5": 0.60}, p95, 400.0, [10], p_values={"10:0.0": 1.0, "10:0.5": 0.001},
                  alpha=0.05) == (10, 0.0)
