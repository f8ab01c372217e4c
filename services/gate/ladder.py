"""The relaxation ladder (seed 000 s.3.4 stage 5; issue 5; ``RelaxationStep`` in common.proto).

* **W0 exact** — the full scope (extracted + hints).
* **W1 drop topic constraints** — content type; the question number unless it is
  a strict key; soft fields (low confidence, or proven unsatisfiable by the corpus
  index, e.g. a year after the corpus ends); a science discipline is widened to
  its parent (physics -> physics|science: grade 3-9 material is filed as general
  science, curriculum README).
* **W2 drop level/cycle** — never when strict keys (explicit paper or question
  number) are present.
* **W3 unfiltered lexical fallback** — empty filter, ``lexical_only=True``; the
  gateway flags every result's violations.

Each rung is cumulative on the previous one; a rung whose filter equals the
previous rung's is skipped. ``strict_scope=True`` returns W0 only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from chsr.scope import Scope
from chsr.v1 import common_pb2

TOPIC_FIELDS: tuple[str, ...] = ("content_type", "question_number")
LEVEL_FIELDS: tuple[str, ...] = ("level",)
LABELS = {
    common_pb2.W0_EXACT: "W0", common_pb2.W1_DROP_TOPIC: "W1",
    common_pb2.W2_DROP_LEVEL: "W2", common_pb2.W3_UNFILTERED_LEXICAL: "W3",
}


@dataclass(frozen=True)
class LadderRung:
    step: int  # a common_pb2.RelaxationStep value
    filter: Scope
    description: str
    lexical_only: bool = False

    @property
    def label(self) -> str:
        return LABELS.get(self.step, "W?")

    def to_proto(self) -> common_pb2.LadderStep:
        return common_pb2.LadderStep(
            step=self.step, filter=self.filter.to_proto(), description=self.description, lexical_only=self.lexical_only,
        )


def build_ladder(
    scope: Scope, strict_keys: Iterable[str], strict_scope: bool, *,
    soft_fields: Mapping[str, str] | Iterable[str] = (), subject_parents: Mapping[str, str] | None = None,
    notes: Iterable[str] = (),
) -> list[LadderRung]:
    """Ordered rungs W0..W3 for ``scope``.

    ``soft_fields`` (field -> reason) are dropped at W1 unless they are strict
    keys; ``subject_parents`` enables the W1 widening of a discipline to its
    parent subject; ``notes`` are appended to the W0 description (e.g. "paper X
    is not in the corpus").
    """
    strict = set(strict_keys)
    reasons = dict(soft_fields) if isinstance(soft_fields, Mapping) else {f: "low confidence" for f in soft_fields}
    note = "; ".join(notes)
    w0 = LadderRung(common_pb2.W0_EXACT, scope, _describe("W0 exact scope", scope) + (f" [{note}]" if note else ""))
    if strict_scope:
        return [w0]
    rungs = [w0]
    w1_filter, w1_text = _w1(scope, strict, reasons, subject_parents or {})
    _append(rungs, LadderRung(common_pb2.W1_DROP_TOPIC, w1_filter, w1_text))
    if not strict:
        dropped = [f for f in LEVEL_FIELDS if getattr(w1_filter, f)]
        w2_filter = w1_filter.without(*LEVEL_FIELDS)
        _append(rungs, LadderRung(common_pb2.W2_DROP_LEVEL, w2_filter, f"W2 drop level/cycle: {', '.join(dropped) or 'none'}"))
    _append(rungs, LadderRung(common_pb2.W3_UNFILTERED_LEXICAL, Scope(),
                              "W3 unfiltered lexical fallback (no curriculum filter; results are leakage-flagged)", True))
    return rungs


def _w1(scope: Scope, strict: set[str], reasons: dict[str, str], parents: Mapping[str, str]) -> tuple[Scope, str]:
    drop = [f for f in TOPIC_FIELDS if getattr(scope, f) and f not in strict]
    drop += [f for f in reasons if getattr(scope, f, ()) and f not in strict and f not in drop]
    filt = scope.without(*drop)
    parts = [f"{f} ({reasons[f]})" if f in reasons else f for f in drop]
    widened = tuple(dict.fromkeys([*filt.subject, *(parents[s] for s in filt.subject if s in parents)]))
    if widened != filt.subject:
        filt = replace(filt, subject=widened)
        parts.append(f"subject widened to {'|'.join(widened)}")
    return filt, "W1 drop topic constraints: " + (", ".join(parts) or "none")


def _append(rungs: list[LadderRung], rung: LadderRung) -> None:
    if rung.filter != rungs[-1].filter:
        rungs.append(rung)


def _describe(prefix: str, scope: Scope) -> str:
    items = [f"{k}={'|'.join(map(str, v))}" for k, v in scope.items()]
    return f"{prefix}: {', '.join(items) or 'unconstrained'}"
