"""A corpus of any size from the real one: replicated, perturbed text and perturbed real MiniLM vectors.

Why it looks like this (benchmarks/scale/README.md, "What the corpus is"):

* **Text.** Copy ``c`` of a real chunk (curriculum + SciFact, 31.4k) keeps its metadata (so a gate
  filter admits the same share of the corpus at every size) and has 15 % of its tokens replaced by
  tokens drawn from the corpus's own unigram distribution (Zipf's law kept: posting lists grow like
  a real corpus's) and 1 % by new synthetic words (vocabulary keeps growing, as Heaps' law has it).
  Term statistics, document lengths and filter selectivity, the things BM25's cost depends on,
  stay those of the real text.
* **Vectors.** Embedding 1 M texts with MiniLM on two shared cores would take ~10 h, so a copy's
  vector is the original's cached MiniLM vector (``CHSR_CACHE_DIR/embeddings.sqlite``) mixed with
  another real vector and a little noise, renormalised: ``v' = norm(v_d + 0.5 v_r + 0.35 g)``.
  Copies stay on the manifold the real vectors span (cosine to the original ~0.85, not duplicates
  that would make HNSW's job trivial, not uniform noise that would make it pathological); the
  dimension (384), the norm and the neighbourhood density, which set HNSW's memory and per-query
  distance computations, are those of real MiniLM vectors.
* Deterministic (seeded per copy) and streamed: a million documents never sit in memory at once.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from chsr.documents import Doc
from tools.corpus import read_corpus

TOKEN = re.compile(r"\S+")
REPLACE_SHARE = 0.15
NEW_WORD_SHARE = 0.01
MIX, NOISE = 0.5, 0.35


@dataclass
class BaseCorpus:
    """The real chunks with their real MiniLM vectors (rows of ``vectors``, unit norm)."""

    docs: list[Doc]
    vectors: np.ndarray
    vocabulary: list[str]
    cdf: np.ndarray          # cumulative unigram distribution over ``vocabulary``

    @classmethod
    def load(cls, corpora: Sequence[Path], cache_db: Path, model_id: str) -> "BaseCorpus":
        """Every document whose vector is in the embedding cache (keyed like services/dense/encoder.py)."""
        db = sqlite3.connect(str(cache_db))
        docs, vecs = [], []
        for path in corpora:
            batch = list(read_corpus(path))
            keys = [hashlib.sha256(f"{model_id}\x00{d.full_text}".encode("utf-8")).hexdigest() for d in batch]
            found: dict[str, bytes] = {}
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                found.update(db.execute(f"SELECT key, vec FROM emb WHERE key IN ({','.join('?' * len(chunk))})",
                                        chunk).fetchall())
            for doc, key in zip(batch, keys):
                if key in found:
                    docs.append(doc)
                    vecs.append(np.frombuffer(found[key], dtype=np.float32))
        db.close()
        if not docs:
            raise RuntimeError(f"no cached vectors for {', '.join(map(str, corpora))} in {cache_db} "
                               f"(model {model_id}): ingest the corpora once with the engines or embedded backend")
        counts = Counter(t for d in docs for t in TOKEN.findall(d.text))
        vocab = list(counts)
        weights = np.array([counts[t] for t in vocab], dtype=np.float64)
        return cls(docs, np.stack(vecs), vocab, np.cumsum(weights) / weights.sum())


def _perturb(base: BaseCorpus, text: str, rng: np.random.Generator) -> str:
    tokens = TOKEN.findall(text)
    if not tokens:
        return text
    r = rng.random(len(tokens))
    draws = np.searchsorted(base.cdf, rng.random(len(tokens)))
    fresh = rng.integers(0, 1 << 24, len(tokens))
    out = [f"w{int(fresh[i]):x}" if r[i] < NEW_WORD_SHARE else
           base.vocabulary[min(int(draws[i]), len(base.vocabulary) - 1)] if r[i] < NEW_WORD_SHARE + REPLACE_SHARE else tok
           for i, tok in enumerate(tokens)]
    return " ".join(out)


def batch(base: BaseCorpus, lo: int, hi: int) -> tuple[list[Doc], np.ndarray]:
    """Documents ``lo..hi-1`` of the scaled corpus (the real ones first, then perturbed copies),
    deterministic in ``lo``."""
    n, rng = len(base.docs), np.random.default_rng(lo)
    idx = np.arange(lo, hi)
    vecs = base.vectors[idx % n].copy()
    copies = idx // n >= 1
    if copies.any():
        k = int(copies.sum())
        other = base.vectors[rng.integers(0, n, k)]
        noise = rng.standard_normal((k, vecs.shape[1]), dtype=np.float32) / np.sqrt(vecs.shape[1])
        mixed = vecs[copies] + MIX * other + NOISE * noise
        vecs[copies] = mixed / np.linalg.norm(mixed, axis=1, keepdims=True)
    docs = []
    for i in idx:
        original = base.docs[i % n]
        if i < n:
            docs.append(original)
        else:
            docs.append(Doc(id=f"{original.id}~{i // n}", title=original.title, text=_perturb(base, original.text, rng),
                            metadata=dict(original.metadata)))
    return docs, vecs.astype(np.float32)


def batches(base: BaseCorpus, start: int, stop: int, size: int) -> Iterator[tuple[list[Doc], np.ndarray]]:
    """Documents ``start..stop-1`` of the scaled corpus in batches of ``size``."""
    for lo in range(start, stop, size):
        yield batch(base, lo, min(stop, lo + size))
