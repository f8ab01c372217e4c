"""Sentence-transformers encoder with a content-addressed embedding cache.

On this machine MiniLM embeds ~16-23 chunks/s, so embeddings are
cached by (model id, sha256(text)) in a directory outside the clone: re-ingesting
unchanged text computes nothing.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

from chsr.documents import Doc
from services.inference.model_files import force_offline, model_fingerprint
from services.dense.passages import PassageSplitter

log = logging.getLogger(__name__)


class EmbeddingCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB NOT NULL)")

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start:start + 500])
                marks = ",".join("?" * len(chunk))
                for key, blob in self._db.execute(f"SELECT key, vec FROM emb WHERE key IN ({marks})", chunk):
                    out[key] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)",
                                 [(k, v.astype(np.float32).tobytes()) for k, v in items.items()])
            self._db.execute("COMMIT")


class Encoder:
    """Normalised MiniLM embeddings; documents go through the cache, queries do not."""

    def __init__(self, model_path: Path, cache_dir: Path | None, batch_size: int = 32) -> None:
        force_offline()
        from sentence_transformers import SentenceTransformer  # heavy import, done once

        self.model_id = f"{model_path.name}:{model_fingerprint(model_path)}"
        self._model = SentenceTransformer(str(model_path), device="cpu")
        dim_fn = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(dim_fn())
        self.max_seq_length = int(self._model.max_seq_length)
        self._batch = batch_size
        self._lock = threading.Lock()
        self._cache = EmbeddingCache(cache_dir / "embeddings.sqlite") if cache_dir else None
        self.splitter = PassageSplitter(self._model.tokenizer, self.max_seq_length)

    def _encode(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        with self._lock:
            vecs = self._model.encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                      convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, batch_size=max(1, len(texts)))

    def encode_documents(self, texts: Sequence[str]) -> tuple[np.ndarray, int]:
        """Embeddings for ``texts`` and how many had to be computed (cache misses)."""
        keys = [hashlib.sha256(f"{self.model_id}\x00{t}".encode("utf-8")).hexdigest() for t in texts]
        cached = self._cache.get_many(keys) if self._cache else {}
        missing = [i for i, k in enumerate(keys) if k not in cached]
        if missing:
            fresh = self._encode([texts[i] for i in missing], batch_size=self._batch)
            new_items = {keys[i]: fresh[j] for j, i in enumerate(missing)}
            if self._cache:
                self._cache.put_many(new_items)
            cached.update(new_items)
        out = np.stack([cached[k] for k in keys]) if keys else np.zeros((0, self.dim), np.float32)
        return out, len(missing)

    def encode_passages(self, docs: Sequence[Doc]) -> tuple[list[np.ndarray], int]:
        """One ``(n_passages, dim)`` block per document (MaxP mode) and the cache misses.

        Passages go through :meth:`encode_documents`, so re-ingesting unchanged text is free and a
        document that fits the window reuses its whole-document vector.
        """
        with self._lock:  # the tokenizer must not run while the model's encode uses it
            split = [self.splitter.split(d) for d in docs]
        vecs, computed = self.encode_documents([p for passages in split for p in passages])
        bounds = np.cumsum([0] + [len(passages) for passages in split])
        return [vecs[bounds[i]:bounds[i + 1]] for i in range(len(split))], computed
