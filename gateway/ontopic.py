"""Is a result on-topic? Used by the relaxation ladder's sufficiency rule.

Seed 000 (Stage 5): widen when results are insufficient *or off-topic*; when
on-topic results exist but fewer than k_min, do not widen. We call a result
on-topic when it shares at least ``min_overlap`` stemmed content terms with the
gate's topic terms (the query minus its scope words), a deterministic check.

One kind of step is not judged by words: a look-up of the marking material of a
numbered question of a named paper (``chsr.scope.names_marking_of_a_question``).
A mark scheme or worked solution answers its question without repeating its words
("AMC 8 2014 #1 Harry and Terry worked solution": the solution says "H = 8 - 7 = 1"),
so the words would send an exactly identified item up the ladder, labelled relaxed.
"""

from __future__ import annotations

from typing import Iterable

from chsr.scope import Scope, names_marking_of_a_question
from chsr.text import token_set, tokenize


def topic_stems(topic_terms: Iterable[str]) -> set[str]:
    stems: set[str] = set()
    for term in topic_terms:
        stems.update(tokenize(term))
    return stems


def is_on_topic(text: str, stems: set[str], min_overlap: int = 1) -> bool:
    if not stems:
        return True
    return len(stems.intersection(token_set(text))) >= min(min_overlap, len(stems))


def judged_by_words(step_filter: Scope) -> bool:
    """Whether a step's results must share the query's topic words to count as on-topic."""
    return not names_marking_of_a_question(step_filter)
