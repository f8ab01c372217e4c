"""Corpus-level CDF calibrator: values, ties, persistence, and the no-test-queries guard."""

import numpy as np
import pytest

from tools.calibrate.build_cdf import build_calibrators
from services.fusion.calibration import Calibrator, build_cdf, load_calibrators

pytestmark = pytest.mark.unit


def test_empirical_cdf_of_one_to_four():
    cal = build_cdf(np.array([1.0, 2.0, 3.0, 4.0]))
    # P(X <= 1) = 1/4, halfway between 2 (1/2) and 3 (3/4) = 5/8, below the range 0, above 1
    assert cal.apply([0.0, 1.0, 2.5, 4.0, 5.0]).tolist() == pytest.approx([0.0, 0.25, 0.625, 1.0, 1.0])


def test_ties_use_the_last_rank():
    cal = build_cdf(np.array([0.0, 0.0, 0.0, 1.0]))   # BM25-like: many zeros
    assert cal.apply([0.0, 0.5, -1.0]).tolist() == pytest.approx([0.75, 0.875, 0.0])


def test_quantile_compression():
    cal = build_cdf(np.arange(1001, dtype=float), n_points=11)   # quantiles 0, 100, ..., 1000
    assert cal.quantiles.tolist() == [float(q) for q in range(0, 1001, 100)]
    assert cal.apply([500.0])[0] == pytest.approx(501 / 1001)
    assert cal.n_scores == 1001


def test_non_finite_scores():
    cal = build_cdf(np.array([1.0, np.nan, 2.0, np.inf]))
    assert cal.n_scores == 2
    out = cal.apply([np.nan, 1.5])
    assert np.isnan(out[0]) and out[1] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="no finite scores"):
        build_cdf(np.array([np.nan]))


def test_single_value_reference():
    cal = build_cdf(np.array([2.0, 2.0]))
    assert cal.apply([1.0, 2.0, 3.0]).tolist() == [0.0, 1.0, 1.0]


def test_refuses_test_queries():
    with pytest.raises(ValueError, match="never be built from test queries"):
        build_cdf(np.array([1.0, 2.0]), source="scifact-test")


def test_save_load_round_trip(tmp_path):
    cal = build_cdf(np.array([1.0, 2.0, 3.0]), name="dense", generation=7, model="all-MiniLM-L6-v2",
                    source="train")
    path = cal.save(tmp_path / "cdf_dense.npz")
    back = Calibrator.load(path)
    assert (back.name, back.generation, back.model, back.source, back.n_scores) == \
        ("dense", 7, "all-MiniLM-L6-v2", "train", 3)
    assert back.apply([1.5, 2.5]).tolist() == cal.apply([1.5, 2.5]).tolist()
    assert Calibrator.from_dict(cal.to_dict()).apply([2.0])[0] == pytest.approx(2 / 3)


def test_build_calibrators_pools_queries_and_loads_by_name(tmp_path):
    written = build_calibrators({"sparse": [np.array([1.0, 2.0]), np.array([3.0, 4.0])],
                                 "dense": [np.array([0.1, 0.2])]}, tmp_path, generation=3,
                                models={"dense": "minilm"})
    assert sorted(p.name for p in written.values()) == ["cdf_dense.npz", "cdf_sparse.npz"]
    cals = load_calibrators(tmp_path)
    assert cals["sparse"].n_scores == 4 and cals["sparse"].apply([2.0])[0] == pytest.approx(0.5)
    assert cals["dense"].model == "minilm" and cals["dense"].generation == 3
    assert load_calibrators(tmp_path / "missing") == {}
    assert load_calibrators(None) == {}
