"""chsr.numerals: years, item numbers and letters a query spells out, read as the corpus writes them."""

from __future__ import annotations

import pytest

from chsr.numerals import digits
from chsr.query_reading import read_query

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("spoken,written", [
    ("virginia sol third grade science two thousand nine question twelve", "virginia sol third grade science 2009 question 12"),
    ("two thousand and five", "2005"),
    ("from twenty thirteen the one asking", "from 2013 the one asking"),
    ("amc eight twenty twenty one problem fifteen", "amc 8 2021 problem 15"),
    ("twenty oh nine paper two", "2009 paper 2"),
    ("nineteen ninety nine", "1999"),
    ("number twenty-three", "number 23"),
    ("the grade eight standard", "the grade 8 standard"),
    ("no. five", "no. 5"),
])
def test_a_spoken_year_and_a_numbered_item_become_digits(spoken, written):
    assert digits(spoken) == written


@pytest.mark.parametrize("text", [
    "nine coins each leaves two chests empty",         # numbers inside the question itself
    "the table of dielectric constants at twenty degrees",
    "n over twenty minus n",
    "equals two what is x",
    "one hundred forty nine million kilometers",
    "twenty one pilots",                                # "twenty one" is 21, not a year
    "there are no two alike",                           # "no" without a dot is not "No."
    "which is a b c or d",                              # an option list is not a spelled acronym
])
def test_numbers_that_name_no_year_or_item_are_left_as_they_are(text):
    assert digits(text) == text


def test_letters_spelled_one_by_one_are_joined():
    assert digits("a m c twelve b twenty twenty four number eight") == "amc 12 b 2024 number 8"
    assert digits("virginia s o l fifth grade") == "virginia sol fifth grade"
    assert digits("c h three two n o") == "c h three two n o"   # two letters are not an acronym


def test_a_year_in_chinese_numerals_becomes_digits():
    assert digits("二零一八年全国二卷政治") == "2018年全国二卷政治"
    assert digits("二〇二〇年 理数") == "2020年 理数"
    assert digits("二零一九全国卷") == "2019全国卷"
    assert digits("一九二九到一九三一年美国") == "1929到1931年美国"
    assert digits("第十二题 十三的四次方") == "第十二题 十三的四次方"   # not a year: the gate reads 第十二题 itself


def test_roman_numeral_characters_become_letters():
    assert digits("2019年全国Ⅰ、Ⅱ、Ⅲ卷") == "2019年全国I、II、III卷"


def test_the_query_is_read_as_simplified_characters_then_digits():
    assert read_query("二零一八年全國三卷 歷史") == "2018年全国三卷 历史"
    text = "AMC 12A 2019 #7"
    assert read_query(text) == text
