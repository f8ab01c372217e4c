"""Deterministic curriculum-aware query expansion and topic terms."""

from __future__ import annotations

import pytest

from services.gate.expansion import MAX_EXPANSION_TERMS, expand_query, topic_terms
from services.gate.extract import extract_scope

pytestmark = pytest.mark.unit


def _expand(vocab, query):
    return expand_query(query, extract_scope(query, vocab), vocab)


def test_scope_words_are_removed_and_topic_words_kept(bundled):
    query = "Virginia SOL 5th grade science 2008, item 12: seeds that stay inactive until conditions are right"
    expanded = _expand(bundled, query)
    for scope_word in ("Virginia", "SOL", "2008", "item 12", "5th grade"):
        assert scope_word not in expanded
    assert "seeds that stay inactive" in expanded


def test_other_language_names_of_matched_concepts_are_appended(bundled):
    expanded = _expand(bundled, "Physik-Aufgabe: Welche Lichtquelle hat die größere Wellenlänge?")
    for variant in ("wavelength", "longueur d'onde", "波长"):
        assert variant in expanded


def test_concepts_already_present_are_not_repeated(bundled):
    expanded = _expand(bundled, "wavelength of red light")
    assert expanded.count("wavelength") == 1


def test_expansion_is_deterministic_and_capped(bundled):
    query = "light, lens, mirror, refraction, wave, frequency, sound, heat, temperature and the Doppler effect"
    first, second = _expand(bundled, query), _expand(bundled, query)
    assert first == second
    assert len(first.split()) <= len(query.split()) + 3 * MAX_EXPANSION_TERMS


def test_an_english_description_of_a_gaokao_item_gains_its_chinese_words(bundled):
    # the item is written in Chinese: only 氩 (argon) and 炉 (furnace) match it (chsr.glossary)
    expanded = _expand(bundled, "Gaokao 2019 national paper I physics Q14: hot isostatic pressing, argon bottles, furnace")
    assert {"氩", "炉"} <= set(expanded.split())


def test_an_english_query_about_other_material_gains_no_chinese_words(bundled):
    expanded = _expand(bundled, "OpenStax physics: argon bottles pumped into a furnace")
    assert "氩" not in expanded and "炉" not in expanded


def test_pure_look_up_keeps_the_query(bundled):
    query = "2017年新课标I卷理科数学第17题"
    assert _expand(bundled, query).startswith(query)


def test_topic_terms_exclude_scope_words(bundled):
    extraction = extract_scope("2016 New York grade 8 science exam - question on whether sound travels through a vacuum", bundled)
    terms = topic_terms(extraction, bundled)
    assert {"sound", "travels", "vacuum"} <= set(terms)
    assert not {"2016", "york", "grade", "science", "exam", "question", "whether"} & set(terms)


def test_topic_terms_of_a_look_up_are_empty(mini):
    for query in ("2025 AMC 10A problem 5 solution", "2022年新高考I卷数学第17题"):
        assert topic_terms(extract_scope(query, mini), mini) == [], query


def test_chinese_topic_terms(bundled):
    terms = topic_terms(extract_scope("2019 全国III卷 理数 第18题 解三角形 那道", bundled), bundled)
    assert "解三角形" in terms


def test_french_topic_terms_split_elisions(bundled):
    terms = topic_terms(extract_scope("question d'économie : pourquoi les étoiles filantes brûlent-elles ?", bundled), bundled)
    assert "étoiles filantes" in terms and "brûlent-elles" in terms
    assert not {"d", "économie", "question", "pourquoi", "les"} & set(terms)


def test_matched_cues_stay_whole(bundled):
    terms = topic_terms(extract_scope("2023 高考 全国甲卷 化学 阿伏加德罗常数 选择题", bundled), bundled)
    assert terms == ["阿伏加德罗常数"]


@pytest.mark.parametrize("query", [
    "VA SOL 3rd grade science, spring 2012 released test - question 14?",     # a season beside the year dates it
    "NYS grade 4 science June 2014 q23 pls",
    "高考 2012 全国三卷 理科数学 第5题 - mein Sohn soll die Aufgabe machen, ich finde sie nirgends",
])
def test_dates_and_chat_are_not_topic_words(bundled, query):
    terms = topic_terms(extract_scope(query, bundled), bundled)
    assert not {"spring", "june", "released", "mein", "sohn", "finde", "nirgends"} & set(terms), terms


def test_a_season_that_is_not_beside_a_year_stays_a_topic_word(bundled):
    assert "spring" in topic_terms(extract_scope("grade 8 science: a spring stretches under a load", bundled), bundled)


def test_an_item_format_word_is_not_a_topic(bundled):
    """"23年全国甲卷文综 历史+政治 主观题": essay questions of a named sitting, a look-up with no topic to widen by."""
    assert topic_terms(extract_scope("23年全国甲卷文综 历史+政治 主观题", bundled), bundled) == []
    assert "煤矿安全事故" in topic_terms(extract_scope("2009年高考政治主观题 煤矿安全事故", bundled), bundled)
