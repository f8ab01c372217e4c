"""Uniform handles over the four retrieval backends for the contract suite.

A :class:`Handle` hides the one difference between sparse and dense backends (dense ones need
vectors, computed once per session with the MiniLM encoder) so one test body covers all four.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from chsr.documents import Doc
from services.retrieval.backend import Hit, UpsertResult
from chsr.scope import SCOPE_FIELDS, Scope


@dataclass
class Handle:
    name: str
    kind: str                    # "sparse" | "dense"
    backend: Any
    encoder: Any = None
    first_ingest: UpsertResult | None = None
    ingest_s: float = 0.0
    query_vectors: dict[str, np.ndarray] = field(default_factory=dict)

    def vectors(self, docs: Sequence[Doc]) -> np.ndarray:
        return self.encoder.encode_documents([d.full_text for d in docs])[0]

    def upsert(self, docs: Sequence[Doc], vectors: np.ndarray | None = None) -> UpsertResult:
        if self.kind == "sparse":
            return self.backend.upsert(list(docs))
        return self.backend.upsert(list(docs), self.vectors(docs) if vectors is None else vectors)

    def ingest(self, docs: Sequence[Doc], vectors: np.ndarray | None) -> None:
        """First ingest of the corpus, timed without the encoder (vectors are precomputed)."""
        if self.kind == "dense" and vectors is None:
            vectors = self.vectors(docs)
        start = time.perf_counter()
        self.first_ingest = self.upsert(docs, vectors)
        self.ingest_s = time.perf_counter() - start

    def query_vector(self, query: str) -> np.ndarray:
        if query not in self.query_vectors:
            self.query_vectors[query] = self.encoder.encode_queries([query])[0]
        return self.query_vectors[query]

    def search(self, query: str, flt: Scope, k: int, metadata_only: bool = False) -> list[Hit]:
        if self.kind == "sparse":
            return self.backend.search(query, flt, k, metadata_only=metadata_only)
        return self.backend.search(self.query_vector(query), flt, k, metadata_only=metadata_only)


def corpus_filters(docs: Sequence[Doc], seed: int = 7) -> list[Scope]:
    """Filters built from the corpus metadata: every field's most common and rarest value,
    multi-valued ("IN") lists, int fields, 2-4 ANDed fields copied from real documents, and
    scopes that admit nothing (unknown value, contradicting fields)."""
    scopes: list[Scope] = []
    for name in SCOPE_FIELDS:
        ranked = [v for v, _ in Counter(d.metadata.get(name) for d in docs
                                        if d.metadata.get(name) is not None).most_common()]
        if not ranked:
            continue
        scopes.append(Scope.from_dict({name: ranked[0]}))
        scopes.append(Scope.from_dict({name: ranked[-1]}))
        if len(ranked) > 2:
            scopes.append(Scope.from_dict({name: ranked[1:4]}))
    rng = random.Random(seed)
    for i, doc in enumerate(rng.sample(list(docs), 20)):
        present = [f for f in SCOPE_FIELDS if doc.metadata.get(f) is not None]
        chosen = rng.sample(present, min(len(present), 2 + i % 3))
        scopes.append(Scope.from_dict({f: doc.metadata[f] for f in chosen}))
    scopes += [Scope.from_dict({"year": [2017, 2019, 2021], "language": ["en", "zh"]}),
               Scope.from_dict({"session": ["A", "B"], "subject": ["physics", "chemistry", "mathematics"]}),
               Scope.from_dict({"question_number": [1, 2], "content_type": "mark_scheme"}),
               Scope.from_dict({"subject": "no-such-subject"}),
               Scope.from_dict({"year": 1900}),
               Scope.from_dict({"subject": "physics", "exam_board": "Harbourview Open Texts", "year": 2019})]
    return list(dict.fromkeys(scopes))


def overlap_at(engine: Sequence[Hit], reference: Sequence[Hit], k: int = 10) -> float | None:
    """|top-k(engine) ∩ top-k(reference)| / |top-k(reference)|; None when the reference is empty."""
    ref = {h.doc_id for h in reference[:k]}
    if not ref:
        return None
    return len(ref & {h.doc_id for h in engine[:k]}) / len(ref)
