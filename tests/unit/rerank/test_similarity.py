"""Token-set Jaccard used by dedup, MMR and the curriculum redundancy penalty."""

import numpy as np
import pytest

from services.rerank.similarity import jaccard, pairwise_jaccard, shingles, tokens

pytestmark = pytest.mark.unit


def test_tokens_lowercase_words_and_cjk_bigrams():
    assert tokens("Hello, World! hello_there 42") == ["hello", "world", "hello", "there", "42"]
    assert tokens("光合作用 is photosynthesis") == ["光合", "合作", "作用", "is", "photosynthesis"]


def test_shingles():
    assert shingles("a b a c") == frozenset({"a", "b", "c"})
    assert shingles("a b c", n=2) == frozenset({"a b", "b c"})


def test_jaccard_by_hand():
    assert jaccard(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard(frozenset("a"), frozenset()) == 0.0


def test_pairwise_matches_the_set_version():
    texts = ["the cat sat on the mat", "the cat sat on a mat", "dogs bark", ""]
    sim = pairwise_jaccard(texts)
    for i, a in enumerate(texts):
        for j, b in enumerate(texts):
            expected = 1.0 if i == j else jaccard(shingles(a), shingles(b))
            assert sim[i, j] == pytest.approx(expected)
    assert sim[0, 1] == pytest.approx(5 / 6)   # {the,cat,sat,on,mat} vs the same + {a}
    assert pairwise_jaccard([]).shape == (0, 0)
    assert np.allclose(sim, sim.T)
