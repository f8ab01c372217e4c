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
  step for topic fields; for the level a W2 step after the nearest widening (band, one and two
  grades) and before the level is dropped, so the answer goes to the nearest grade first.
  The step's description names what it replaced, so the answer says so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Collection, Mapping

from chsr.relaxation import W1, W2, step_label
from chsr.scope import MARKING_TYPES, REFERENCE_MATERIAL, Scope
from services.gate.evidence import EvidenceDecision, FieldDecision
from services.gate.ladder import LadderStep, build_ladder, with_kin
from services.gate.nearest import with_nearest_level, with_question_for_marking, with_reference_material
from services.gate.series import SeriesGap, with_series_rungs
from services.gate.vocabulary import Vocabulary

#: How likely another kind must be for a weakly stated reference kind to move no subject (``_kind_unlikely``).
LIKELIER_KIND = 0.5
#: Soft fields the ladder widens at W2 rather than dropping at W1.
WIDENED_NOT_DROPPED = ("level",)


def evidence_ladder(decision: EvidenceDecision, vocab: Vocabulary, strict_scope: bool = False,
                    gap: SeriesGap | None = None, unsatisfiable: Mapping[str, str] | None = None,
                    found: Mapping[str, Collection[str]] | None = None, unseen: bool = False) -> list[LadderStep]:
    """``gap``: what a named series lacks (``services.gate.series.find_gap``); its rungs come right after W0.
    ``unsatisfiable``: ``vocab.unsatisfiable(decision.filter)`` when the caller already has it.
    ``found``: the reference material the probe found, by content type (``services.gate.nearest.material_found``).
    ``unseen``: the probe cannot see the reference material asked for (``services.gate.nearest.material_unseen``)."""
    if unsatisfiable is None:
        unsatisfiable = vocab.unsatisfiable(decision.filter)
    steps = _evidence_ladder(decision, vocab, strict_scope, unsatisfiable)
    subject, kind = decision.fields.get("subject"), decision.fields.get("content_type")
    confirmed = subject is not None and subject.source == "both" and subject.action == "filter"
    unlikely = "content_type" in decision.soft_fields and _kind_unlikely(kind)
    steps = with_question_for_marking(steps, vocab)
    steps = with_reference_material(with_nearest_level(steps, vocab), vocab, found, unlikely,
                                    subject_confirmed=confirmed, kind_firm=kind is not None and kind.action == "filter",
                                    unseen=unseen)
    return with_series_rungs(steps, decision.filter, gap)


def _kind_unlikely(kind: FieldDecision | None) -> bool:
    """The evidence finds a kind other than reference material more likely than not (p >= 0.5): for a soft stated
    kind, the weak "table" of a question, not of a textbook."""
    if kind is None or not kind.candidates:
        return False
    value, p = max(kind.candidates, key=lambda c: c[1])
    return value not in REFERENCE_MATERIAL and p >= LIKELIER_KIND


def _evidence_ladder(decision: EvidenceDecision, vocab: Vocabulary, strict_scope: bool,
                     unsatisfiable: Mapping[str, str]) -> list[LadderStep]:
    flt = decision.filter
    soft = {k: v for k, v in {**unsatisfiable, **decision.soft_fields}.items() if k not in WIDENED_NOT_DROPPED}
    notes = [unsatisfiable[k] for k in sorted(unsatisfiable)] + [n for n in decision.notes if "not in the corpus" in n]
    steps = build_ladder(flt, decision.strict_keys, strict_scope, soft_fields=soft,
                         subject_parents=vocab.subject_parents, notes=notes)
    alternatives = {n: d.alternative for n, d in decision.fields.items() if d.alternative and n not in decision.strict_keys}
    if strict_scope or not alternatives or len(steps) < 2:
        return steps
    topic = {n: v for n, v in alternatives.items() if n != "level"}
    if topic:  # a W1 rung right after W0: the same level, the field where the evidence holds the material
        relaxed = replace(flt, **{n: tuple(v) for n, v in topic.items() if getattr(flt, n)})
        steps = _insert(steps, W1, relaxed, _text(flt, topic), before=lambda r: r.step >= W1)
        kin = _marking_kin(flt, topic.get("content_type", ()))
        if kin:  # marking material's kin (a solution for a mark scheme) before the item itself
            widened = replace(flt, content_type=kin)
            steps = _insert([r for r in steps if r.filter != widened], W1, widened, _text(flt, {"content_type": kin}),
                            before=lambda r: r.step >= W1)
    if "level" in alternatives and flt.level:
        # after the nearest widening (band, one and two grades; README: relaxation goes to the *nearest*
        # scope), before the level is dropped altogether: the level where the evidence holds the material
        at = next((r for r in reversed(steps) if r.step == W2 and r.filter.level), None)
        if at is not None:
            relaxed = replace(at.filter, level=tuple(alternatives["level"]))
            steps = _insert(steps, W2, relaxed, _text(flt, {"level": alternatives["level"]}),
                            before=lambda r: r.step > W2 or (r.step == W2 and not r.filter.level))
    return steps


def _marking_kin(flt: Scope, alternative: Collection[str]) -> tuple[str, ...]:
    """The asked marking types and their kin (``ladder.with_kin``), where the evidence would move a marking request for
    an item of a named sitting (a paper and its question number, or a paper and its year) to another content type
    (the question itself); () otherwise. A Gaokao multiple-choice item has a worked solution, not a mark scheme:
    asked for its mark scheme, the same item's solution is nearer than the question (curriculum README: relaxation
    goes to the nearest scope). "2016全国三卷化学选择题 ClO2 / SO2 ... 那道的评分细则" asks for a mark scheme and names
    no number, but the paper and the year hold the one sitting whose solutions the topic ranks (round 27: three
    annotators of three). A solution asked by paper and year alone keeps the evidence's kind: "enunciado + solución"
    of an open-ended item wants the question too (authored `jb_tb_syn.01`, `jk_tb_sy.01`). Without a sitting the kin
    would be any paper's marking material, and the evidence's content type is where the item is."""
    asked = flt.content_type
    if not flt.paper or not (flt.question_number or (flt.year and set(asked) == {"mark_scheme"})):
        return ()
    if not asked or not alternative or not set(asked) <= set(MARKING_TYPES) or set(alternative) & set(MARKING_TYPES):
        return ()
    kin = with_kin(asked)
    return kin if kin != asked else ()


def _text(flt: Scope, alternatives: Mapping[str, tuple]) -> str:
    return ", ".join(f"{n} {'|'.join(map(str, getattr(flt, n)))} -> {'|'.join(map(str, v))}" for n, v in alternatives.items())


def _insert(steps: list[LadderStep], step: int, relaxed: Scope, text: str,
            before: Callable[[LadderStep], bool]) -> list[LadderStep]:
    """``relaxed`` as a rung of ``step`` before the first rung ``before`` accepts (after W0), unless it is already one."""
    if any(r.filter == relaxed for r in steps):
        return steps
    at = next((i for i, r in enumerate(steps) if i > 0 and before(r)), len(steps))
    rung = LadderStep(step, relaxed, f"{step_label(step)} relax to where the evidence holds the material: {text}")
    return steps[:at] + [rung] + steps[at:]
