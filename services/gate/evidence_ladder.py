"""The relaxation ladder over an evidence decision (issue 14; ladder rules in ``ladder.py``).

Same steps, order and labels as :func:`services.gate.ladder.build_ladder`, with two changes
that follow from deciding scope on evidence:

* stated-but-uncertain fields (``EvidenceDecision.soft_fields``) and values the corpus lacks are
  dropped at W1 like any soft field — except the level, which the ladder's W2 steps widen to
  the nearest grade or band instead (curriculum README: relaxation targets are the *nearest*
  scope; "grade 11", which no source uses, widens to grades 10-12 and high school);
* where the text asks for a value the evidence places elsewhere (a "grade 11" item that the
  corpus holds at grade 12, a mark scheme for an item that only exists as a question), one
  extra step replaces the stated value by the evidence's (``FieldDecision.alternative``): a W1
  step for topic fields, a W2 step (before the generic widening) when the level changes.
  The step's description names what it replaced, so the answer says so.
"""

from __future__ import annotations

from dataclasses import replace

from chsr.relaxation import W1, W2
from services.gate.evidence import EvidenceDecision
from services.gate.ladder import LadderStep, build_ladder
from services.gate.vocabulary import Vocabulary

#: Soft fields the ladder widens at W2 rather than dropping at W1.
WIDENED_NOT_DROPPED = ("level",)


def evidence_ladder(decision: EvidenceDecision, vocab: Vocabulary, strict_scope: bool = False) -> list[LadderStep]:
    flt = decision.filter
    unsatisfiable = vocab.unsatisfiable(flt)
    soft = {k: v for k, v in {**unsatisfiable, **decision.soft_fields}.items() if k not in WIDENED_NOT_DROPPED}
    notes = [unsatisfiable[k] for k in sorted(unsatisfiable)] + [n for n in decision.notes if "not in the corpus" in n]
    steps = build_ladder(flt, decision.strict_keys, strict_scope, soft_fields=soft,
                         subject_parents=vocab.subject_parents, notes=notes)
    alternatives = {n: d.alternative for n, d in decision.fields.items() if d.alternative and n not in decision.strict_keys}
    if strict_scope or not alternatives or len(steps) < 2:
        return steps
    level_changes = "level" in alternatives
    step = W2 if level_changes else W1
    at = next((i for i, r in enumerate(steps) if r.step >= step and i > 0), len(steps))
    base = steps[at - 1].filter if level_changes else flt
    relaxed = replace(base, **{n: tuple(v) for n, v in alternatives.items() if getattr(base, n)})
    if relaxed == base or any(r.filter == relaxed for r in steps):
        return steps
    label = "W2" if level_changes else "W1"
    text = ", ".join(f"{n} {'|'.join(map(str, getattr(flt, n)))} -> {'|'.join(map(str, v))}" for n, v in alternatives.items())
    step_ = LadderStep(step, relaxed, f"{label} relax to where the evidence holds the material: {text}")
    return steps[:at] + [step_] + steps[at:]
