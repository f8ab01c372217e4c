"""fuse(): every mode, and the edge cases that broke other fusion libraries (issue 4)."""

import math

import numpy as np
import pytest

from services.fusion.calibration import build_cdf
from services.fusion.modes import FusionMode, fuse
from chsr.errors import InvalidArgument

pytestmark = pytest.mark.unit

MODES = [m.value for m in FusionMode]
LISTS = {"sparse": [("a", 3.0), ("b", 2.0), ("c", 1.0)], "dense": [("b", 0.9), ("d", 0.8), ("a", 0.1)]}


def ids(out):
    return [item.doc_id for item in out.items]


def assert_finite(out):
    for item in out.items:
        assert math.isfinite(item.score)
        assert all(math.isfinite(v) for v in item.features.values())
    assert all(math.isfinite(v) for v in out.telemetry.values())


def test_from_str_names_valid_values():
    assert FusionMode.from_str("RRF") is FusionMode.RRF
    with pytest.raises(ValueError, match=r"mode: unknown 'x'; valid: rrf, linear, dbsf, entropy, adaptive"):
        FusionMode.from_str("x")


def test_rrf_hand_computed():
    out = fuse(LISTS, "rrf", 0, {"rrf_k": "60"})
    assert ids(out) == ["b", "a", "d", "c"]
    assert [i.score for i in out.items] == pytest.approx([1 / 62 + 1 / 61, 1 / 61 + 1 / 63, 1 / 62, 1 / 63])
    assert out.normaliser == "rank"
    assert out.items[0].features == {"sparse": 2.0, "sparse_rank": 2.0, "dense": 0.9, "dense_rank": 1.0}


def test_linear_hand_computed():
    out = fuse(LISTS, "linear", 0, {"alpha": "0.5", "norm": "minmax"})
    assert ids(out) == ["b", "a", "d", "c"]
    assert [i.score for i in out.items] == pytest.approx([0.75, 0.5, 0.4375, 0.0])
    assert out.telemetry["alpha"] == 0.5 and out.normaliser == "minmax"
    assert out.items[0].features["sparse_norm"] == 0.5


def test_dbsf_sums_weighted_per_list_scores():
    # s: dbsf(1, 2, 3) = 0.2959, 0.5, 0.7041; d: mu 15, sd 5 -> (x - 0) / 30 = 1/3 (c), 2/3 (a);
    # b is absent from d and takes d's floor 1/3; d has weight 2
    lists = {"s": [("a", 1.0), ("b", 2.0), ("c", 3.0)], "d": [("c", 10.0), ("a", 20.0)]}
    out = fuse(lists, "dbsf", weights={"d": 2.0})
    assert ids(out) == ["a", "c", "b"]
    assert [i.score for i in out.items] == pytest.approx(
        [0.2958759 + 2 * 2 / 3, 0.7041241 + 2 * 1 / 3, 0.5 + 2 * 1 / 3])
    assert out.normaliser == "dbsf"


@pytest.mark.parametrize("mode", MODES)
def test_empty_inputs(mode):
    assert fuse({}, mode).items == []
    out = fuse({"sparse": [], "dense": []}, mode)
    assert out.items == [] and out.telemetry["n_fused"] == 0
    assert_finite(out)


@pytest.mark.parametrize("mode", MODES)
def test_one_list_empty_ranks_by_the_other(mode):
    out = fuse({"sparse": [("a", 3.0), ("b", 2.0), ("c", 1.0)], "dense": []}, mode)
    assert ids(out) == ["a", "b", "c"]
    assert_finite(out)


@pytest.mark.parametrize("mode", MODES)
def test_single_candidate(mode):
    out = fuse({"sparse": [("a", 3.0)], "dense": [("a", 0.5)]}, mode)
    assert ids(out) == ["a"]
    assert_finite(out)


@pytest.mark.parametrize("mode", MODES)
def test_all_equal_scores_no_division_by_zero(mode):
    out = fuse({"sparse": [("a", 1.0), ("b", 1.0), ("c", 1.0)], "dense": [("c", 0.5), ("b", 0.4)]}, mode)
    assert_finite(out)
    assert ids(out)[0] == "c"


