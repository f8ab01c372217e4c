"""PPMI distributional retrieval (seed 003, strategy #9: window 5, vocabulary 1,500, max context 50).

Church & Hanks (1990) association, positive part (Levy & Goldberg 2014):
``PPMI(w, c) = max(0, ln(C(w, c) * T / (C(w) * C(c))))`` over co-occurrence counts ``C(w, c)``
of vocabulary terms within ``WINDOW`` tokens of each other (on either side, as word2vec's and
Levy & Goldberg's ``win = 5``), ``C(w)`` the row sums and ``T`` the total. Parameters from the seed:

* vocabulary: the ``VOCABULARY`` (1,500) most frequent corpus terms (ties by term), after
  :func:`chsr.text.tokenize` (stop words removed, stemmed);
* max context: each term keeps only its ``MAX_CONTEXT`` (50) strongest PPMI contexts, so a
  term vector is short and frequent co-occurrences do not wash out the specific ones.

A document's vector is the term-frequency weighted sum of its vocabulary terms' PPMI vectors,
L2-normalised; a query's likewise; the score is their cosine. Terms outside the vocabulary carry
no signal (the seed's finding that PPMI misses coined terms follows from this), so a query made
only of such terms has no PPMI vector and the leg returns nothing for it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import sparse

from chsr.errors import FailedPrecondition

WINDOW = 5          # seed 003: window_size = 5
VOCABULARY = 1500   # seed 003: vocab_size = 1500
MAX_CONTEXT = 50    # seed 003: max_context = 50


def top_terms(docs_tokens: Sequence[Sequence[str]], size: int) -> dict[str, int]:
    """The ``size`` most frequent terms (count desc, then term) -> column index."""
    counts = Counter(t for tokens in docs_tokens for t in tokens)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]
    return {term: i for i, (term, _) in enumerate(ranked)}


def cooccurrence(docs_tokens: Sequence[Sequence[str]], vocabulary: dict[str, int], window: int) -> sparse.csr_matrix:
    """Symmetric counts of vocabulary pairs at distance 1..``window`` inside each document (OOV
    tokens keep their positions, so distance is measured in the original text)."""
    v = len(vocabulary)
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    for tokens in docs_tokens:
        ids = np.fromiter((vocabulary.get(t, -1) for t in tokens), np.int64, len(tokens))
        for d in range(1, window + 1):
            a, b = ids[:-d], ids[d:]
            keep = (a >= 0) & (b >= 0)
            rows.extend((a[keep], b[keep]))
            cols.extend((b[keep], a[keep]))
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    return sparse.csr_matrix((np.ones(r.size, np.float64), (r, c)), shape=(v, v))


def ppmi_matrix(counts: sparse.csr_matrix, max_context: int) -> sparse.csr_matrix:
    """PPMI of a co-occurrence matrix, each row cut to its ``max_context`` largest values."""
    coo = counts.tocoo()
    total = counts.sum()
    if total <= 0:
        return sparse.csr_matrix(counts.shape)
    row_sum = np.asarray(counts.sum(axis=1)).ravel()
    col_sum = np.asarray(counts.sum(axis=0)).ravel()
    pmi = np.log(coo.data * total / (row_sum[coo.row] * col_sum[coo.col]))
    keep = pmi > 0
    out = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=counts.shape)
    return _top_per_row(out, max_context)


def _top_per_row(m: sparse.csr_matrix, n: int) -> sparse.csr_matrix:
    rows, cols, vals = [], [], []
    for i in range(m.shape[0]):
        start, end = m.indptr[i], m.indptr[i + 1]
        if end == start:
            continue
        data, idx = m.data[start:end], m.indices[start:end]
        top = np.argsort(-data, kind="stable")[:n]
        rows.append(np.full(top.size, i))
        cols.append(idx[top])
        vals.append(data[top])
    if not rows:
        return sparse.csr_matrix(m.shape)
    return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=m.shape)


def _normalise_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


@dataclass
class PpmiIndex:
    vocabulary: dict[str, int]
    term_vectors: sparse.csr_matrix   # (vocabulary, vocabulary) PPMI, <= MAX_CONTEXT per row
    doc_vectors: np.ndarray           # (docs, vocabulary) float32, rows L2-normalised

    @classmethod
    def build(cls, docs_tokens: Sequence[Sequence[str]], *, window: int = WINDOW, vocabulary_size: int = VOCABULARY,
              max_context: int = MAX_CONTEXT) -> "PpmiIndex":
        vocabulary = top_terms(docs_tokens, vocabulary_size)
        term_vectors = ppmi_matrix(cooccurrence(docs_tokens, vocabulary, window), max_context)
        if term_vectors.nnz == 0:
            raise FailedPrecondition(
                f"model 'ppmi': the {len(docs_tokens)}-document index has no co-occurring vocabulary terms "
                f"(window {window}); a distributional model needs a larger corpus")
        tf = _tf_matrix(docs_tokens, vocabulary)
        docs = np.asarray((tf @ term_vectors).todense(), dtype=np.float32)
        return cls(vocabulary, term_vectors, _normalise_rows(docs))

    def query_vector(self, tokens: Sequence[str]) -> np.ndarray | None:
        tf = _tf_matrix([tokens], self.vocabulary)
        if tf.nnz == 0:
            return None
        q = np.asarray((tf @ self.term_vectors).todense(), dtype=np.float32).ravel()
        norm = np.linalg.norm(q)
        return q / norm if norm > 0 else None

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """Cosine of the query's PPMI vector with every document's (zeros when it has none)."""
        q = self.query_vector(tokens)
        if q is None:
            return np.zeros(self.doc_vectors.shape[0], np.float32)
        return self.doc_vectors @ q


def _tf_matrix(docs_tokens: Sequence[Sequence[str]], vocabulary: dict[str, int]) -> sparse.csr_matrix:
    rows, cols, vals = [], [], []
    for i, tokens in enumerate(docs_tokens):
        for term, tf in Counter(t for t in tokens if t in vocabulary).items():
            rows.append(i)
            cols.append(vocabulary[term])
            vals.append(float(tf))
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(docs_tokens), len(vocabulary)))
