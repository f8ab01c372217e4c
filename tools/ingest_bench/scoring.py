"""Scoring one ingested file against the generator's ground truth.

Question boundaries: a predicted question start (the first chunk of each question number)
is correct when the ground truth has a question with that number and the chunk's text,
after its marker, begins with that question's text (the first 30 letters and digits,
NFKC-folded, matched exactly or with difflib ratio >= 0.8 to absorb extraction noise such
as a superscript read as a separate digit). Precision = correct / predicted, recall =
correct / ground-truth questions. Metadata: per field, the document-level value against
the value the cover states (``cover_fields``).
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from services.ingest.pipeline import FileResult
from services.ingest.questions import find_marker

SNIPPET = 30
FUZZY = 0.8


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(ch for ch in text if ch.isalnum())


@dataclass
class BoundaryCounts:
    predicted: int = 0
    correct: int = 0
    expected: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: "BoundaryCounts") -> None:
        self.predicted += other.predicted
        self.correct += other.correct
        self.expected += other.expected
        self.misses += other.misses

    def prf(self) -> tuple[float, float, float]:
        p = self.correct / self.predicted if self.predicted else 0.0
        r = self.correct / self.expected if self.expected else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _body(text: str) -> str:
    marker = find_marker(text)
    return text.lstrip()[len(marker.text):] if marker else text


def score_boundaries(result: FileResult, truth: dict[str, Any]) -> BoundaryCounts:
    counts = BoundaryCounts(expected=len(truth["questions"]))
    expected = {q["number"]: fold(q["stem"])[:SNIPPET] for q in truth["questions"]}
    seen: set[int] = set()
    for chunk in result.chunks:
        if chunk.role not in ("question", "answer") or chunk.question_number in seen:
            continue
        seen.add(chunk.question_number)
        counts.predicted += 1
        want = expected.get(chunk.question_number)
        got = fold(_body(chunk.text))
        head = want[:max(len(got), 8)] if want is not None else None  # a split question's first window may be short
        if head is not None and got and (head in got[:SNIPPET * 2] or
                                         difflib.SequenceMatcher(None, head, got[:len(head)]).ratio() >= FUZZY):
            counts.correct += 1
        else:
            counts.misses.append(f"{truth['file']}: predicted q{chunk.question_number} {got[:40]!r} vs {want!r}")
    missed = set(expected) - seen
    counts.misses += [f"{truth['file']}: missed q{n}" for n in sorted(missed)]
    return counts


def score_metadata(result: FileResult, truth: dict[str, Any]) -> dict[str, tuple[bool, Any, Any]]:
    """field -> (correct, predicted, expected) for every field the cover states (and the language)."""
    values = result.metadata.values() if result.metadata else {}
    out = {}
    stated = dict(truth["cover_fields"])
    stated["language"] = truth["language"]
    for name, want in stated.items():
        got = values.get(name)
        out[name] = (got == want, got, want)
    return out
