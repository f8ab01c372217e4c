"""Normalisers against hand-computed values (issue 4: every function, hand-checked)."""

import math

import numpy as np
import pytest

from services.fusion.normalize import Normaliser, dbsf, l2, minmax, normalise, zscore

pytestmark = pytest.mark.unit

SQRT_2_3 = math.sqrt(2 / 3)  # population std of [1, 2, 3]


def test_minmax_of_one_two_three():
    assert minmax([1, 2, 3]).tolist() == [0.0, 0.5, 1.0]


@pytest.mark.parametrize("fn,expected", [(minmax, 1.0), (zscore, 0.0), (dbsf, 0.5)])
def test_all_equal_scores_map_to_a_constant_without_nan(fn, expected):
    out = fn([4.0, 4.0, 4.0])
    assert out.tolist() == [expected] * 3


@pytest.mark.parametrize("fn", [minmax, zscore, l2, dbsf])
def test_empty_and_single(fn):
    assert fn([]).size == 0
    assert np.isfinite(fn([7.0])).all()


def test_zscore_of_one_two_three():
    # mean 2, population std sqrt(2/3): z = (x - 2) / 0.8165 = -1.2247, 0, 1.2247
    assert zscore([1, 2, 3]) == pytest.approx([-1 / SQRT_2_3, 0.0, 1 / SQRT_2_3])


def test_l2_of_three_four_and_zero_vector():
    assert l2([3, 4]) == pytest.approx([0.6, 0.8])  # ||(3, 4)|| = 5
    assert l2([0, 0]).tolist() == [0.0, 0.0]


def test_dbsf_of_one_two_three():
    # (x - (mu - 3 sd)) / (6 sd): the mean maps to 0.5, x = mu +- 1.2247 sd maps to 0.5 +- 1.2247/6
    assert dbsf([1, 2, 3]) == pytest.approx([0.5 - 0.2041241, 0.5, 0.5 + 0.2041241])


def test_dbsf_clips_outliers_beyond_three_sigma():
    out = dbsf([0.0] * 99 + [100.0])  # z(100) = 9.95
    assert out.max() == 1.0 and out.min() >= 0.0


def test_from_str_names_valid_values():
    assert Normaliser.from_str("MinMax") is Normaliser.MINMAX
    with pytest.raises(ValueError, match="valid: raw, minmax, zscore, l2, dbsf, cdf"):
        Normaliser.from_str("softmax")


def test_cdf_needs_a_calibrator():
    with pytest.raises(ValueError, match="calibrator"):
        normalise(Normaliser.CDF, [1.0])
