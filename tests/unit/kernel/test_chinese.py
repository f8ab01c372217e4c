"""chsr.chinese: traditional characters in a query read as the corpus's simplified ones."""

from __future__ import annotations

import pytest

from chsr.chinese import simplified

pytestmark = pytest.mark.unit


def test_traditional_paper_and_subject_names_become_simplified():
    assert simplified("18定19年 全國三卷 歷史 第15題") == "18定19年 全国三卷 历史 第15题"
    assert simplified("2023 甲卷 理數 導數壓軸題 評分準則") == "2023 甲卷 理数 导数压轴题 评分准则"


def test_conversion_is_by_phrase():
    assert simplified("乾隆年間") == "乾隆年间"     # the emperor's name keeps 乾
    assert simplified("乾燥") == "干燥"


def test_text_without_han_characters_is_returned_as_it_is():
    text = "AMC 12A 2019 #7: log_2 x = 3?"
    assert simplified(text) is text


def test_simplified_text_passes_through_unchanged():
    text = "高二物理 动量守恒 碰撞类计算大题 给学生练"
    assert simplified(text) == text
