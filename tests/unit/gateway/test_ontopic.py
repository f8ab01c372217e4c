"""Is a rung's answer on-topic (gateway/ontopic.py): word overlap, and queries in another language than English."""

from __future__ import annotations

import pytest

from chsr.v1 import common_pb2
from gateway.ontopic import rung_on_topic, topic_stems, written_language

pytestmark = pytest.mark.unit

ICE = ("Ice melts in the sun because it absorbs heat.", "en")
MAGNETS = ("Which object will a magnet attract?", "en")


def test_words_judge_results_in_any_language_first():
    stems = topic_stems(["ice melts sun"])
    assert rung_on_topic([ICE, MAGNETS], stems, "en") == (1, True)
    assert rung_on_topic([MAGNETS], stems, "en") == (0, True)   # an English query keeps the word check


def test_a_query_in_another_language_counts_english_results_unjudged_when_no_word_matches():
    stems = topic_stems(["glace fond soleil"])
    assert rung_on_topic([ICE, MAGNETS], stems, "fr") == (2, False)
    # a rung with no English result (only the query's language, or a third one) is still judged by words
    assert rung_on_topic([("Quel est le rôle de la banque centrale ?", "fr"), ("光合作用", "zh")], stems, "fr") == (0, True)
    # a French result that matches by words: judged, and on-topic
    assert rung_on_topic([("Pourquoi la glace fond au soleil", "fr"), ICE], stems, "fr") == (1, True)


def test_an_unknown_or_requested_language_keeps_the_word_check():
    stems = topic_stems(["glace fond soleil"])
    assert rung_on_topic([ICE], stems, None) == (0, True)
    requested = common_pb2.QueryLanguage(code="es", confidence=0.9, requested=True)
    unsure = common_pb2.QueryLanguage(code="fr", confidence=0.3)
    assert written_language(requested) is None and written_language(unsure) is None and written_language(None) is None
    assert written_language(common_pb2.QueryLanguage(code="fr", confidence=0.9)) == "fr"


def test_no_topic_terms_means_every_result_is_on_topic():
    assert rung_on_topic([ICE, MAGNETS], set(), "en") == (2, True)
