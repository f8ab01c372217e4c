"""Question markers in several languages and the choice of the paper's numbering (issue 11)."""

from __future__ import annotations

import pytest

from services.ingest.questions import chinese_number, find_cell_marker, find_marker, find_subpart, select_chain

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("text, number, family", [
    ("1. What is 2+2?", 1, "num"),
    ("3) Explain why", 3, "num"),
    ("3、下列说法正确的是", 3, "num"),
    ("1(a) Explain the result", 1, "num"),
    ("1 (a) Explain the result", 1, "num"),
    ("Question 3 A ball is thrown", 3, "word"),
    ("QUESTION 12", 12, "word"),
    ("Q3. Find x", 3, "word"),
    ("Q 7 Find x", 7, "word"),
    ("Exercice 2 : Un train part", 2, "word"),
    ("Question n° 4 Calculer", 4, "word"),
    ("Aufgabe 2 Ein Körper fällt", 2, "word"),
    ("Ejercicio 2. Un tren sale", 2, "word"),
    ("Pregunta 5 ¿Cuál es", 5, "word"),
    ("Problem 14 Let f(x)", 14, "word"),
    ("Solution 7 We factor", 7, "word"),
    ("第3题 已知集合", 3, "cjk"),
    ("第十二题 如图所示", 12, "cjk"),
])
def test_markers(text, number, family):
    marker = find_marker(text)
    assert marker is not None and marker.number == number and marker.family == family


@pytest.mark.parametrize("text", ["3.5 m/s is the speed", "2019 was a year", "12 apples", "1.2 Kinematics",
                                  "Questions 5-7 refer to the table", "quite", "第3小题"])
def test_not_markers(text):
    assert find_marker(text) is None


def test_tab_set_off_number_is_a_weak_marker():
    marker = find_marker("1\tExplain why the sky is blue")
    assert marker is not None and marker.number == 1 and marker.weak


def test_parts_and_cells():
    assert find_marker("2(b)(ii) Show that").part == "(b)"
    assert [find_subpart(t) for t in ("(a) first", "(ii) second", "b) third", "(1) 第一问", "① one")] == \
        ["a", "ii", "b", "1", "①"]
    assert find_subpart("(A) an option") is None
    assert find_cell_marker("2(a)(ii)").number == 2
    assert find_cell_marker("Q3").number == 3
    assert find_cell_marker("Total") is None
    assert chinese_number("二十一") == 21 and chinese_number("十") == 10 and chinese_number("7") == 7


def _chain(texts):
    markers = [find_marker(t) for t in texts]
    return [texts[i] for i in select_chain(markers)]


def test_numbered_preamble_is_not_the_questions():
    texts = ["1. Do not open", "2. Use a pen", "3. No calculators"] + [f"{n}. Q{n}" for n in range(1, 26)]
    assert _chain(texts) == [f"{n}. Q{n}" for n in range(1, 26)]


def test_inner_list_inside_a_question_is_skipped():
    texts = ["1. a", "2. b", "3. statements:", "1. first", "2. second", "4. d", "5. e", "6. f"]
    assert _chain(texts) == ["1. a", "2. b", "3. statements:", "4. d", "5. e", "6. f"]


def test_released_items_keep_gapped_numbers():
    texts = ["2. a", "3. b", "6. c", "7. d", "9. e", "11. f"]
    assert _chain(texts) == texts


def test_word_family_beats_stray_numbers():
    texts = ["Question 1", "1. Paris 2. Rome", "Question 2", "Question 3", "2. an inner step"]
    assert _chain(texts) == ["Question 1", "Question 2", "Question 3"]


def test_weak_markers_in_sequence():
    texts = ["1\tfirst", "2\tsecond", "3\tthird", "5\tfifth"]
    assert _chain(texts) == texts
