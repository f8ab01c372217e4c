"""Uncertain scope fields rank, they do not filter.

The gate returns the fields it infers but is not confident enough to filter by, each with
its preferred values and a calibrated probability ``p``. A candidate whose metadata
violates such a field has its fused score multiplied by ``1 - strength * p`` (a null value
violates: it cannot be shown to be in scope); nothing is excluded. Applied after fusion,
over the whole fused list, before it is cut to what the next stage sees.
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