def test_all_equal_list_carries_no_information_and_ties_break_by_id():
    # sparse is constant (contributes 1.0 to everyone); dense min-max: c 1, b 0, a floor 0
    out = fuse({"sparse": [("a", 1.0), ("b", 1.0), ("c", 1.0)], "dense": [("c", 0.5), ("b", 0.4)]}, "linear")
    assert ids(out) == ["c", "a", "b"]
    assert [i.score for i in out.items] == pytest.approx([1.0, 0.5, 0.5])


@pytest.mark.parametrize("mode", MODES)
def test_nan_and_none_scores_never_propagate(mode):
    out = fuse({"sparse": [("a", math.nan), ("b", 2.0), ("c", None)], "dense": [("b", 0.9), ("a", 0.2)]}, mode)
    assert_finite(out)
    assert out.telemetry["missing_scores"] == 2
    assert "sparse" not in out.items[ids(out).index("a")].features  # no raw score reported for NaN


def test_nan_score_is_treated_as_lowest_in_score_modes():
    out = fuse({"sparse": [("a", math.nan), ("b", 2.0), ("c", 1.0)]}, "dbsf")
    assert ids(out)[0] == "b"
    a, c = (out.items[ids(out).index(d)].score for d in ("a", "c"))
    assert a == pytest.approx(c)  # NaN takes the list floor = the lowest real score


def test_duplicate_ids_keep_the_best_score_and_rank():
    out = fuse({"sparse": [("a", 1.0), ("b", 3.0), ("a", 5.0)], "dense": []}, "linear")
    assert ids(out) == ["a", "b"]
    assert out.items[0].features["sparse"] == 5.0 and out.items[0].features["sparse_rank"] == 1.0
    assert out.telemetry["duplicates"] == 1


def test_deterministic_tie_breaking_by_doc_id():
    first = fuse({"sparse": [("y", 1.0), ("x", 0.5)], "dense": [("x", 1.0), ("y", 0.5)]}, "rrf")
    second = fuse({"dense": [("x", 1.0), ("y", 0.5)], "sparse": [("y", 1.0), ("x", 0.5)]}, "rrf")
    assert ids(first) == ids(second) == ["x", "y"]
    assert first.items[0].score == first.items[1].score


def test_k_truncates_and_window_limits_each_list():
    assert ids(fuse(LISTS, "rrf", k=2)) == ["b", "a"]
    out = fuse(LISTS, "rrf", 0, {"window": "1"})
    assert ids(out) == ["a", "b"] and out.telemetry["n_sparse"] == 1


def test_entropy_mode_alpha_from_raw_entropies():
    # raw sparse (0.5, 0.5): H = 1 bit; raw dense (1, 1, 1, 1): H = 2 bits -> alpha = 2 / 3
    lists = {"sparse": [("a", 0.5), ("b", 0.5)], "dense": [("a", 1.0), ("c", 1.0), ("d", 1.0), ("e", 1.0)]}
    out = fuse(lists, "entropy", 0, {"entropy_norm": "raw"})
    assert out.telemetry["h_sparse"] == pytest.approx(1.0)
    assert out.telemetry["h_dense"] == pytest.approx(2.0)
    assert out.telemetry["alpha"] == pytest.approx(2 / 3)
    assert out.normaliser == "minmax" and out.telemetry["cdf_missing"] == 0


def test_entropy_alpha_trusts_the_non_degenerate_list():
    out = fuse({"sparse": [("a", 3.0), ("b", 1.0)], "dense": [("c", 0.9)]}, "entropy", 0, {"entropy_norm": "raw"})
    assert out.telemetry["alpha"] == 1.0


def test_cdf_without_calibrators_falls_back_to_minmax():
    out = fuse(LISTS, "entropy")   # entropy_norm defaults to cdf
    assert out.telemetry["cdf_missing"] == 1.0 and out.normaliser == "minmax"
    assert [i.score for i in out.items] == [i.score for i in fuse(
        LISTS, "linear", 0, {"alpha": str(out.telemetry["alpha"])}).items]


def test_cdf_with_calibrators():
    cals = {"sparse": build_cdf(np.array([0.0, 1.0, 2.0, 3.0]), name="sparse"),
            "dense": build_cdf(np.array([0.0, 0.5, 1.0]), name="dense")}
    out = fuse(LISTS, "linear", 0, {"norm": "cdf", "alpha": "0.5"}, cals)
    assert out.normaliser == "cdf" and out.telemetry["cdf_missing"] == 0
    # b: sparse CDF(2) = 3/4, dense CDF(0.9) = 2/3 + 0.8 * 1/3 = 0.9333
    assert out.items[0].doc_id == "b"
    assert out.items[0].score == pytest.approx(0.5 * 0.75 + 0.5 * (2 / 3 + 0.8 / 3))
    assert "h_sparse_cdf" in out.telemetry and "h_dense_cdf" in out.telemetry


