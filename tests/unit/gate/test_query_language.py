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
    ("quero a versão em alemão da questão de física da bicicleta", "de"),   # Portuguese (round 54)
])
def test_a_hyphenated_language_adjective_requests_that_version(query, code):
    """Round 39 (kz_bil_exact.02): "German-language version" asks for the German item as "German version" does."""
    found = find_languages(SpanText(query))
    assert found is not None and found[0] == (code,)


@pytest.mark.parametrize("query, codes", [
    ("all three language versions (French, German, Spanish) of the matura question on heavy water", ("fr", "de", "es")),
    ("je veux la question en français + les versions allemande et espagnole pour ma classe euro", ("fr", "de", "es")),
    ("la version française mais aussi l'allemande et l'espagnole", ("fr", "de", "es")),
    ("toutes les versions dispo (FR, DE, ES) pour comparer", ("fr", "de", "es")),
    ("bitte alle Sprachversionen de/fr/es", ("de", "fr", "es")),
    ("这题的法文、德文、西文版本我全都要", ("fr", "de", "es")),
    ("仏・独・西 全部の语言版を並べたい", ("fr", "de", "es")),
])
def test_a_request_for_several_versions_that_names_them_asks_for_those(query, codes):
    """Round 54: "all versions (French, German, Spanish)" used to leave the language open, so an English or Chinese
    description of a French/German/Spanish item was answered from the English and Chinese items its words find."""
    found = find_languages(SpanText(query))
    assert found is not None and found[0] == codes


@pytest.mark.parametrize("query, expected", [
    ("all language versions of the matura question on heavy water", None),   # none named: the field stays open
    ("toutes les versions de la question sur le prisme", None),
    ("de la question de physique, es la versión española", ("es",)),      # "de"/"es" as words are not codes
    ("找下西语版的那题：高压锅安全阀打开", ("es",)),                        # 西语: the short form of 西班牙语
])
def test_all_versions_without_names_and_bare_codes_ask_for_no_list(query, expected):
    found = find_languages(SpanText(query))
    assert (found[0] if found else None) == expected


def test_a_version_in_another_language_is_judged_by_the_querys_numbers_too(demo) -> None:  # type: ignore[no-untyped-def]
    """Round 54: "household iron 230 V, 2300 W ... all versions (French, German, Spanish)": the items share the
    numbers, not the English words, so without them no rung was on topic and the ladder ran to the unfiltered pool."""
    from services.gate.evidence import EvidenceHit, EvidenceParams

    meta = {"subject": "physics", "level": "grade_12", "content_type": "exam_question", "language": "fr"}
    probe = [EvidenceHit(meta, 1.0, leg, rank) for leg in ("sparse", "dense") for rank in (1, 2, 3)]
    params = EvidenceParams.load()
    asked = run_gate("the French version of the physics item: a household iron labelled 230 V, 2300 W", vocab=demo,
                     probe=probe, params=params)
    assert {"230", "2300"} <= set(asked.topic_terms)
    written = run_gate("the physics item: a household iron labelled 230 V, 2300 W", vocab=demo, probe=probe,
                       params=params)
    assert not {"230", "2300"} & set(written.topic_terms)
