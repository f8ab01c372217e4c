"""Shannon entropy of a score list and the entropy-weighted alpha (seed 002).

``H = -sum p_i log2 p_i`` in bits, where the list's scores are turned into a
distribution *without* subtracting the minimum first: seed 002's "entropy
invariance bug" was that min-subtraction made raw, min-max and z-score entropy
identical under affine maps. Non-negative scores (raw BM25, min-max, CDF) are
used as probability mass directly (p = s / sum s); a list with any negative value
(z-scores, some cosines) goes through a softmax.

``alpha = H_dense / (H_dense + H_sparse + eps)`` weights the sparse list: a flat
(high-entropy, unconfident) dense list shifts trust to BM25 and vice versa.
"""

from __future__ import annotations

import math

import numpy as np


def softmax(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum()


def score_distribution(scores: np.ndarray | list[float]) -> np.ndarray:
    """Probability vector of a list's finite scores (seed 002's fixed rule)."""
    x = np.asarray(scores, dtype=np.float64).reshape(-1)
    x = x[np.isfinite(x)]
    if x.size == 0:
        return x
    if (x < 0).any():
        return softmax(x)
    total = float(x.sum())
    if total <= 0.0:  # all zeros: no preference among candidates
        return np.full(x.size, 1.0 / x.size)
    return x / total


def entropy_bits(scores: np.ndarray | list[float]) -> float:
    """Shannon entropy in bits; 0 for empty or single-candidate lists."""
    p = score_distribution(scores)
    p = p[p > 0]
    if p.size <= 1:
        return 0.0
    return float(max(0.0, -(p * np.log2(p)).sum()))


def normalised_entropy(scores: np.ndarray | list[float]) -> float:
    """H / log2(n) in [0, 1] (1 = flat); 0 when n < 2. Comparable across list lengths."""
    n = int(np.isfinite(np.asarray(scores, dtype=np.float64)).sum())
    return entropy_bits(scores) / math.log2(n) if n >= 2 else 0.0


def entropy_alpha(h_dense: float, h_sparse: float, eps: float = 1e-9) -> float:
    """Seed 002's sparse weight; 0.5 when both entropies are ~0 or not finite (no evidence)."""
    if not (math.isfinite(h_dense) and math.isfinite(h_sparse)):
        return 0.5
    total = h_dense + h_sparse
    if total <= eps:
        return 0.5
    return float(h_dense / (total + eps))
