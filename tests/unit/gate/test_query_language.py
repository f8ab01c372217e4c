"""The language a query is written in (chsr.query_language) and the one the gate answers in."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from services.gate.language import find_languages
from services.gate.lexicon import SpanText
from services.gate.logic import run_gate
from chsr.query_language import ASCII_FALLBACK_CONFIDENCE, detect_language

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "code"), [
    ("what is the speed of the ball just before it hits the ground", "en"),
    ("Quelle est la vitesse de la balle juste avant le sol ?", "fr"),
    ("Berechnen Sie die Geschwindigkeit des Balls", "de"),
    ("¿Cuál es la rapidez de la pelota?", "es"),
    ("2020年新课标I卷 化学 第11题", "zh"),
    ("le théorème de Pythagore", "fr"),
    ("el ciclo del agua", "es"),
])
def test_detects_the_written_language(text: str, code: str) -> None:
    guess = detect_language(text)
    assert guess is not None and guess.code == code
    assert 0.5 <= guess.confidence <= 1.0


def test_a_word_french_and_english_spell_alike_counts_for_both() -> None:
    """"question" is French too: a short French query that uses it is not English by the tie-break."""
    french = detect_language("question sur la chaleur (sciences")
    assert french is not None and french.code == "fr"
    english = detect_language("Northfield 2019 physics paper 1 question 3")
    assert english is not None and english.code == "en"


def test_plain_ascii_names_and_numbers_are_english_at_low_confidence() -> None:
    guess = detect_language("photosynthesis")
    assert guess is not None and guess.code == "en" and guess.confidence == ASCII_FALLBACK_CONFIDENCE


def test_no_letters_no_language() -> None:
    assert detect_language("2019 3 (12) = 4.5") is None


def test_a_few_han_characters_in_an_english_query_do_not_make_it_chinese() -> None:
    guess = detect_language("what does the word 光合作用 mean in the biology syllabus for grade 8 students")
    assert guess is not None and guess.code == "en"


def test_the_gate_answers_in_the_asked_for_language_over_the_written_one(demo) -> None:  # type: ignore[no-untyped-def]
    asked = run_gate("the German version of Northfield 2019 physics paper 1 question 3", vocab=demo)
    assert asked.query_language is not None and asked.query_language.code == "de" and asked.query_language.requested
    written = run_gate("Northfield 2019 physics paper 1 question 3", vocab=demo)
    assert written.query_language is not None and written.query_language.code == "en" and not written.query_language.requested
    hinted = run_gate("Northfield 2019 physics paper 1 question 3", Scope(language=("es",)), vocab=demo)
    assert hinted.query_language is not None and hinted.query_language.code == "es" and hinted.query_language.requested


@pytest.mark.parametrize("query, code", [
    ("is there a German-language version of the MCQ asking which consumers get a consumer surplus?", "de"),
    ("a Spanish-language physics item on lenses", "es"),
])
def test_a_hyphenated_language_adjective_requests_that_version(query, code):
    """Round 39 (kz_bil_exact.02): "German-language version" asks for the German item as "German version" does."""
    found = find_languages(SpanText(query))
    assert found is not None and found[0] == (code,)
