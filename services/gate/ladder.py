"""The relaxation ladder (seed 000 s.3.4 stage 5; ``RelaxationStep`` in common.proto).

Each step widens to the *nearest* scope first (curriculum README: relaxation targets are
"nearest year", "nearest grade"), so a widened answer stays as close to what was asked as
the corpus allows:

* **W0 exact** — the full scope (extracted + hints).
* **W1 drop topic constraints** — (a) the question number unless it is a strict key, a requested
  language version, soft
  fields (low confidence, or proven unsatisfiable by the corpus index, e.g. a year after the
  corpus ends), a science discipline widened to its parent below the high-school band (grade 3-8
  material is filed as general science; from grade 9 the nearest scope keeps the discipline and
  widens the level to its band at W2), and the content type widened to its nearest kin (mark scheme <-> solution);
  (b) with strict keys only, the content type dropped (an explicit
  item whose marking material does not exist is answered by the item itself).
* **W2 drop level/cycle** — never when strict keys (explicit paper or question number) are
  present: (a) the level widened to the bands or grades it overlaps (grade 9-12 <-> high school,
  K-5 <-> elementary) and general science to its disciplines; (b)-(d) one, two, three grades
  either side on the grade line (college sits one past grade 12); (e) level and content type dropped.
* **W3 unfiltered lexical fallback** — empty filter, ``lexical_only=True``; the gateway flags
  every result's violations. Never offered when strict keys are present (an explicit paper or
  question must not be answered from an unfiltered pool).

Each step is cumulative on the previous one; a step whose filter equals the previous step's
is skipped. ``strict_scope=True`` returns W0 only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from chsr.levels import level_distance, levels_within
from chsr.relaxation import W0, W1, W2, W3, step_label
from chsr.scope import Scope
from chsr.v1 import common_pb2

TOPIC_FIELDS: tuple[str, ...] = ("question_number", "language")
LEVEL_FIELDS: tuple[str, ...] = ("level",)
#: Nearest content types: marking material of one kind stands in for the other.
CONTENT_KIN: dict[str, tuple[str, ...]] = {"mark_scheme": ("solution",), "solution": ("mark_scheme",)}
SCIENCE_DISCIPLINES: tuple[str, ...] = ("physics", "chemistry", "biology")


@dataclass(frozen=True)
class LadderStep:
    """One step of the ladder (``chsr.v1.LadderStep``)."""

    step: int  # a common_pb2.RelaxationStep value
    filter: Scope
    description: str
    lexical_only: bool = False
    #: answers only with on-topic results (a numbered question of another year: ``services.gate.sittings``)
    on_topic_only: bool = False

    @property
    def label(self) -> str:
        return step_label(self.step)

    def to_proto(self) -> common_pb2.LadderStep:
        return common_pb2.LadderStep(
            step=self.step, filter=self.filter.to_proto(), description=self.description, lexical_only=self.lexical_only,
            on_topic_only=self.on_topic_only,
        )


def build_ladder(
    scope: Scope, strict_keys: Iterable[str], strict_scope: bool, *,
    soft_fields: Mapping[str, str] | Iterable[str] = (), subject_parents: Mapping[str, str] | None = None,
    notes: Iterable[str] = (),
) -> list[LadderStep]:
    """Ordered steps W0..W3 for ``scope``.

    ``soft_fields`` (field -> reason) are dropped at W1 unless they are strict
    keys; ``subject_parents`` enables the W1 widening of a discipline to its
    parent subject; ``notes`` are appended to the W0 description (e.g. "paper X
    is not in the corpus").
    """
    strict = set(strict_keys)
    reasons = dict(soft_fields) if isinstance(soft_fields, Mapping) else {f: "low confidence" for f in soft_fields}
    note = "; ".join(notes)
    w0 = LadderStep(W0, scope, _describe("W0 exact scope", scope) + (f" [{note}]" if note else ""))
    if strict_scope:
        return [w0]
    steps = [w0]
    w1_filter, w1_text = _w1(scope, strict, reasons, subject_parents or {})
    _append(steps, LadderStep(W1, w1_filter, w1_text))
    if strict:
        if w1_filter.content_type and "content_type" not in strict:
            _append(steps, LadderStep(W1, w1_filter.without("content_type"),
                                      "W1 drop topic constraints: content_type"))
    else:
        for distance in WIDEN_DISTANCES:
            w2 = _widen_level(w1_filter, distance, general_science="science" in scope.subject)
            _append(steps, LadderStep(W2, w2,
                                      f"W2 widen level ({'band' if distance == 0 else f'{distance} grade(s)'}): {'|'.join(w2.level) or 'any'}"))
        dropped = [f for f in ("level", "content_type") if getattr(w1_filter, f)]
        _append(steps, LadderStep(W2, w1_filter.without("level", "content_type"),
                                  f"W2 drop level/cycle: {', '.join(dropped) or 'none'}"))
    if not strict:
        _append(steps, LadderStep(W3, Scope(),
                                  "W3 unfiltered lexical fallback (no curriculum filter; results are leakage-flagged)", True))
    return steps


#: The W2 widening distances, in grades: the level's band, then one, two and three grades either side.
WIDEN_DISTANCES: tuple[int, ...] = (0, 1, 2, 3)


def _widen_level(filt: Scope, distance: int, general_science: bool) -> Scope:
    levels = tuple(dict.fromkeys(lv for level in filt.level for lv in levels_within(level, distance)))
    subjects = filt.subject
    if general_science:  # asked for general science: above grade 9 it is filed by discipline
        subjects = tuple(dict.fromkeys([*subjects, *SCIENCE_DISCIPLINES]))
    return replace(filt, level=levels, subject=subjects)


def _w1(scope: Scope, strict: set[str], reasons: dict[str, str], parents: Mapping[str, str]) -> tuple[Scope, str]:
    drop = [f for f in TOPIC_FIELDS if getattr(scope, f) and f not in strict]
    drop += [f for f in reasons if getattr(scope, f, ()) and f not in strict and f not in drop]
    filt = scope.without(*drop)
    parts = [f"{f} ({reasons[f]})" if f in reasons else f for f in drop]
    widened = tuple(dict.fromkeys([*filt.subject, *(parents[s] for s in filt.subject if s in parents)]))
    if widened != filt.subject and widens_to_parent(filt.level):
        filt = replace(filt, subject=widened)
        parts.append(f"subject widened to {'|'.join(widened)}")
    if "content_type" not in strict:
        kin = with_kin(filt.content_type)
        if kin != filt.content_type:
            filt = replace(filt, content_type=kin)
            parts.append(f"content_type widened to {'|'.join(kin)}")
    return filt, "W1 drop topic constraints: " + (", ".join(parts) or "none")


def with_kin(content_types: tuple[str, ...]) -> tuple[str, ...]:
    """``content_types`` followed by their nearest kin (``CONTENT_KIN``: mark scheme <-> solution), each once."""
    return tuple(dict.fromkeys([*content_types, *(k for c in content_types for k in CONTENT_KIN.get(c, ()))]))


def widens_to_parent(levels: Iterable[str]) -> bool:
    """Whether W1 widens a discipline to its parent subject at ``levels``: with no level, or with one below the
    high-school band, where the corpus files general science (README: grade 3-9 ARC papers). A grade-9 or
    later level keeps its discipline: its band (high school) holds the discipline, nearer than another subject."""
    levels = tuple(levels)
    return not levels or any(lv != "college" and level_distance(lv, "high_school") != 0 for lv in levels)


def _append(steps: list[LadderStep], step: LadderStep) -> None:
    if step.filter != steps[-1].filter:
        steps.append(step)


def _describe(prefix: str, scope: Scope) -> str:
    items = [f"{k}={'|'.join(map(str, v))}" for k, v in scope.items()]
    return f"{prefix}: {', '.join(items) or 'unconstrained'}"
