"""Shannon entropy (bits) and the entropy-weighted alpha of seed 002."""

import math

import pytest

from services.fusion.entropy import entropy_alpha, entropy_bits, normalised_entropy
from services.fusion.normalize import minmax, zscore

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("scores,bits", [
    ([0.5, 0.5], 1.0),
    ([1, 1, 1, 1], 2.0),
    ([0.25, 0.75], 0.8112781244591328),   # -(1/4 log2 1/4 + 3/4 log2 3/4) = 0.5 + 0.311278
    ([1.0, 0.0], 0.0),                    # all mass on one candidate
    ([0.7], 0.0),
    ([], 0.0),
    ([0.0, 0.0, 0.0, 0.0], 2.0),          # no mass anywhere: uniform
    ([0.5, float("nan"), 0.5], 1.0),      # NaN ignored
    # Negative scores go through softmax: softmax(-1, 1) = (0.1192, 0.8808) -> 0.527065 bits
    ([-1.0, 1.0], 0.5270653410031616),
])
def test_entropy_bits(scores, bits):
    assert entropy_bits(scores) == pytest.approx(bits)


def test_raw_entropy_is_scale_invariant():
    assert entropy_bits([6, 4, 2]) == pytest.approx(entropy_bits([3, 2, 1]))


def test_variants_do_not_collapse_the_seed_002_invariance_bug():
    raw = [3.0, 2.0, 1.0]
    h_raw = entropy_bits(raw)              # p = 1/2, 1/3, 1/6 -> 1.459148
    h_minmax = entropy_bits(minmax(raw))   # p = 2/3, 1/3, 0   -> 0.918296
    h_zscore = entropy_bits(zscore(raw))   # softmax of (1.2247, 0, -1.2247)
    assert h_raw == pytest.approx(1.4591479170272448)
    assert h_minmax == pytest.approx(0.9182958340544896)
    assert len({round(h_raw, 6), round(h_minmax, 6), round(h_zscore, 6)}) == 3


def test_entropy_alpha():
    assert entropy_alpha(h_dense=1.0, h_sparse=3.0) == pytest.approx(0.25)
    assert entropy_alpha(h_dense=2.0, h_sparse=2.0) == pytest.approx(0.5)
    assert entropy_alpha(h_dense=3.0, h_sparse=1.0) == pytest.approx(0.75)
    assert entropy_alpha(0.0, 0.0) == 0.5            # no evidence either way
    assert entropy_alpha(math.nan, 1.0) == 0.5
    assert entropy_alpha(1.0, 1.0, eps=1.0) == pytest.approx(1 / 3)  # eps sits in the denominator


def test_normalised_entropy():
    assert normalised_entropy([1, 1, 1, 1]) == pytest.approx(1.0)
    assert normalised_entropy([1.0, 0.0]) == 0.0
    assert normalised_entropy([1.0]) == 0.0
