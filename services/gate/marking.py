"""Marking material a paper never has: the content-type rungs of a pure item look-up (issue 21).

A pure look-up ("official mark scheme for 2019 AMC 10A #7") is never widened to other items: with no topic
words, nothing but its scope identifies what was asked (``logic.run_gate``). One relaxation still answers it
honestly: when the named paper holds the item but *no* material of the asked marking type in any year (the
curriculum README's relaxation kind "a content type that does not exist, such as a mark scheme for an ARC
paper"), the same item's nearest kin (a solution for a mark scheme, and back) and then the item itself answer,
each on a labelled W1 rung. A paper that has the asked type in other years (a 2025 AMC solution the index lacks)
gets no rung: there the item's own marking material is what is missing, and the answer stays empty.
"""

from __future__ import annotations

from dataclasses import replace

from chsr.relaxation import W1
from chsr.scope import MARKING_TYPES, Scope
from services.gate.ladder import CONTENT_KIN, LadderStep
from services.gate.vocabulary import Vocabulary


def marking_rungs(scope: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """The W1 rungs after W0 for a look-up of marking material its paper never has; [] otherwise."""
    asked = scope.content_type
    if not asked or not set(asked) <= set(MARKING_TYPES) or not scope.paper:
        return []
    infos = [vocab.paper(name) for name in scope.paper]
    if any(info is None for info in infos) or vocab.unsatisfiable(scope.without("content_type")):
        return []  # an unknown paper, a year or number it lacks: nothing to answer (abstention)
    held = tuple(dict.fromkeys(t for info in infos if info is not None for t in info.content_types))
    if set(asked) & set(held):
        return []
    papers = ", ".join(scope.paper)
    rungs: list[LadderStep] = []
    kin = tuple(dict.fromkeys(k for c in asked for k in CONTENT_KIN.get(c, ()) if k in held))
    if kin:
        rungs.append(LadderStep(W1, replace(scope, content_type=kin),
                                f"W1 content_type {'|'.join(asked)} is not held for {papers}: its {'|'.join(kin)}"))
    items = tuple(t for t in held if t not in MARKING_TYPES)
    if items:
        rungs.append(LadderStep(W1, replace(scope, content_type=items),
                                f"W1 content_type {'|'.join(asked)} is not held for {papers}: the item itself "
                                f"({'|'.join(items)})"))
    return rungs

