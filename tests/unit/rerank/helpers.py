"""Builders shared by the rerank tests."""

from chsr.documents import Doc
from services.rerank.items import RerankItem


def item(doc_id: str, score: float, text: str, **metadata: object) -> RerankItem:
    return RerankItem(doc_id, score, Doc(id=doc_id, text=text, metadata=dict(metadata)))


class FakeScorer:
    """Stands in for CrossEncoderScorer: scores from a table keyed by text."""

    def __init__(self, table: dict[str, float]) -> None:
        self.table = table
        self.calls: list[list[str]] = []

    def score(self, query: str, texts):  # type: ignore[no-untyped-def]
        import numpy as np

        self.calls.append(list(texts))
        return np.array([self.table.get(t, 0.0) for t in texts])
