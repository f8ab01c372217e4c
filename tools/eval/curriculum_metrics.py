"""Curriculum-fidelity metrics of the CERB-style benchmark, as pure functions.

Definitions follow ``../shared/data/curriculum/README.md`` ("Labelling and scoring
policy") and seed 000 section 3.6; where the README is silent the choice is written
in the docstring. A gold scope is the case format: field -> scalar | list | None,
where ``None`` means unconstrained and a list means "any of these values". Chunk
metadata is a plain mapping; an absent key is the same as ``None``.

Why not :meth:`chsr.scope.Scope.violations`: that one checks the *system's* scope;
these check a returned chunk against the *gold* scope, may be restricted to the
curriculum tuple, and must not depend on what the system reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

#: The gold scope fields of a case (README, "Case schema").
GOLD_FIELDS: tuple[str, ...] = (
    "subject", "level", "year", "session", "paper", "content_type", "question_number",
)
#: The headline leakage restricts to the curriculum tuple (seed 000 section 3.3).
CURRICULUM_TUPLE: tuple[str, ...] = ("subject", "level", "year", "session", "paper")
#: Ladder steps that mean "not relaxed": the W0 scope, or no label at all.
UNRELAXED_STEPS: frozenset[str] = frozenset({"W0_EXACT", "W0", "RELAXATION_STEP_UNSPECIFIED", "", "?"})

Meta = Mapping[str, Any]
GoldScope = Mapping[str, Any]


def allowed_values(scope: GoldScope | None, fields: Iterable[str] | None = None) -> dict[str, frozenset]:
    """The non-null constraints of ``scope`` (optionally only ``fields``) as value sets."""
    if not scope:
        return {}
    keep = set(fields) if fields is not None else None
    out: dict[str, frozenset] = {}
    for name, value in scope.items():
        if value is None or (keep is not None and name not in keep):
            continue
        values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        values = [v for v in values if v is not None]
        if values:
            out[name] = frozenset(values)
    return out


def leaked_fields(meta: Meta, scope: GoldScope | None, fields: Iterable[str] | None = None) -> list[str]:
    """Fields under which ``meta`` contradicts the gold scope.

    A null metadata value under a set scope field is leaked: it cannot be shown to
    be in scope (README, "Leakage"). List scope values are any-of.
    """
    return [name for name, ok in allowed_values(scope, fields).items() if meta.get(name) not in ok]


def is_leaked(meta: Meta, scope: GoldScope | None, fields: Iterable[str] | None = None) -> bool:
    return bool(leaked_fields(meta, scope, fields))


def in_scope(meta: Meta, scope: GoldScope | None) -> bool:
    """True when ``meta`` matches every non-null field of ``scope`` (incl. question_number)."""
    return not leaked_fields(meta, scope)


def is_relaxed(final_step: str | None) -> bool:
    """The system reports that it widened beyond its W0 scope."""
    return (final_step or "") not in UNRELAXED_STEPS


def leakage_scope(scope: GoldScope | None, relaxed_scope: GoldScope | None, relaxed: bool) -> GoldScope | None:
    """Relaxation cases are measured against ``relaxed_scope`` when the system reports it relaxed
    (README, "Leakage"); every other case against ``scope``."""
    return relaxed_scope if relaxed and relaxed_scope is not None else scope


def leakage_counts(metas: Sequence[Meta], scope: GoldScope | None,
                   fields: Iterable[str] | None = None) -> tuple[int, int]:
    """``(leaked, returned)`` for one query; the pooled rate is sum(leaked) / sum(returned)."""
    fields = tuple(fields) if fields is not None else None
    return sum(1 for m in metas if is_leaked(m, scope, fields)), len(metas)


def leakage_rate(metas: Sequence[Meta], scope: GoldScope | None, fields: Iterable[str] | None = None) -> float:
    """Share of returned chunks that leak; 0.0 for an empty answer (nothing was shown)."""
    leaked, returned = leakage_counts(metas, scope, fields)
    return leaked / returned if returned else 0.0


def pooled_rate(counts: Iterable[tuple[int, int]]) -> float:
    """Micro average of ``(leaked, returned)`` pairs: the share of *all* returned chunks."""
    leaked = returned = 0
    for a, b in counts:
        leaked += a
        returned += b
    return leaked / returned if returned else 0.0


def is_flagged(step: str | None, violations: Sequence[str]) -> bool:
    """A result the system labelled as outside its exact scope (relaxed step or violations)."""
    return is_relaxed(step) or bool(violations)


def contamination(metas: Sequence[Meta], scope: GoldScope | None, fields: Iterable[str] | None = None) -> bool:
    """Contaminated answer: at least one of the top-k chunks leaks.

    Seed 000 (section 3.2) names a "contaminated failure" beside exact hits and
    leakage-flagged recoveries without a formula; we define the contamination rate
    as the share of queries whose top-k holds >= 1 leaked chunk (a per-query view of
    leakage: one wrong-paper item in a student's context is already a failure).
    """
    fields = tuple(fields) if fields is not None else None
    return any(is_leaked(m, scope, fields) for m in metas)


def silent_contamination(results: Sequence[tuple[Meta, str, Sequence[str]]], scope: GoldScope | None) -> bool:
    """At least one leaked chunk that the system did *not* flag (step W0, no violations):
    leakage presented as if it were exact. ``results`` = (metadata, step, violations)."""
    return any(is_leaked(m, scope) and not is_flagged(step, v) for m, step, v in results)


def exact_scope_success(results: Sequence[tuple[str, Meta]], scope: GoldScope | None,
                        relevant: Mapping[str, int] | None = None) -> bool:
    """ESS: >= 1 returned chunk matches every non-null gold field, question_number included.

    README caveat (``mcq_boards.05``: two MCAS items share paper/year/number) generalised:
    when the scope pins a question number and the case has labels, the matching chunk must
    also be labelled, so a different item that happens to share the key does not count.
    ``results`` = (doc_id, metadata) pairs.
    """
    need_label = bool(relevant) and (scope or {}).get("question_number") is not None
    return any(in_scope(m, scope) and (not need_label or doc_id in relevant)  # type: ignore[operator]
               for doc_id, m in results)


def abstention_success(results: Sequence[tuple[str, Sequence[str]]]) -> bool:
    """Abstention cases (the paper asked for does not exist): success when nothing is presented
    as exact -- an empty answer, or only results the system flagged (relaxed step or
    violations). ``results`` = (step, violations) pairs ("nothing at W0")."""
    return all(is_flagged(step, v) for step, v in results)


def relaxation_success(results: Sequence[Meta], relaxed_scope: GoldScope | None, relaxed: bool) -> bool:
    """Relaxation cases: the system reported widening and >= 1 chunk lies in ``relaxed_scope``."""
    return relaxed and relaxed_scope is not None and any(in_scope(m, relaxed_scope) for m in results)


@dataclass(frozen=True)
class FieldCheck:
    """Scope extraction of one field against gold: correct | missed | spurious | wrong."""

    field: str
    outcome: str

    @property
    def correct(self) -> bool:
        return self.outcome == "correct"


def scope_field_checks(extracted: Mapping[str, Any] | None, gold: GoldScope | None,
                       fields: Sequence[str] = GOLD_FIELDS) -> list[FieldCheck]:
    """Compare the system's W0 scope with the gold scope field by field, as value sets.

    correct: same set (both null counts as correct); missed: gold set, nothing extracted;
    spurious: gold null, something extracted; wrong: both set, sets differ.
    """
    got = allowed_values(extracted, fields)
    want = allowed_values(gold, fields)
    checks = []
    for name in fields:
        g, w = got.get(name, frozenset()), want.get(name, frozenset())
        if g == w:
            outcome = "correct"
        elif not g:
            outcome = "missed"
        elif not w:
            outcome = "spurious"
        else:
            outcome = "wrong"
        checks.append(FieldCheck(name, outcome))
    return checks


def case_outcome(n_results: int, ess: bool | None, relaxed: bool, silent: bool) -> str:
    """Seed 000's per-case reading (section 3.2): exact hit, leakage-flagged recovery,
    contaminated or empty failure; ``miss`` = none of those (in scope, no exact match).
    Unflagged leakage outranks an exact hit: the student still sees a wrong-scope item as exact."""
    if n_results == 0:
        return "empty"
    if silent:
        return "contaminated"
    if ess:
        return "exact_hit"
    if relaxed:
        return "flagged_recovery"
    return "miss"
