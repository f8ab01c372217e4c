"""Jaccard dedup at 0.65 (seed 003)."""

import pytest

from services.rerank.dedup import DEDUP_THRESHOLD, dedup

from .helpers import item

pytestmark = pytest.mark.unit

ITEMS = [item("a", 0.9, "the cat sat on the mat"), item("b", 0.8, "the cat sat on a mat"),
         item("c", 0.7, "dogs bark loudly at night")]


def test_near_duplicate_below_the_best_copy_is_removed():
    kept, removed = dedup(ITEMS)   # J(a, b) = 5/6 >= 0.65
    assert [i.doc_id for i in kept] == ["a", "c"] and removed == 1
    assert [i.score for i in kept] == [0.9, 0.7]   # order and scores untouched


def test_threshold_is_inclusive_and_configurable():
    assert DEDUP_THRESHOLD == 0.65
    assert dedup(ITEMS, threshold=0.9)[1] == 0
    assert dedup(ITEMS, threshold=5 / 6)[1] == 1


def test_repeated_doc_id_and_empty_input():
    kept, removed = dedup([item("a", 1.0, "x"), item("a", 0.5, "totally different")])
    assert [i.doc_id for i in kept] == ["a"] and removed == 1
    assert dedup([]) == ([], 0)
