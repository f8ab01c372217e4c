"""Is a result on-topic? Used by the relaxation ladder's sufficiency rule.

Seed 000 (Stage 5): widen when results are insufficient *or off-topic*; when
on-topic results exist but fewer than k_min, do not widen. We call a result
on-topic when it shares at least ``min_overlap`` stemmed content terms with the
gate's topic terms (the query minus its scope words), a deterministic check.

Word overlap can only judge a result written in the query's language: "pourquoi la glace fond-elle au
soleil ?" shares no word with the English grade-4 item that answers it. Most of the corpus is English
(curriculum README: French, Spanish, German and Chinese queries over English evidence are a case kind),
so when no result of a rung is on-topic by words and the query is written in another language, the
rung's English results count as on-topic, unjudged (:func:`rung_on_topic`): the scope filter alone
stands for them, as it does for a query with no topic terms. An English query keeps the word check on
every result (an English question and a Chinese mark scheme are not the same item).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from chsr.text import tokenize
from chsr.v1 import common_pb2

#: Below this the detected language is not trusted to say which results words can judge.
MIN_LANGUAGE_CONFIDENCE = 0.5
#: The language most of the corpus is written in: what answers a query asked in another language.
PIVOT_LANGUAGE = "en"


def topic_stems(topic_terms: Iterable[str]) -> set[str]:
    stems: set[str] = set()
    for term in topic_terms:
        stems.update(tokenize(term))
    return stems


def is_on_topic(text: str, stems: set[str], min_overlap: int = 1) -> bool:
    if not stems:
        return True
    return len(stems.intersection(tokenize(text))) >= min(min_overlap, len(stems))


def written_language(language: common_pb2.QueryLanguage | None) -> str | None:
    """The language the query is written in, when the gate is sure of it; None when unknown, or when the query
    asks for another language's version ("the Spanish version of ...": written in a language not reported)."""
    if language is None or language.requested or language.confidence < MIN_LANGUAGE_CONFIDENCE:
        return None
    return language.code or None


def rung_on_topic(results: Sequence[tuple[str, str | None]], stems: set[str], written: str | None) -> tuple[int, bool]:
    """(how many of a rung's ``(text, language)`` results are on-topic, whether words judged them). Words judge
    every result; if none is on-topic and the query is written in a language other than English, the English
    results count instead, unjudged."""
    on_topic = sum(is_on_topic(text, stems) for text, _ in results)
    if on_topic or written in (None, PIVOT_LANGUAGE):
        return on_topic, True
    unjudged = sum(1 for _, lang in results if lang == PIVOT_LANGUAGE)
    return unjudged, not unjudged
