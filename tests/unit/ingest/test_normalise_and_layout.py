"""Unicode normalisation, hyphenation, reading order and page furniture on hand-made geometry."""

from __future__ import annotations

import pytest

from services.ingest.normalise import join_lines, normalise_text
from services.ingest.parsers.pdf_furniture import find_furniture
from services.ingest.parsers.pdf_layout import Segment, find_gutter, reading_order
from chsr.text import split_sentences

pytestmark = pytest.mark.unit


def test_nfkc_unfolds_ligatures_and_full_width_but_keeps_maths():
    assert normalise_text("ﬁnd the ﬂow") == "find the flow"
    assert normalise_text("１．（５分）") == "1.(5分)"
    assert normalise_text("x² + y₁ ≤ ½ in ℝ, 𝑥 ∈ ℕ") == "x² + y₁ ≤ ½ in ℝ, 𝑥 ∈ ℕ"
    assert normalise_text("a\u00a0b\u200bc  d") == "a bc d"


def test_hyphenation_joined_unless_the_compound_is_attested():
    assert join_lines(["the exam-", "ple is long"]) == "the example is long"
    assert join_lines(["a well-", "known fact"], {"well-known"}) == "a well-known fact"
    assert join_lines(["per\ufffe", "magna"]) == "permagna"
    assert join_lines(["COVID-", "19 cases"]) == "COVID-19 cases"
    assert join_lines(["下列说法", "正确的是"]) == "下列说法正确的是"
    assert join_lines(["plain", "words"]) == "plain words"


def test_sentences():
    assert split_sentences("One. Two, e.g. here. Dr. Smith went. 3.5 m/s! Yes?") == \
        ["One.", "Two, e.g. here.", "Dr. Smith went.", "3.5 m/s!", "Yes?"]
    assert split_sentences("第一句。第二句！第三句") == ["第一句。", "第二句！", "第三句"]


def _seg(text, left, top, width=230.0, height=10.0, page=1):
    return Segment(text, left, top, left + width, top + height, 10.0, page=page)


def _two_columns():
    title = _seg("A spanning title", 57, 60, width=480)
    left = [_seg(f"left {i}", 57, 100 + 13 * i) for i in range(10)]
    right = [_seg(f"right {i}", 307, 100 + 13 * i) for i in range(10)]
    return [title] + [s for pair in zip(left, right) for s in pair]  # drawn row by row


def test_two_columns_read_column_by_column():
    lines = [line.text for line in reading_order(_two_columns())]
    assert lines == ["A spanning title"] + [f"left {i}" for i in range(10)] + [f"right {i}" for i in range(10)]


def test_single_column_with_short_lines_has_no_gutter():
    segs = [_seg(f"line {i}", 57, 100 + 13 * i, width=480 if i % 3 else 120) for i in range(12)]
    assert find_gutter(segs) is None
    assert [l.text for l in reading_order(segs)] == [f"line {i}" for i in range(12)]


def test_spanning_band_splits_the_columns():
    segs = [_seg(f"a{i}", 57, 100 + 13 * i) for i in range(5)] + [_seg(f"b{i}", 307, 100 + 13 * i) for i in range(5)]
    segs.append(_seg("wide figure caption", 57, 180, width=480))
    segs += [_seg(f"c{i}", 57, 200 + 13 * i) for i in range(5)] + [_seg(f"d{i}", 307, 200 + 13 * i) for i in range(5)]
    order = [l.text for l in reading_order(segs)]
    assert order.index("b4") < order.index("wide figure caption") < order.index("c0")
    assert order.index("a4") < order.index("b0") and order.index("c4") < order.index("d0")


def test_running_header_footer_and_page_numbers_removed():
    pages, heights = [], []
    for p in range(4):
        header = _seg("AMC 10A 2019 Mathematics", 57, 40, page=p + 1)
        footer = _seg(f"Page {p + 1} of 4", 270, 800, width=60, page=p + 1)
        body = [_seg(f"body {p} {i}", 57, 100 + 13 * i, page=p + 1) for i in range(5)]
        first_line = _seg(f"{3 * p + 1}. Lorem ipsum dolor sit amet", 57, 70, page=p + 1)  # number not the page: body
        pages.append([header, first_line, *body, footer])
        heights.append(842.0)
    removed = find_furniture(pages, heights)
    texts = {s.text for page in pages for s in page if id(s) in removed}
    assert texts == {"AMC 10A 2019 Mathematics", "Page 1 of 4", "Page 2 of 4", "Page 3 of 4", "Page 4 of 4"}


def test_lone_page_number_removed_but_not_a_question_number_beside_text():
    page = [_seg("7", 290, 805, width=8), _seg("1", 57, 70, width=6), _seg("A scout troop buys", 80, 70)]
    removed = find_furniture([page], [842.0])
    assert {s.text for s in page if id(s) in removed} == {"7"}
