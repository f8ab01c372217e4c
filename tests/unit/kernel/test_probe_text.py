"""The text the gate's evidence probe searches (chsr.query_language.probe_text, issue 21 round 21)."""

from __future__ import annotations

import pytest

from chsr.query_language import probe_text

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
