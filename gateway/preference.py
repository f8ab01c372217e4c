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

from dataclasses import dataclass

from chsr.v1 import common_pb2, gate_pb2


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


def settle_by_top(candidates: list[common_pb2.Candidate], preference: Preference) -> tuple[list[common_pb2.Candidate], list[str]]:
    """Keep the candidates that agree with the first one on every ranked curriculum field (a missing value
    agrees only with a missing one); a note per field that left any out, naming the value it settled on."""
    if not preference or not candidates:
        return candidates, []
    top = candidates[0].document.metadata
    kept, notes = list(candidates), []
    for name, _, _ in preference.fields:
        if name not in SETTLED_FIELDS:
            continue
        value = _value(top, name)
        agree = [c for c in kept if _value(c.document.metadata, name) == value]
        if len(agree) < len(kept):
            notes.append(f"{name} settled by the best match: {value if value is not None else 'unset'} "
                         f"({len(kept) - len(agree)} result(s) elsewhere left out)")
            kept = agree
    return kept, notes


def _value(metadata: common_pb2.Metadata, name: str) -> str | None:
    return str(getattr(metadata, name)) if metadata.HasField(name) else None
