"""A numbered question named under the wrong subject of a real sitting (issue 21, adversarial).

"2020年新课标I卷 化学 第11题 运-20 重型运输机 升力": the student names the 2020 新课标I chemistry paper, but its
question 11 is a physics question (the chemistry paper the index holds stops at question 5; the words are about
an aircraft's lift). The named paper cannot hold the item — the question number is beyond it, or the paper was
not set that year — while the probe (the query's words, unfiltered) finds a question with that number, in that
year, of the same board's sitting under another subject. Then the item is almost certainly that one, and the
text's subject is the mistake (curriculum README: "the gold scope holds the true value").

:func:`sibling_rung` makes that a W1 rung right after W0: the sibling paper (and its subject), the same year and
number, saying what it replaced. It needs a hit the probe ranks in its top ``SIBLING_DEPTH`` of a leg; a look-up
without topic words keeps its W0-only ladder (nothing but the number would tie the item to the query).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from chsr.relaxation import W1
from chsr.scope import Scope
from services.gate.evidence_features import EvidenceHit
from services.gate.ladder import LadderStep

#: How deep in a leg's probe list a sibling item may be and still be taken as the one the query means.
SIBLING_DEPTH = 10
#: The unsatisfiable fields (``Vocabulary.unsatisfiable``) that show the named paper cannot hold the item.
EMPTY_BECAUSE = ("question_number", "year")


def sibling_rung(flt: Scope, unsatisfiable: Mapping[str, str], probe: Sequence[EvidenceHit]) -> LadderStep | None:
    """The W1 rung to the sibling paper of the same sitting that holds the numbered item, or None."""
    if not flt.paper or not flt.question_number or not any(k in unsatisfiable for k in EMPTY_BECAUSE):
        return None
    for hit in sorted(probe, key=lambda h: h.rank):
        if hit.rank > SIBLING_DEPTH:
            break
        meta = hit.metadata
        paper = meta.get("paper")
        if not paper or paper in flt.paper or meta.get("question_number") not in flt.question_number:
            continue
        if flt.year and meta.get("year") not in flt.year:
            continue
        if flt.exam_board and meta.get("exam_board") not in flt.exam_board:
            continue
        if flt.content_type and meta.get("content_type") not in flt.content_type:
            continue
        if not any(_same_sitting(paper, asked) for asked in flt.paper):
            continue
        subject = meta.get("subject")
        relaxed = replace(flt, paper=(paper,), subject=(subject,) if subject and flt.subject else flt.subject)
        why = "; ".join(unsatisfiable[k] for k in EMPTY_BECAUSE if k in unsatisfiable)
        year = f" ({meta['year']})" if meta.get("year") else ""
        return LadderStep(W1, relaxed, f"W1 the named paper cannot hold the item ({why}); question "
                                       f"{meta.get('question_number')} of {paper}{year} matches the query's words: "
                                       f"paper {'|'.join(flt.paper)} -> {paper}")
    return None


def with_sibling_rung(steps: list[LadderStep], rung: LadderStep | None) -> list[LadderStep]:
    """``steps`` with ``rung`` right after W0 (a W0-only ladder, strict or a pure look-up, is left as it is)."""
    if rung is None or len(steps) < 2 or any(s.filter == rung.filter for s in steps):
        return steps
    return [steps[0], rung, *steps[1:]]


def _same_sitting(paper: str, asked: str) -> bool:
    """Two papers of one sitting: their names share every word but the subject's ("Gaokao 新课标I Chemistry" and
    "Gaokao 新课标I Physics"): the same first words, at least two, up to where either name's last word starts."""
    a, b = paper.split(), asked.split()
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared >= 2 and shared >= min(len(a), len(b)) - 1
