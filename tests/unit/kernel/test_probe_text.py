"""The text the gate's evidence probe searches (chsr.query_language.probe_text, issue 21 round 21)."""

from __future__ import annotations

import pytest

from chsr.query_language import probe_text, written_in_han

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("query", "probe"), [
    ("pregunta de biologia de prepa: que neurotransmisor se relaciona con el parkinson",
     "pregunta biologia prepa: neurotransmisor relaciona parkinson"),
    ("Quelle est la vitesse de la balle ?", "vitesse balle ?"),
    ("Welche Lichtquelle sendet Licht mit größerer Wellenlänge aus?", "Lichtquelle sendet Licht größerer Wellenlänge aus?"),
])
def test_french_german_and_spanish_grammar_words_are_dropped_the_request_words_kept(query: str, probe: str) -> None:
    assert probe_text(query) == probe


@pytest.mark.parametrize("query", [
    "what is the speed of the ball just before it hits the ground",   # English: the index tokenizer drops them
    "2020年新课标I卷 化学 第11题",                                      # Chinese: nothing to split off
    "de la que",                                                       # nothing but grammar: the text itself
    "AMC 10A 2019 #7",                                                 # no language marks
])
def test_other_text_is_searched_as_written(query: str) -> None:
    assert probe_text(query) == query


@pytest.mark.parametrize("query, chinese_only", [
    ("2009 新课标 理数 二项式 展开式 常数项 选择题", True),     # digits are no words
    ("高二物理 动量守恒 碰撞类计算大題", True),
    ("OpenStax 高中物理 折射那节的 practice problem", False),   # Latin words an English encoder reads
    ("数列 求和", True),
    ("数列", False),                                          # too short to say
    ("acceleration of a falling ball", False),
    ("pH 值的计算方法", True),                                   # a two-letter symbol is no word
])
def test_a_query_written_in_chinese_only(query, chinese_only):
    assert written_in_han(query) is chinese_only
