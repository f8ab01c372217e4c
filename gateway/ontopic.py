"""Is a result on-topic? Used by the relaxation ladder's sufficiency rule.

Seed 000 (Stage 5): widen when results are insufficient *or off-topic*; when
on-topic results exist but fewer than k_min, do not widen. We call a result
on-topic when it shares at least ``min_overlap`` stemmed content terms with the
gate's topic terms (the query minus its scope words), a deterministic check.
"""

from __future__ import annotations

from typing import Iterable

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
