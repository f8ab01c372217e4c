"""TF-IDF weights by hand (seed 003 #2: scikit-learn's TfidfVectorizer with sublinear_tf=True)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from services.sparse.tfidf import TfidfIndex, smooth_idf, sublinear_tf

pytestmark = pytest.mark.unit


def test_weights_and_cosine_by_hand():
    # d0 = a a b, d1 = b c. idf(a) = idf(c) = ln(3/2) + 1, idf(b) = ln(3/3) + 1 = 1; tf'(a in d0) = 1 + ln 2.
    idx = TfidfIndex.build([["a", "a", "b"], ["b", "c"]])
    ia = math.log(1.5) + 1
    a0, b0 = (1 + math.log(2)) * ia, 1.0
    n0 = math.hypot(a0, b0)
    b1, c1 = 1.0, ia
    n1 = math.hypot(b1, c1)
    assert idx.idf[idx.vocabulary["a"]] == pytest.approx(1.405465, abs=1e-6)
    row0 = idx.matrix.toarray()[0]
    assert row0[idx.vocabulary["a"]] == pytest.approx(a0 / n0, abs=1e-6) == pytest.approx(0.921906, abs=1e-6)
    # query "b": unit vector on b -> cosine = each document's normalised b weight
    assert idx.scores(["b"]).tolist() == pytest.approx([b0 / n0, b1 / n1], abs=1e-6)
    # query "a c zz": zz unknown and dropped; both terms have idf ia and tf 1, so q = (1, 1) / sqrt 2
    assert idx.scores(["a", "c", "zz"]).tolist() == pytest.approx([a0 / n0 / math.sqrt(2), c1 / n1 / math.sqrt(2)],
                                                                  abs=1e-6)


def test_matches_scikit_learn():
    sklearn = pytest.importorskip("sklearn.feature_extraction.text")
    docs = [["x", "y", "y", "z"], ["y", "z", "w"], ["q"], ["x", "x", "x"]]
    vec = sklearn.TfidfVectorizer(analyzer=lambda d: d, sublinear_tf=True)
    ref = (vec.fit_transform(docs) @ vec.transform([["y", "x", "nope"]]).T).toarray().ravel()
    assert TfidfIndex.build(docs).scores(["y", "x", "nope"]).tolist() == pytest.approx(ref.tolist(), abs=1e-6)


def test_one_document_index_scores_it_and_unknown_queries_score_nothing():
    idx = TfidfIndex.build([["only", "doc"]])
    assert idx.idf.tolist() == [1.0, 1.0]                        # ln(2/2) + 1
    assert idx.scores(["doc"]).tolist() == pytest.approx([1 / math.sqrt(2)])
    assert idx.scores(["absent"]).tolist() == [0.0]


def test_helpers():
    assert sublinear_tf(np.array([0.0, 1.0, math.e])).tolist() == pytest.approx([0.0, 1.0, 2.0])
    assert smooth_idf(np.array([1.0, 3.0]), 3).tolist() == pytest.approx([math.log(2) + 1, 1.0])
