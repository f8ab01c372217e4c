"""The nearest level the corpus holds, as a rung of its own (issue 21, failure class 2).

When the asked level holds nothing for the subject (and content type), the field to relax is the level,
and its nearest value is measured in the corpus: the levels held for that subject nearest the asked one
(ties: both sides, or the side in the asked grade's band). The rung comes before the ladder's generic
widenings (band, one, two, three grades), which also admit levels the corpus holds farther away, and says
what moved ("level grade_6 not held for mathematics exam_question; nearest held: grade_5, grade_7").
"""

from __future__ import annotations

from dataclasses import replace

from chsr.levels import nearest_levels
from chsr.relaxation import W2
from services.gate.ladder import LadderStep
from services.gate.vocabulary import Vocabulary


def with_nearest_level(steps: list[LadderStep], vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with a nearest-held-level rung before the first W2 rung (unchanged when not needed)."""
    at = next((i for i, s in enumerate(steps) if s.step == W2), None)
    if at is None or at == 0 or not vocab.has_corpus:
        return steps
    base = steps[at - 1].filter
    if not base.level or not base.subject:
        return steps
    held = vocab.held_levels(base.subject, base.content_type) or vocab.held_levels(base.subject)
    if not held or set(base.level) & held:
        return steps
    nearest = nearest_levels(held, base.level)
    if not nearest:
        return steps
    relaxed = replace(base, level=nearest)
    if any(s.filter == relaxed for s in steps):
        return steps
    what = "/".join(base.subject) + (f" {'/'.join(base.content_type)}" if base.content_type else "")
    rung = LadderStep(W2, relaxed, f"W2 nearest level held: level {'|'.join(base.level)} not held for {what}; "
                                   f"nearest held: {'|'.join(nearest)}")
    return steps[:at] + [rung] + steps[at:]
