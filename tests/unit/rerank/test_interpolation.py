"""Cross-encoder / first-stage interpolation (the blend that keeps reranking from hurting)."""

from __future__ import annotations

import numpy as np
import pytest

from services.rerank.chain import interpolate, minmax, rerank
from services.rerank.params import RerankParams
from tests.unit.rerank.helpers import FakeScorer, item

pytestmark = pytest.mark.unit

ITEMS = [item("a", 0.9, "ta"), item("b", 0.5, "tb"), item("c", 0.1, "tc")]
CE = {"ta": -2.0, "tb": 3.0, "tc": 1.0}


def test_minmax_and_blend_by_hand():
    assert minmax(np.array([1.0, 3.0, 2.0])).tolist() == [0.0, 1.0, 0.5]
    assert minmax(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]
    # ce (-2, 3, 1) -> (0, 1, 0.6); first stage (0.9, 0.5, 0.1) -> (1, 0.5, 0); w = 0.25
    assert interpolate(np.array([-2.0, 3.0, 1.0]), np.array([0.9, 0.5, 0.1]), 0.25).tolist() == \
        pytest.approx([0.75, 0.625, 0.15])


@pytest.mark.parametrize("weight,order", [("1.0", ["b", "c", "a"]), ("0.25", ["a", "b", "c"]), ("0.6", ["b", "a", "c"])])
def test_the_weight_moves_between_the_cross_encoder_and_the_first_stage(weight, order):
    out = rerank("q", ITEMS, None, "cross_encoder", params={"ce_weight": weight}, cross_encoder=FakeScorer(CE))
    assert [it.doc_id for it in out.items] == order
    assert out.telemetry["ce_weight"] == float(weight)
    assert [it.features["ce"] for it in out.items if it.doc_id == "b"] == [3.0]


def test_weight_zero_is_the_first_stage_order_and_scores_nothing():
    scorer = FakeScorer(CE)
    out = rerank("q", ITEMS, None, "cross_encoder", params={"ce_weight": "0"}, cross_encoder=scorer)
    assert [it.doc_id for it in out.items] == ["a", "b", "c"] and scorer.calls == []


def test_weight_is_validated():
    with pytest.raises(ValueError, match="params.ce_weight"):
        RerankParams.from_mapping({"ce_weight": "1.5"})
