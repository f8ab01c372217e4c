"""The unit every rerank stage consumes and returns."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from chsr.documents import Doc


@dataclass(frozen=True)
class RerankItem:
    """A candidate in rank order: fused ``score``, its document (may be None) and features."""

    doc_id: str
    score: float
    doc: Doc | None = None
    features: dict[str, float] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.doc.full_text if self.doc is not None else ""

    def rescored(self, score: float, **features: float) -> "RerankItem":
        return replace(self, score=float(score), features={**self.features, **features})
