"""RRF against fractions written out by hand (k = 60, Cormack et al. 2009)."""

import pytest

from services.fusion.rrf import rrf

pytestmark = pytest.mark.unit

SPARSE = ["a", "b", "c"]
DENSE = ["b", "d", "a"]


def test_two_lists_k60():
    fused = rrf({"sparse": SPARSE, "dense": DENSE}, k=60)
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 63)  # rank 1 in sparse, rank 3 in dense
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)  # rank 2 in sparse, rank 1 in dense
    assert fused["c"] == pytest.approx(1 / 63)
    assert fused["d"] == pytest.approx(1 / 62)
    assert fused["b"] > fused["a"]  # 123/3782 = 0.032523 > 124/3843 = 0.032266


def test_per_list_weights():
    fused = rrf({"sparse": SPARSE, "dense": DENSE}, k=60, weights={"dense": 2.0})
    assert fused["d"] == pytest.approx(2 / 62)
    assert fused["b"] == pytest.approx(1 / 62 + 2 / 61)


def test_window_keeps_only_the_head_of_each_list():
    fused = rrf({"sparse": SPARSE, "dense": DENSE}, k=60, window=1)
    assert fused == pytest.approx({"a": 1 / 61, "b": 1 / 61})


def test_k_zero_is_reciprocal_rank_and_negative_k_fails():
    assert rrf({"s": ["x", "y"]}, k=0) == pytest.approx({"x": 1.0, "y": 0.5})
    with pytest.raises(ValueError):
        rrf({"s": ["x"]}, k=-1)


def test_empty_input():
    assert rrf({}) == {}
    assert rrf({"sparse": [], "dense": []}) == {}
