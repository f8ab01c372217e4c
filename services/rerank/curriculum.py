"""Deterministic curriculum reranker (seed 000, CHSR-RRF "Stage 4" and variant D).

    adjusted(d) = relevance(d) * alignment(d) * reliability(d) * (1 - penalty * maxsim(d, above))

* relevance: the fused score scaled to (0, 1] (divided by the pool max when scores are
  non-negative, e.g. RRF; otherwise min-max mapped onto [0.01, 1] so no candidate is
  zeroed out and every factor still matters).
* alignment: fraction of the scope's constrained fields the document's metadata
  satisfies (``Scope.violations``); 1.0 when the scope is empty. Retrieval already gates
  on the scope, so this only bites on relaxed (widened) results -- exactly where it should.
* reliability: :data:`SOURCE_RELIABILITY` x :data:`CONTENT_TYPE_RELIABILITY` (default 1.0).
* redundancy: greedy selection; each pick multiplies the remaining candidates by
  ``1 - penalty * maxsim`` (token Jaccard to everything already selected), and a
  candidate with maxsim >= 0.75 is dropped as a content duplicate (seed 000, "content-based
  deduplication uses a threshold of 0.75"). Like MMR, the selected values never increase,
  so ``adjusted`` is a valid ranking score. Seed 000 gives the policy (multiplicative boost
  and penalty factors, no LLM), not the factor values: penalty 0.5 and the tables below
  are ours and deliberately mild so they reorder near-ties rather than override relevance.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from chsr.scope import Scope
from services.rerank.items import RerankItem
from services.rerank.similarity import pairwise_jaccard

CURRICULUM_DEDUP = 0.75
REDUNDANCY_PENALTY = 0.5
#: A scope naming several subjects: a candidate's score is multiplied by ``1 - SUBJECT_COVER * share``, where
#: ``share`` is the fraction of the picks so far in its subject, so each named subject is represented early.
SUBJECT_COVER = 0.5

#: By metadata.source (see ../shared/data/curriculum/SOURCES.md). Official exam papers,
#: standards and textbooks are 1.0; MMLU is a crowd-compiled benchmark with known label
#: noise, so it yields to an otherwise equal official item.
SOURCE_RELIABILITY: Mapping[str, float] = {
    "arc": 1.0, "amc": 1.0, "gaokao_bench": 1.0, "exams_qa": 1.0, "ccss": 1.0,
    "openstax_physics": 1.0, "mmlu": 0.95,
}
#: By metadata.content_type: AoPS/analysis "solution" text is community-written, unlike an
#: official mark scheme; everything else is primary material.
CONTENT_TYPE_RELIABILITY: Mapping[str, float] = {
    "exam_question": 1.0, "mark_scheme": 1.0, "syllabus": 1.0, "textbook": 1.0, "solution": 0.95,
}


def alignment(scope: Scope, metadata: Mapping[str, object]) -> float:
    fields = scope.constrained_fields()
    if not fields:
        return 1.0
    return (len(fields) - len(scope.violations(metadata))) / len(fields)


def reliability(metadata: Mapping[str, object]) -> float:
    source = SOURCE_RELIABILITY.get(str(metadata.get("source") or ""), 1.0)
    ctype = CONTENT_TYPE_RELIABILITY.get(str(metadata.get("content_type") or ""), 1.0)
    return source * ctype


def _relevance(scores: np.ndarray) -> np.ndarray:
    finite = np.isfinite(scores)
    if not finite.any():
        return np.ones_like(scores)
    lo, hi = scores[finite].min(), scores[finite].max()
    if lo >= 0.0 and hi > 0.0:
        rel = scores / hi
    elif hi > lo:
        rel = 0.01 + 0.99 * (scores - lo) / (hi - lo)
    else:
        rel = np.ones_like(scores)
    return np.where(finite, np.maximum(rel, 0.0), 0.0)


def curriculum_rerank(items: Sequence[RerankItem], scope: Scope, *, dedup_threshold: float = CURRICULUM_DEDUP,
                      penalty: float = REDUNDANCY_PENALTY, cover: float = SUBJECT_COVER,
                      sim: np.ndarray | None = None) -> tuple[list[RerankItem], int]:
    """Returns (reranked items, number dropped as content duplicates)."""
    n = len(items)
    if n == 0:
        return [], 0
    sim = pairwise_jaccard([it.text for it in items]) if sim is None else sim
    meta = [it.doc.metadata if it.doc is not None else {} for it in items]
    align = np.array([alignment(scope, m) for m in meta])
    rely = np.array([reliability(m) for m in meta])
    base = _relevance(np.array([it.score for it in items], dtype=np.float64)) * align * rely
    max_sim = np.zeros(n)
    remaining = np.ones(n, dtype=bool)
    out: list[RerankItem] = []
    removed = 0
    # subject coverage (a scope naming several subjects): each candidate's subject as an index into ``picked``
    covering = cover > 0.0 and len(scope.subject) >= 2
    _, subject_of = np.unique([str(m.get("subject") or "") for m in meta], return_inverse=True)
    picked = np.zeros(int(subject_of.max()) + 1)
    while remaining.any():
        coverage = 1.0 - cover * (picked[subject_of] / len(out)) if covering and out else 1.0
        adjusted = np.where(remaining, base * (1.0 - penalty * max_sim) * coverage, -np.inf)
        best = int(np.argmax(adjusted))  # first max = best fused rank
        remaining[best] = False
        if out and max_sim[best] >= dedup_threshold:
            removed += 1
            continue
        out.append(items[best].rescored(float(adjusted[best]), alignment=float(align[best]),
                                        reliability=float(rely[best]), redundancy=float(max_sim[best])))
        picked[subject_of[best]] += 1
        max_sim = np.maximum(max_sim, sim[best])
    return out, removed