def test_telemetry_reports_every_entropy_variant():
    out = fuse(LISTS, "rrf")
    for name in ("sparse", "dense"):
        for variant in ("raw", "minmax", "zscore"):
            assert f"h_{name}_{variant}" in out.telemetry
        assert f"h_{name}_cdf" not in out.telemetry   # no calibrator loaded
    assert out.telemetry["h_sparse_minmax"] == pytest.approx(0.9182958340544896)
    assert out.telemetry["overlap"] == 2 and out.telemetry["n_fused"] == 4


def test_adaptive_score_gap_hand_computed():
    lists = {"sparse": [("a", 10.0), ("b", 5.0), ("c", 0.0)], "dense": [("a", 1.0), ("b", 0.9), ("c", 0.0)]}
    # gap: sparse (10 - 5) / (10 - 0) = 0.5, dense (1 - 0.9) / 1 = 0.1
    out = fuse(lists, "adaptive", 0, {"adaptive_signal": "score_gap", "adaptive_gain": "0.5"})
    assert out.telemetry["conf_sparse"] == pytest.approx(0.5)
    assert out.telemetry["conf_dense"] == pytest.approx(0.1)
    assert out.telemetry["alpha"] == pytest.approx(0.5 + 0.5 * 0.4)
    clipped = fuse(lists, "adaptive", 0, {"adaptive_signal": "score_gap"})
    assert clipped.telemetry["alpha"] == pytest.approx(0.8)   # 0.9 clipped to alpha_max


def test_adaptive_zscore_entropy_confidence():
    # two candidates: z = (1, -1); softmax -> 0.527065 bits; log2(2) = 1 -> c = 0.472935
    lists = {"sparse": [("a", 5.0), ("b", 1.0)], "dense": [("a", 1.0), ("b", 1.0), ("c", 1.0)]}
    out = fuse(lists, "adaptive")
    assert out.telemetry["conf_sparse"] == pytest.approx(0.4729346589968384)
    assert out.telemetry["conf_dense"] == pytest.approx(0.0)   # flat list: no confidence
    assert out.telemetry["alpha"] == pytest.approx(0.8)        # 0.5 + 0.473 clipped


def test_entropy_modes_need_sparse_and_dense_names():
    with pytest.raises(ValueError, match="lists: mode 'entropy'"):
        fuse({"sparse": [("a", 1.0)], "bm25": [("a", 1.0)]}, "entropy")


def test_linear_blends_any_two_lists_alpha_weighing_the_first():
    # seed 003 #3-5: BM25 + TF-IDF. Min-max: sparse a=1, b=0; tfidf a=0, b=1; alpha 0.7 on the first.
    out = fuse({"sparse": [("a", 3.0), ("b", 1.0)], "tfidf": [("b", 0.9), ("a", 0.1)]}, "linear",
               params={"alpha": "0.7"})
    assert [(i.doc_id, round(i.score, 6)) for i in out.items] == [("a", 0.7), ("b", 0.3)]


def test_linear_refuses_three_lists():
    with pytest.raises(ValueError, match="lists: mode 'linear' blends exactly two lists"):
        fuse({"sparse": [("a", 1.0)], "tfidf": [("a", 1.0)], "graph": [("a", 1.0)]}, "linear")


@pytest.mark.parametrize("params,field", [
    ({"alpha": "abc"}, "params.alpha"),
    ({"alpha": "1.5"}, "params.alpha"),
    ({"aplha": "0.5"}, "params.aplha"),
    ({"norm": "softmax"}, "params.norm"),
    ({"entropy_norm": "l2"}, "params.entropy_norm"),
    ({"window": "-1"}, "params.window"),
    ({"alpha_min": "0.9", "alpha_max": "0.1"}, "params.alpha_min"),
    ({"adaptive_signal": "clarity"}, "params.adaptive_signal"),
])
def test_bad_params_name_the_field(params, field):
    with pytest.raises(InvalidArgument) as err:
        fuse(LISTS, "linear", 0, params)
    assert err.value.field == field and str(err.value).startswith(field)
