"""TF-IDF vector-space retrieval (seed 003, strategy #2: ``TfidfVectorizer``, cosine, ``sublinear_tf=True``).

Salton & Buckley (1988) weighting with scikit-learn's ``TfidfVectorizer`` defaults, which the
seed used: ``tf' = 1 + ln(tf)`` (sublinear), ``idf = ln((1 + n) / (1 + df)) + 1`` (smoothed, so a
term in every document still weighs 1 and a one-document index works), rows L2-normalised; the
score is the cosine of the query's vector (same weighting, unknown terms dropped) with each
document's. Tokens come from :func:`chsr.text.tokenize` (the BM25 leg's), so the two lexical legs
see the same terms. Filters are a row mask applied to the full score vector before top-k.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import sparse


def sublinear_tf(counts: np.ndarray) -> np.ndarray:
    """``1 + ln(tf)`` for tf > 0 (zeros stay zero)."""
    out = np.zeros_like(counts, dtype=np.float64)
    pos = counts > 0
    out[pos] = 1.0 + np.log(counts[pos])
    return out


def smooth_idf(df: np.ndarray, n_docs: int) -> np.ndarray:
    """``ln((1 + n) / (1 + df)) + 1`` (scikit-learn's ``smooth_idf=True``)."""
    return np.log((1.0 + n_docs) / (1.0 + df)) + 1.0


@dataclass
class TfidfIndex:
    vocabulary: dict[str, int]
    idf: np.ndarray                 # (terms,)
    matrix: sparse.csc_matrix       # (docs, terms), rows L2-normalised; CSC: a query reads its columns

    @classmethod
    def build(cls, docs_tokens: Sequence[Sequence[str]]) -> "TfidfIndex":
        vocabulary: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for i, tokens in enumerate(docs_tokens):
            for term, tf in Counter(tokens).items():
                rows.append(i)
                cols.append(vocabulary.setdefault(term, len(vocabulary)))
                vals.append(tf)
        n = len(docs_tokens)
        counts = sparse.csr_matrix((np.asarray(vals, np.float64), (rows, cols)), shape=(n, len(vocabulary)))
        df = np.bincount(counts.indices, minlength=len(vocabulary)).astype(np.float64)
        idf = smooth_idf(df, n)
        weighted = counts.copy()
        weighted.data = sublinear_tf(weighted.data) * idf[weighted.indices]
        norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        weighted = sparse.diags(1.0 / norms) @ weighted
        return cls(vocabulary, idf, sparse.csc_matrix(weighted, dtype=np.float32))

    @property
    def n_docs(self) -> int:
        return int(self.matrix.shape[0])

    def query_vector(self, tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(term columns, L2-normalised weights) of a query; empty when no term is known."""
        counts = Counter(t for t in tokens if t in self.vocabulary)
        if not counts:
            return np.zeros(0, np.int64), np.zeros(0)
        cols = np.fromiter((self.vocabulary[t] for t in counts), np.int64, len(counts))
        w = sublinear_tf(np.fromiter(counts.values(), np.float64, len(counts))) * self.idf[cols]
        return cols, w / np.linalg.norm(w)

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """Cosine similarity of the query with every document (zeros when no term is known)."""
        cols, w = self.query_vector(tokens)
        if cols.size == 0:
            return np.zeros(self.n_docs, np.float32)
        return np.asarray(self.matrix[:, cols] @ w.astype(np.float32)).ravel()
