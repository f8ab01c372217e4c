"""Marking material a paper never has: the content-type rungs of a pure item look-up (issue 21).

A pure look-up ("official mark scheme for 2019 AMC 10A #7") is never widened to other items: with no topic
words, nothing but its scope identifies what was asked (``logic.run_gate``). One relaxation still answers it
honestly: when the named paper holds the item but *no* material of the asked marking type in any year (the
curriculum README's relaxation kind "a content type that does not exist, such as a mark scheme for an ARC
paper"), the same item's nearest kin (a solution for a mark scheme, and back) and then the item itself answer,
each on a labelled W1 rung. A paper that holds the asked type for other items may still lack it for the named one:
a Gaokao paper's multiple-choice questions carry worked solutions, its open questions mark schemes. A numbered item
of such a paper gets one rung, its kin (the mark scheme when no solution is held for it, and back), reached only when
W0 finds nothing; an item with neither (a 2019 AMC solution the index lacks, AMC holding no mark schemes) gets no
rung, and the answer stays empty.
"""

from __future__ import annotations

from dataclasses import replace

from chsr.relaxation import W1
from chsr.scope import MARKING_TYPES, Scope
from services.gate.ladder import CONTENT_KIN, LadderStep
from services.gate.vocabulary import Vocabulary


def marking_rungs(scope: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """The W1 rungs after W0 for a look-up of marking material its paper never has, or the kin rung for a numbered
    item of a paper that holds the asked type and its kin; [] otherwise."""
    asked = scope.content_type
    if not asked or not set(asked) <= set(MARKING_TYPES) or not scope.paper:
        return []
    infos = [vocab.paper(name) for name in scope.paper]
    if any(info is None for info in infos) or vocab.unsatisfiable(scope.without("content_type")):
        return []  # an unknown paper, a year or number it lacks: nothing to answer (abstention)
    held = tuple(dict.fromkeys(t for info in infos if info is not None for t in info.content_types))
    papers = ", ".join(scope.paper)
    kin = tuple(dict.fromkeys(k for c in asked for k in CONTENT_KIN.get(c, ()) if k in held and k not in asked))
    if set(asked) & set(held):
        if not kin or not scope.question_number:
            return []
        numbers = ", ".join(str(n) for n in scope.question_number)
        return [LadderStep(W1, replace(scope, content_type=kin),
                           f"W1 content_type {'|'.join(asked)} for question {numbers} of {papers}: where this item has "
                           f"none, its {'|'.join(kin)}")]
    rungs: list[LadderStep] = []
    if kin:
        rungs.append(LadderStep(W1, replace(scope, content_type=kin),
                                f"W1 content_type {'|'.join(asked)} is not held for {papers}: its {'|'.join(kin)}"))
    items = tuple(t for t in held if t not in MARKING_TYPES)
    if items:
        rungs.append(LadderStep(W1, replace(scope, content_type=items),
                                f"W1 content_type {'|'.join(asked)} is not held for {papers}: the item itself "
                                f"({'|'.join(items)})"))
    return rungs

