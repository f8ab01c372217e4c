"""The gate's one entry point: query (+ client hints) -> scope, confidence, ladder.

Called by ``GateServicer`` and directly by tests and the in-process benchmark.
Hints win field by field over extraction (``Scope.merged_with``; issue 5: "an
explicit hint wins"); a hinted field has confidence 1.0 and is never soft. A
hinted paper or question number is a strict key, like an explicit one in the text.

With a corpus-derived vocabulary the gate also checks the merged scope against
the corpus index: a constraint that cannot match (a paper the corpus lacks, a
year a paper was not sat) makes W0 empty by design — the honest answer for an
abstention case — is named in the W0 description and is dropped at W1 (unless it
is a strict key), so a relaxed answer says what it relaxed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chsr.scope import EMPTY_SCOPE, Scope
from services.gate.expansion import expand_query as _expand
from services.gate.expansion import topic_terms as _topic_terms
from services.gate.extract import Extraction, extract_scope
from services.gate.ladder import LadderRung, build_ladder
from services.gate.vocabulary import Vocabulary

HINT_CONFIDENCE = 1.0
#: Plausible bounds for hinted years and question numbers (validation only).
YEAR_BOUNDS = (1900, 2100)
MAX_QUESTION_NUMBER = 10_000


class GateInputError(ValueError):
    """Invalid gate input; ``field`` names the offending field (mapped to INVALID_ARGUMENT)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class GateResult:
    scope: Scope
    confidence: dict[str, tuple[float, str]]
    ladder: list[LadderRung]
    strict_keys: list[str]
    expanded_query: str
    topic_terms: list[str]
    notes: list[str] = field(default_factory=list)


def validate_hints(hints: Scope, vocab: Vocabulary) -> None:
    """Closed vocabularies (subject, level, content type, session) must use canonical values."""
    for name in ("subject", "level", "content_type", "session"):
        values = getattr(hints, name)
        if not values:
            continue
        known = vocab.known_values(name)
        unknown = [v for v in values if v not in known]
        if unknown and known:
            raise GateInputError(f"hints.{name}", f"unknown value(s) {unknown}; valid: {sorted(known)}")
    for name in ("paper", "exam_board", "language"):
        if any(not v.strip() for v in getattr(hints, name)):
            raise GateInputError(f"hints.{name}", "empty value")
    if any(not YEAR_BOUNDS[0] <= y <= YEAR_BOUNDS[1] for y in hints.year):
        raise GateInputError("hints.year", f"expected a year in {YEAR_BOUNDS[0]}..{YEAR_BOUNDS[1]}, got {list(hints.year)}")
    if any(not 0 < n <= MAX_QUESTION_NUMBER for n in hints.question_number):
        raise GateInputError("hints.question_number", f"expected 1..{MAX_QUESTION_NUMBER}, got {list(hints.question_number)}")


def run_gate(
    query: str, hints: Scope = EMPTY_SCOPE, *, extract: bool = True, strict_scope: bool = False,
    expand_query: bool = False, vocab: Vocabulary,
) -> GateResult:
    if not query or not query.strip():
        raise GateInputError("query", "must not be empty")
    validate_hints(hints, vocab)
    extraction = extract_scope(query, vocab) if extract else _no_extraction(query)
    scope = extraction.scope.merged_with(hints)
    hinted = set(hints.constrained_fields())
    confidence = {k: v for k, v in extraction.confidence.items() if k not in hinted}
    confidence.update({name: (HINT_CONFIDENCE, "client hint") for name in hinted})
    strict = [k for k in extraction.strict_keys if k not in hinted]
    strict += [k for k in ("paper", "question_number") if k in hinted]
    strict = [k for k in ("paper", "question_number") if k in strict]
    soft = {k: v for k, v in extraction.soft_fields.items() if k not in hinted}
    unsatisfiable = vocab.unsatisfiable(scope)
    for name, reason in unsatisfiable.items():
        soft.setdefault(name, reason)
    notes = [unsatisfiable[k] for k in sorted(unsatisfiable)]
    ladder = build_ladder(scope, strict, strict_scope, soft_fields=soft, subject_parents=vocab.subject_parents, notes=notes)
    return GateResult(
        scope=scope, confidence=confidence, ladder=ladder, strict_keys=strict,
        expanded_query=_expand(query, extraction, vocab) if expand_query and extract else query,
        topic_terms=_topic_terms(extraction, vocab) if extract else _topic_terms(_no_extraction(query), vocab),
        notes=notes,
    )


def _no_extraction(query: str) -> Extraction:
    return Extraction(scope=EMPTY_SCOPE, confidence={}, strict_keys=[], text=query, remaining=query)
