"""Weighted sums and the missing-document floor."""

import numpy as np
import pytest

from services.fusion.linear import alpha_weights, list_floor, weighted_sum
from services.fusion.normalize import minmax, zscore

pytestmark = pytest.mark.unit


def test_convex_combination_with_min_max_floor():
    sparse = (["a", "b", "c"], minmax([3.0, 2.0, 1.0]))   # 1, 0.5, 0
    dense = (["b", "d", "a"], minmax([0.9, 0.8, 0.1]))    # 1, 0.875, 0
    fused, floors = weighted_sum({"sparse": sparse, "dense": dense}, alpha_weights(0.5))
    assert floors == {"sparse": 0.0, "dense": 0.0}
    assert fused == pytest.approx({
        "a": 0.5 * 1.0 + 0.5 * 0.0,
        "b": 0.5 * 0.5 + 0.5 * 1.0,
        "c": 0.5 * 0.0 + 0.5 * 0.0,    # absent from dense: dense floor 0
        "d": 0.5 * 0.0 + 0.5 * 0.875,  # absent from sparse: sparse floor 0
    })


def test_floor_is_the_lowest_normalised_score():
    assert list_floor(zscore([3.0, 2.0, 1.0])) == pytest.approx(-1.2247449)
    assert list_floor(np.array([])) == 0.0
    assert list_floor(np.array([np.nan, 0.4])) == 0.4


def test_nan_score_takes_the_floor():
    fused, _ = weighted_sum({"s": (["a", "b", "c"], np.array([1.0, np.nan, 0.2]))}, {"s": 1.0})
    assert fused == pytest.approx({"a": 1.0, "b": 0.2, "c": 0.2})


def test_alpha_must_be_a_weight():
    assert alpha_weights(0.3) == pytest.approx({"sparse": 0.3, "dense": 0.7})
    with pytest.raises(ValueError):
        alpha_weights(1.5)
