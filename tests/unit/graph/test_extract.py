"""The ingest-time entity / relation heuristic (services/graph/extract.py)."""

from __future__ import annotations

import pytest

from services.graph.extract import entity_key, extract, is_acronym, is_coined, query_entities

pytestmark = pytest.mark.unit


def test_acronyms_and_coined_terms():
    assert is_acronym("DNA") and is_acronym("HIV-1") and is_acronym("RCTs") and not is_acronym("The")
    assert is_coined("AgentRunner") and is_coined("mRNA") and is_coined("p53") and is_coined("BRCA1")
    assert not is_coined("cancer") and not is_coined("2019")


def test_noun_phrases_terms_and_relations():
    ex = extract("ALDH1 expression is associated with poorer prognosis for breast cancer. p53 inhibits tumor growth.")
    assert {"aldh1", "aldh1 express", "poorer prognosi", "breast cancer", "p53", "tumor growth"} <= set(ex.entities)
    assert ("aldh1 express", "is associated with", "poorer prognosi") in ex.relations
    assert ("p53", "inhibits", "tumor growth") in ex.relations
    assert ("poorer prognosi", "", "breast cancer") in ex.relations      # a co-mention edge
    assert ex.surfaces["tumor growth"] == "tumor growth"


def test_keys_normalise_case_plural_and_stop_words():
    assert entity_key("Binding Constraints") == entity_key("binding constraint") == "bind constraint"
    assert entity_key("the of") == ""


def test_query_entities_match_known_keys_without_capitals():
    known = {"bind constraint thesi": 0, "cancer": 1}
    assert query_entities("How does the binding constraint thesis affect harness comparisons?", known) == \
        ["bind constraint thesi"]


def test_query_entities_prefer_the_longest_match():
    known = {"breast cancer": 0, "cancer": 1, "tumor": 2}
    assert query_entities("breast cancer and tumor size", known) == ["breast cancer", "tumor"]
