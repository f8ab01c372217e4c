"""The relaxation ladder over an evidence decision (issue 14; ladder rules in ``ladder.py``).

Same rungs, order and labels as :func:`services.gate.ladder.build_ladder`, with two changes
that follow from deciding scope on evidence:

* stated-but-uncertain fields (``EvidenceDecision.soft_fields``) and values the corpus lacks are
  dropped at W1 like any soft field — except the level, which the ladder's W2 steps widen to
  the nearest grade or band instead (curriculum README: relaxation targets are the *nearest*
  scope; "grade 11", which no source uses, widens to grades 10-12 and high school);
* where the text asks for a value the evidence places elsewhere (a "grade 11" item that the
  corpus holds at grade 12, a mark scheme for an item that only exists as a question), one
  extra rung replaces the stated value by the evidence's (``FieldDecision.alternative``): a W1
  rung for topic fields, a W2 rung (before the generic widening) when the level changes.
  The rung's description names what it replaced, so the answer says so.
"""

from __future__ import annotations

from dataclasses import replace

from chsr.v1 import common_pb2
from services.gate.evidence import EvidenceDecision
from services.gate.ladder import LadderRung, build_ladder
from services.gate.vocabulary import Vocabulary

#: Soft fields the ladder widens at W2 rather than dropping at W1.
WIDENED_NOT_DROPPED = ("level",)


def evidence_ladder(decision: EvidenceDecision, vocab: Vocabulary, strict_scope: bool = False) -> list[LadderRung]:
    flt = decision.filter
    unsatisfiable = vocab.unsatisfiable(flt)
    soft = {k: v for k, v in {**unsatisfiable, **decision.soft_fields}.items() if k not in WIDENED_NOT_DROPPED}
    notes = [unsatisfiable[k] for k in sorted(unsatisfiable)] + [n for n in decision.notes if "not in the corpus" in n]
    rungs = build_ladder(flt, decision.strict_keys, strict_scope, soft_fields=soft,
                         subject_parents=vocab.subject_parents, notes=notes)
    alternatives = {n: d.alternative for n, d in decision.fields.items() if d.alternative and n not in decision.strict_keys}
    if strict_scope or not alternatives or len(rungs) < 2:
        return rungs
    level_changes = "level" in alternatives
    step = common_pb2.W2_DROP_LEVEL if level_changes else common_pb2.W1_DROP_TOPIC
    at = next((i for i, r in enumerate(rungs) if r.step >= step and i > 0), len(rungs))
    base = rungs[at - 1].filter if level_changes else flt
    relaxed = replace(base, **{n: tuple(v) for n, v in alternatives.items() if getattr(base, n)})
    if relaxed == base or any(r.filter == relaxed for r in rungs):
        return rungs
    label = "W2" if level_changes else "W1"
    text = ", ".join(f"{n} {'|'.join(map(str, getattr(flt, n)))} -> {'|'.join(map(str, v))}" for n, v in alternatives.items())
    rung = LadderRung(step, relaxed, f"{label} relax to where the evidence holds the material: {text}")
    return rungs[:at] + [rung] + rungs[at:]
