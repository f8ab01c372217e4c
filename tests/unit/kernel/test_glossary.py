"""Chinese words for an English description of Chinese material (chsr.glossary, CC-CEDICT read backwards)."""

from __future__ import annotations

import pytest

from chsr.glossary import glossed, han_glosses, names_chinese_material
from chsr.query_language import probe_text

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("query", "expected"), [
    ("2019 gaokao physics: hot isostatic pressing, argon bottles pumped into a furnace", {"氩", "炉"}),
    ("Tu Youyou / artemisinin long-answer item, gaokao 2016 national III politics", {"青蒿素"}),
    ("gaokao '16 chem q - fountain holding a cartoon toy up in the air", {"喷泉", "卡通"}),
    ("Agent Orange sprayed by the US army", {"橙剂"}),
])
def test_english_senses_find_their_chinese_words(query: str, expected: set[str]) -> None:
    assert expected <= set(han_glosses(query))


def test_a_word_in_pinyin_finds_its_word() -> None:
    assert "状元" in han_glosses("gaokao history MCQ with a table counting zhuangyuan")


def test_request_and_scope_words_gain_nothing() -> None:
    # their senses match any chunk (题, 表) or none (物理 is in no item's text)
    assert han_glosses("gaokao national paper I physics question 11 table mark scheme answer") == []


def test_a_longer_phrase_wins_over_its_words() -> None:
    glosses = han_glosses("a question on the Long March")
    assert "长征" in glosses and glosses.index("长征") == 0


def test_text_with_chinese_characters_gains_nothing() -> None:
    assert han_glosses("2019 全国I卷 物理 argon 氩气") == []


@pytest.mark.parametrize(("query", "names"), [
    ("gaokao 2019 national paper I physics Q11", True),
    ("2015 national paper II biology question 1", True),
    ("nat'l paper 1 chem 2020", True),
    ("examen chino de mate 2023", True),
    ("question sur le sujet chinois de 2018", True),
    ("2019 AMC 10A problem 7", False),
    ("Virginia SOL grade 5 science 2008 item 12", False),
    ("pregunta de geografía: el parque nacional de Hortobágy", False),   # "national" alone names no paper
    ("2019年全国I卷物理第11题", False),                                     # written in Chinese: nothing to add
])
def test_chinese_material_is_named_by_the_gaokao_china_or_a_national_paper(query: str, names: bool) -> None:
    assert names_chinese_material(query) is names


def test_glossed_text_appends_only_for_chinese_material() -> None:
    assert glossed("gaokao physics: argon in a furnace").startswith("gaokao physics: argon in a furnace ")
    assert "氩" in glossed("gaokao physics: argon in a furnace")
    assert glossed("OpenStax physics: argon in a furnace") == "OpenStax physics: argon in a furnace"


def test_the_probe_searches_the_glosses_too() -> None:
    assert probe_text("gaokao 2019 physics: argon bottles").split()[:4] == ["gaokao", "2019", "physics:", "argon"]
    assert "氩" in probe_text("gaokao 2019 physics: argon bottles")
    assert probe_text("2019 AMC 10A: argon bottles") == "2019 AMC 10A: argon bottles"
