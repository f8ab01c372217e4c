"""The rerank chain: parsing, order of stages, cross-encoder pool and tail."""

import pytest

from chsr.scope import Scope
from services.rerank.chain import RerankStage, parse_chain, rerank
from services.rerank.cross_encoder import CrossEncoderUnavailable

from .helpers import FakeScorer, item

pytestmark = pytest.mark.unit

ITEMS = [item("a", 0.9, "the cat sat on the mat"), item("b", 0.8, "the cat sat on a mat"),
         item("c", 0.7, "dogs bark loudly at night"), item("d", 0.6, "rain falls in spain")]


def test_parse_chain():
    assert parse_chain("cross_encoder, dedup,mmr") == [RerankStage.CROSS_ENCODER, RerankStage.DEDUP, RerankStage.MMR]
    assert parse_chain("") == [RerankStage.NONE]
    with pytest.raises(ValueError, match="mode: unknown rerank stage 'bm25'; valid: none, curriculum"):
        parse_chain("dedup,bm25")


def test_none_keeps_order_and_records_the_fused_score():
    out = rerank("q", ITEMS, None, "none", k=2)
    assert [i.doc_id for i in out.items] == ["a", "b"]
    assert out.items[0].features["fused"] == 0.9 and out.removed_duplicates == 0


def test_dedup_then_mmr():
    out = rerank("q", ITEMS, Scope(), "dedup,mmr", params={"dedup_threshold": "0.65", "mmr_lambda": "0.7"})
    assert [i.doc_id for i in out.items][0] == "a" and "b" not in [i.doc_id for i in out.items]
    assert out.removed_duplicates == 1 and out.telemetry["removed_duplicates"] == 1
    assert {"ms_dedup", "ms_mmr", "n_in", "n_out"} <= set(out.telemetry)


def test_cross_encoder_scores_the_pool_before_dedup_and_keeps_the_tail_below():
    scorer = FakeScorer({ITEMS[1].text: 5.0, ITEMS[0].text: 1.0, ITEMS[2].text: 3.0})
    out = rerank("q", ITEMS, None, "cross_encoder,dedup", params={"pool": "3"}, cross_encoder=scorer)
    # pool a, b, c -> b (5), c (3), a (1); then dedup drops a (J(a, b) = 5/6); d stays in the tail
    assert [i.doc_id for i in out.items] == ["b", "c", "d"]
    assert [i.score for i in out.items] == [5.0, 3.0, 0.0]   # tail: pool minimum (1.0) - 1
    assert out.items[0].features["ce"] == 5.0 and out.items[0].features["fused"] == 0.8
    assert len(scorer.calls[0]) == 3 and out.telemetry["ce_pool"] == 3


def test_cross_encoder_without_a_model_is_unavailable():
    with pytest.raises(CrossEncoderUnavailable):
        rerank("q", ITEMS, None, "cross_encoder")


def test_weight_zero_keeps_the_first_stage_order_scores_nothing_and_needs_no_model():
    scorer = FakeScorer({ITEMS[3].text: 9.0})
    out = rerank("q", ITEMS, None, "cross_encoder", params={"pool": "3", "ce_weight": "0"}, cross_encoder=scorer)
    assert [i.doc_id for i in out.items] == ["a", "b", "c", "d"] and not scorer.calls
    assert out.telemetry["ce_weight"] == 0.0 and out.telemetry["ce_pool"] == 0.0
    assert [i.doc_id for i in rerank("q", ITEMS, None, "cross_encoder", params={"ce_weight": "0"}).items] == \
        ["a", "b", "c", "d"]


def test_curriculum_stage_counts_removed_duplicates():
    items = ITEMS + [item("e", 0.5, "the cat sat on the mat")]
    out = rerank("q", items, Scope(), "curriculum")
    assert out.removed_duplicates == 2      # b (J = 5/6 >= 0.75) and e (J = 1)
    assert out.telemetry["alignment_mean"] == 1.0


def test_empty_items():
    out = rerank("q", [], None, "curriculum,dedup,mmr")
    assert out.items == [] and out.removed_duplicates == 0
