"""Scope-extraction accuracy per field against CERB-style gold scopes (benchmark).

For each case and field, the gold value (``null``, a scalar or a list = any of)
is compared as a set with the gate's W0 scope for the query text alone:

* ``exact`` — the sets are equal (both empty counts);
* ``over`` — the gate constrained a field the gold leaves open, or used a value
  outside the gold set: a constraint that can exclude admissible evidence;
* ``missed`` — the gold constrains the field and the gate left it open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from services.gate.extract import extract_scope
from services.gate.vocabulary import Vocabulary

GOLD_FIELDS: tuple[str, ...] = ("subject", "level", "year", "session", "paper", "content_type", "question_number")


@dataclass
class FieldScore:
    n: int = 0
    exact: int = 0
    over: int = 0
    missed: int = 0

    def rate(self, what: str) -> float:
        return getattr(self, what) / self.n if self.n else 0.0


def gold_set(value: Any) -> set:
    if value is None:
        return set()
    return set(value) if isinstance(value, list) else {value}


def score_extraction(cases: Iterable[Mapping[str, Any]], vocab: Vocabulary) -> tuple[dict[str, FieldScore], list[dict]]:
    """Per-field scores and the per-case differences (for a report)."""
    scores = {name: FieldScore() for name in GOLD_FIELDS}
    diffs: list[dict] = []
    for case in cases:
        scope = extract_scope(case["query"], vocab).scope
        gold = case.get("scope") or {}
        for name in GOLD_FIELDS:
            want, got = gold_set(gold.get(name)), set(getattr(scope, name))
            score = scores[name]
            score.n += 1
            if want == got:
                score.exact += 1
                continue
            if got and (not want or not got <= want):
                score.over += 1
            elif want and not got:
                score.missed += 1
            diffs.append({"case_id": case.get("case_id"), "field": name, "gold": sorted(want, key=str), "got": sorted(got, key=str)})
    return scores, diffs


def format_scores(scores: Mapping[str, FieldScore]) -> str:
    rows = [f"{'field':16} {'exact':>6} {'over':>6} {'missed':>6}   n"]
    for name, s in scores.items():
        rows.append(f"{name:16} {s.rate('exact'):6.3f} {s.rate('over'):6.3f} {s.rate('missed'):6.3f}   {s.n}")
    return "\n".join(rows)
