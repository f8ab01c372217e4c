import time

import pytest

from chsr.config import Settings
from chsr.scope import Scope
from chsr.v1 import gateway_pb2
from chsr.errors import DeadlineExceeded, InvalidArgument
from gateway.budget import Budget
from gateway.cache.base import cache_key
from gateway.cache.memory import MemoryCache
from gateway.pipelines import PIPELINES, get_pipeline
from gateway.request import plan_search

pytestmark = pytest.mark.unit


def test_pipeline_registry_has_ablation_and_strategies():
    for name in ["sparse", "dense", "rrf", "A", "B", "B+", "C", "D", "E", "hybrid_fixed", "hybrid_calibrated",
                 "linear_0.3", "linear_0.5", "linear_0.7", "rrf_dedup", "rrf_dedup_mmr", "adaptive"]:
        assert name in PIPELINES
    assert get_pipeline("E", 100).relaxation and get_pipeline("E", 100).expansion
    assert get_pipeline("B+", 100).post_filter and get_pipeline("B", 100).gate == "none"
    with pytest.raises(InvalidArgument, match="pipeline: unknown 'nope'"):
        get_pipeline("nope", 100)


def test_candidate_depth_comes_from_the_setting_unless_the_pipeline_sets_it():
    assert get_pipeline("C", 40).depth == 40
    plan = plan_search(gateway_pb2.SearchRequest(query="q", k=5, pipeline="C"), Settings(candidate_depth=25))
    assert plan.pipeline.depth == 25



def test_the_searched_text_reads_traditional_chinese_as_simplified_and_the_request_keeps_what_was_sent():
    plan = plan_search(gateway_pb2.SearchRequest(query="全國三卷 歷史 第15題", k=5), Settings())
    assert plan.query == "全国三卷 历史 第15题"            # what the gate, the probe and the legs search
    assert plan.request.query == "全國三卷 歷史 第15題"    # the request is not rewritten
    spoken = plan_search(gateway_pb2.SearchRequest(query="amc eight twenty seventeen number seventeen", k=5), Settings())
    assert spoken.query == "amc 8 2017 number 17"           # spoken numbers are searched as digits (chsr.numerals)

@pytest.mark.parametrize("kwargs,field", [
    ({"query": "   ", "k": 5}, "query"),
    ({"query": "x" * 5000, "k": 5}, "query"),
    ({"query": "ok", "k": 0}, "k"),
    ({"query": "ok", "k": 1000}, "k"),
    ({"query": "ok", "k": 5, "pipeline": "zzz"}, "pipeline"),
    ({"query": "ok", "k": 5, "hints": {"year": [1700]}}, "hints.year"),
    ({"query": "ok", "k": 5, "hints": {"question_number": [10_001]}}, "hints.question_number"),
    ({"query": "ok", "k": 5, "hints": {"subject": [" "]}}, "hints.subject"),
])
def test_validation_names_the_field(kwargs, field):
    with pytest.raises(InvalidArgument, match=f"^{field}") as err:
        plan_search(gateway_pb2.SearchRequest(**kwargs), Settings())
    assert err.value.field == field


def test_memory_cache_ttl_lru_and_generation():
    c = MemoryCache(max_entries=2)
    c.set("a", b"1", 60)
    c.set("b", b"2", 60)
    c.set("c", b"3", 60)
    assert c.get("a") is None and c.get("c") == b"3"
    c.set("t", b"x", 0)
    time.sleep(0.01)
    assert c.get("t") is None
    g0 = c.generation()
    assert c.bump_generation() == g0 + 1 and c.get("c") is None
    assert c.lock("k", 1000) and not c.lock("k", 1000)
    c.unlock("k")
    assert c.lock("k", 1000)


def test_cache_key_versioned_by_generation_and_normalised():
    s = Scope.from_dict({"subject": "physics"})
    assert cache_key("Hello  World", s, "rrf", 5, False, 1) == cache_key("hello world", s, "rrf", 5, False, 1)
    assert cache_key("hello", s, "rrf", 5, False, 1) != cache_key("hello", s, "rrf", 5, False, 2)
    assert cache_key("hello", s, "rrf", 5, False, 1).startswith("chsr:v1:g1:")


def test_budget_splits_and_expires():
    b = Budget(1.0)
    assert 0.5 < b.for_stage("retrieve") <= 0.6
    expired = Budget(0.0)
    with pytest.raises(DeadlineExceeded):
        expired.for_stage("gate")
