"""The text's value, overruled by the evidence because the index does not hold it, is a relaxation (issue 21).

"grade 5 physics and chemistry: how do you separate salt from water?": the index holds no physics or chemistry
at grade 5 (it files that as general science), and the evidence decides science. That answer is right, but it is
not what the text asked for: it is the nearest scope the index holds. Labelled W0 it claims to be the exact scope
the student named. So when the evidence replaces a stated subject or level and the index holds nothing with the
stated value (given the rest of the exact scope), the ladder starts with the text's own scope as W0 — honestly
empty — and the evidence's scope follows as W1, saying what moved and why.

Where the stated value *is* held ("physics question about the Marshall Plan": physics exists), overruling it is a
correction of a wrong subject, not a relaxation, and W0 stays the evidence's scope (curriculum README: for a wrongly
named subject the gold scope holds the true value).
"""

from __future__ import annotations

from dataclasses import replace

from chsr.relaxation import W0, W1
from chsr.scope import Scope
from services.gate.evidence import EvidenceDecision
from services.gate.evidence_features import StatedQuery
from services.gate.ladder import LadderStep
from services.gate.vocabulary import Vocabulary

#: The fields whose stated values are checked against the catalogue's subject x level cells.
CELL_FIELDS: tuple[str, ...] = ("subject", "level")


def overruled_absent(stated: StatedQuery, decision: EvidenceDecision, vocab: Vocabulary) -> dict[str, tuple]:
    """Field -> the text's values, where the evidence put other values in the exact scope and the index holds
    nothing with the text's (with the rest of the exact scope)."""
    out: dict[str, tuple] = {}
    flt = decision.filter
    for name in CELL_FIELDS:
        chosen = decision.fields.get(name)
        said = stated.get(name)
        if chosen is None or not chosen.conflict or said is None or not said.values:
            continue
        values = tuple(said.values)
        if set(values) & set(getattr(flt, name)) or _held(name, values, flt, vocab):
            continue
        out[name] = values
    return out


def with_stated_w0(steps: list[LadderStep], overruled: dict[str, tuple], flt: Scope) -> list[LadderStep]:
    """``steps`` with the text's own scope as W0 and the evidence's exact scope as the first W1 rung (a W0-only
    ladder, strict or a pure look-up, is left as it is: it answers in the evidence's scope)."""
    if not overruled or len(steps) < 2:
        return steps
    asked = replace(flt, **overruled)
    said = ", ".join(f"{name} {'|'.join(map(str, v))}" for name, v in overruled.items())
    moved = ", ".join(f"{name} {'|'.join(map(str, v))} -> {'|'.join(map(str, getattr(flt, name)))}"
                      for name, v in overruled.items())
    w0 = LadderStep(W0, asked, f"W0 exact scope as the text states it ({said}: not held in the index)")
    first = replace(steps[0], step=W1, description=f"W1 where the evidence holds the material: {moved}")
    return [w0, first, *(s for s in steps[1:] if s.filter != asked)]


def _held(name: str, values: tuple, flt: Scope, vocab: Vocabulary) -> bool:
    """Does the index hold material with ``values`` for ``name``, given the exact scope's other cell field?"""
    if not vocab.has_corpus:
        return True  # unknown: keep the evidence's scope as W0
    if name == "subject":
        return bool(set(flt.level) & vocab.held_levels(values)) if flt.level \
            else bool(set(values) & vocab.corpus_values("subject"))
    return bool(set(values) & vocab.held_levels(flt.subject)) if flt.subject \
        else bool(set(values) & vocab.corpus_values("level"))
