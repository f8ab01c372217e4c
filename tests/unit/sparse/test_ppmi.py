"""PPMI by hand on a toy corpus (seed 003 #9: window 5, vocabulary 1,500, max context 50)."""

from __future__ import annotations

import math

import pytest

from chsr.errors import FailedPrecondition
from services.sparse.ppmi import MAX_CONTEXT, VOCABULARY, WINDOW, PpmiIndex, cooccurrence, ppmi_matrix, top_terms

pytestmark = pytest.mark.unit

# Window 1: adjacent pairs only. C(a,b) = 2, C(b,c) = 1, C(b,d) = 1, C(a,c) = 1 (each counted both ways);
# row sums a = 3, b = 4, c = 2, d = 1; total T = 10.
TOY = [["a", "b", "c"], ["a", "b"], ["b", "d"], ["a", "c"]]


def test_seed_parameters():
    assert (WINDOW, VOCABULARY, MAX_CONTEXT) == (5, 1500, 50)


def test_vocabulary_is_the_most_frequent_terms():
    assert top_terms(TOY, 3) == {"a": 0, "b": 1, "c": 2}   # a 3, b 3 (tie: by term), c 2; d (1) is cut


def test_ppmi_values_by_hand():
    vocab = top_terms(TOY, 4)
    counts = cooccurrence(TOY, vocab, window=1).toarray()
    b, a, c, d = (vocab[t] for t in "bacd")
    assert counts[a, b] == counts[b, a] == 2 and counts[b, c] == 1 and counts[a, c] == 1 and counts[c, d] == 0
    p = ppmi_matrix(cooccurrence(TOY, vocab, window=1), max_context=50).toarray()
    assert p[a, b] == pytest.approx(math.log(2 * 10 / (3 * 4)))    # 0.510826
    assert p[b, c] == pytest.approx(math.log(1 * 10 / (4 * 2)))    # 0.223144
    assert p[b, d] == pytest.approx(math.log(1 * 10 / (4 * 1)))    # 0.916291
    assert p[a, c] == pytest.approx(math.log(10 / (3 * 2)))
    assert p[c, d] == 0.0


def test_max_context_keeps_the_strongest_contexts():
    vocab = top_terms(TOY, 4)
    p = ppmi_matrix(cooccurrence(TOY, vocab, window=1), max_context=1).toarray()
    row_b = p[vocab["b"]]
    assert (row_b > 0).sum() == 1 and row_b[vocab["d"]] == pytest.approx(math.log(2.5))


def test_window_counts_distance_in_the_original_text():
    vocab = {"a": 0, "b": 1}
    assert cooccurrence([["a", "x", "b"]], vocab, window=1).nnz == 0      # x (not in vocabulary) keeps its slot
    assert cooccurrence([["a", "x", "b"]], vocab, window=2).toarray()[0, 1] == 1


def test_documents_and_queries_are_cosines_of_summed_term_vectors():
    idx = PpmiIndex.build(TOY, window=1, vocabulary_size=4)
    scores = idx.scores(["d"])           # d's only context is b: documents near b's contexts score
    assert scores.shape == (4,) and scores.max() > 0
    assert idx.scores(["unknown"]).tolist() == [0.0, 0.0, 0.0, 0.0]


def test_a_corpus_without_cooccurrence_is_a_failed_precondition():
    with pytest.raises(FailedPrecondition, match="no co-occurring vocabulary terms"):
        PpmiIndex.build([["lonely"]])
