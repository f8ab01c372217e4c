"""English words for a query whose scope holds nothing in the language it is written in (``chsr.dictionary``).

"Common Core maths, niveau 5e (grade 7 aux États-Unis) : quel standard porte sur l'aire et la circonférence du
cercle ?": the gate decides mathematics, grade 7, syllabus, and the index holds that only in English. The query's
French words match none of it, so the exact scope held the standard but looked off topic to the gateway's check, and
the ladder widened to every level (leakage 0.88). Where the scope the gate decided holds no material in the query's
language, the material asked for is in another one (in this corpus: English), so the query's topic words gain their
English senses: in E's expanded query (the legs can match the items) and in the topic terms the gateway judges
results by (the items can be on topic).

Where the scope holds material in the query's language (a French physics question: the French grade-12 items) nothing
is added: English words would only pull in English items the query does not ask for. The decision is the catalogue's
(``Vocabulary.levels_in_language``), so it follows what is indexed.
"""

from __future__ import annotations

from chsr.dictionary import FILES, english_words, foreign_words, words_of
from chsr.levels import NEAR_GRADES, level_distance
from chsr.query_language import LanguageGuess, detect_language
from chsr.scope import Scope
from services.gate.vocabulary import Vocabulary

#: How sure the written language must be.
MIN_CONFIDENCE = 0.5


def written_elsewhere(query: str, scope: Scope, vocab: Vocabulary) -> str | None:
    """The language ``query`` is written in (French, German or Spanish) when ``scope`` constrains its subject or
    content type and the index holds no material of them in that language, or none within ``NEAR_GRADES`` of the
    asked level; None otherwise."""
    if not (scope.subject or scope.content_type):
        return None
    guess = detect_language(query)
    if guess is None or guess.code not in FILES or guess.confidence < MIN_CONFIDENCE:
        return None
    if not vocab.knows_languages:
        return None
    held = vocab.levels_in_language(scope.subject, guess.code, scope.content_type)
    # a level near one held in its language is the language's material: "Physik 10. Klasse" asks for the German
    # grade-12 items, the nearest level the index holds German physics at, not for English ones
    near = any((d := level_distance(asked, level)) is not None and d <= NEAR_GRADES
               for asked in scope.level for level in held)
    return guess.code if not held or (scope.level and not near) else None


def english_terms(query: str, topics: list[str], scope: Scope, vocab: Vocabulary) -> list[str]:
    """The English senses of the topic terms, where the scope holds nothing in the query's language; else empty.

    Only the dictionary's senses: the vocabulary's other-language variants of the query's topic concepts, which a
    language version asked for is also judged by (``logic._in_asked_language``), accepted relaxed rungs too early
    here (round 55: 1 authored case better, 6 worse)."""
    language = written_elsewhere(query, scope, vocab)
    if language is None:
        return []
    return [w.lower() for w in english_words(_words(topics), language) if w.lower() not in topics]


def asked_language_terms(query: str, topics: list[str], scope: Scope, language: LanguageGuess | None,
                         vocab: Vocabulary) -> list[str]:
    """The topic terms' words in the language version an English query asks for (French, German or Spanish), where
    the scope holds material in that language; else empty (round 58).

    "the French-language physics question about soldiers not being allowed to march in step across a bridge": the
    item is French only, the English words match none of it, and the gateway's check called the exact scope off
    topic and widened it. The reverse of :func:`english_terms`, by the same dictionaries (``foreign_words``)."""
    if language is None or not language.requested or language.code not in FILES:
        return []
    written = detect_language(query)
    if written is None or written.code != "en" or written.confidence < MIN_CONFIDENCE:
        return []
    if vocab.knows_languages and not vocab.levels_in_language(scope.subject, language.code, scope.content_type):
        return []
    return [w.lower() for w in foreign_words(_words(topics), language.code) if w.lower() not in topics]


def _words(topics: list[str]) -> list[str]:
    """The topic terms' words as the dictionaries look them up."""
    return [word for term in topics for word in words_of(term)]
