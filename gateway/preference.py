"""Uncertain scope fields rank, they do not filter.

The gate returns the fields it infers but is not confident enough to filter by, each with
its preferred values and a calibrated probability ``p``. A candidate whose metadata
violates such a field has its fused score multiplied by ``1 - strength * p`` (a null value
violates: it cannot be shown to be in scope); nothing is excluded. Applied after fusion,
over the whole fused list, before it is cut to what the next stage sees.

Once the answer is ranked, the best match settles those fields (``docs/decisions.md`` 25): an
answer is in one scope, so results that differ from the top result on a field the gate could
only rank are left out, and the response says which field was settled and to what.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from chsr.v1 import common_pb2, gate_pb2

T = TypeVar("T")


@dataclass(frozen=True)
class Preference:
    fields: tuple[tuple[str, frozenset[str], float], ...] = ()
    strength: float = 0.0

    @classmethod
    def from_gate(cls, response: gate_pb2.GateResponse) -> "Preference":
        fields = tuple((p.field, frozenset(p.values), float(p.probability)) for p in response.penalties)
        return cls(fields, float(response.penalty_strength))

    def __bool__(self) -> bool:
        return bool(self.fields) and self.strength > 0

    def values_of(self, name: str) -> frozenset[str]:
        """The values the gate prefers for ``name`` (empty when it ranks nothing by that field)."""
        return next((values for field, values, _ in self.fields if field == name), frozenset())

    def factor(self, metadata: common_pb2.Metadata) -> float:
        out = 1.0
        for name, values, p in self.fields:
            value = str(getattr(metadata, name)) if metadata.HasField(name) else None
            if value not in values:
                out *= 1.0 - self.strength * p
        return out


def rank_by_preference(candidates: list[common_pb2.Candidate], preference: Preference) -> list[common_pb2.Candidate]:
    """Re-score by the preference (candidates carry their metadata) and re-sort, stable on ties."""
    scored = [(c.score * preference.factor(c.document.metadata), i, c) for i, c in enumerate(candidates)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    out = []
    for rank, (score, _, cand) in enumerate(scored, start=1):
        cand.score, cand.rank = score, rank
        out.append(cand)
    return out


#: The curriculum fields the best match settles (a language or content-type preference only ranks: the same
#: item in another language, or its solution, is still an answer).
SETTLED_FIELDS: tuple[str, ...] = ("subject", "level", "year", "session", "paper")


def settle_by_top(items: list[T], preference: Preference,
                  candidate_of: Callable[[T], common_pb2.Candidate] = lambda item: item) -> tuple[list[T], list[str]]:
    """Keep the candidates that agree with the first one on every ranked curriculum field (a missing value
    agrees only with a missing one); a note per field that left any out, naming the value it settled on.
    ``items`` are candidates, or anything ``candidate_of`` maps to one (so what travels with a candidate
    stays with it)."""
    if not preference:
        return items, []
    return settle([name for name, _, _ in preference.fields], items,
                  lambda item, name: _value(candidate_of(item).document.metadata, name))


def settle(fields: Iterable[str], items: list[T], value_of: Callable[[T, str], object]) -> tuple[list[T], list[str]]:
    """The settling rule on any item type (the gateway's candidates, the offline simulator's ids): for each
    field in ``SETTLED_FIELDS``, keep the items whose ``value_of`` equals the first item's."""
    if not items:
        return items, []
    kept, notes = list(items), []
    for name in fields:
        if name not in SETTLED_FIELDS:
            continue
        value = value_of(items[0], name)
        agree = [item for item in kept if value_of(item, name) == value]
        if len(agree) < len(kept):
            notes.append(f"{name} settled by the best match: {value if value is not None else 'unset'} "
                         f"({len(kept) - len(agree)} result(s) elsewhere left out)")
            kept = agree
    return kept, notes


def _value(metadata: common_pb2.Metadata, name: str) -> str | None:
    return str(getattr(metadata, name)) if metadata.HasField(name) else None
