"""In-process probe indexes for the offline gate evaluation (issue 14).

The gate's evidence is an *unfiltered* top-N retrieval over the whole index, so the
offline harness needs the same two legs the mesh runs on the embedded default:
BM25 (``services/sparse/backends/embedded.py``) and exact dense search over
all-MiniLM-L6-v2 document vectors (``services/dense``). Encoding the 26.6k curriculum
chunks takes tens of minutes on two CPU cores, so the vectors go through the shared
content-addressed embedding cache (``CHSR_CACHE_DIR``) and the whole matrix is also
kept as one ``.npy`` under ``~/.cache/chsr/gate-eval/`` keyed by the corpus content:
a second run loads it in a second.
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from chsr.documents import Doc
from chsr.scope import Scope

log = logging.getLogger(__name__)

VECTOR_DIR = Path.home() / ".cache" / "chsr" / "gate-eval"


def load_docs(paths: Iterable[Path]) -> list[Doc]:
    docs: list[Doc] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            docs += [Doc.from_json(json.loads(line)) for line in fh if line.strip()]
    return docs


def _corpus_key(docs: Sequence[Doc], model_id: str) -> str:
    h = hashlib.sha256(model_id.encode())
    for d in docs:
        h.update(d.id.encode())
        h.update(b"\x00")
        h.update(d.full_text.encode())
        h.update(b"\x01")
    return h.hexdigest()[:16]


class QueryEncoder:
    """The dense service's encoder (same weights, same normalisation), loaded lazily once."""

    def __init__(self) -> None:
        from chsr.config import get_settings
        from services.inference.model_files import resolve_model_path
        from services.dense.encoder import Encoder

        settings = get_settings()
        self.encoder = Encoder(resolve_model_path(settings.model_path), settings.cache_dir, settings.encode_batch_size)

    def documents(self, docs: Sequence[Doc], batch: int = 512) -> np.ndarray:
        """Whole-document vectors (passages off, the embedded default), cached as one ``.npy``."""
        key = _corpus_key(docs, self.encoder.model_id)
        path = VECTOR_DIR / f"docs-{key}.npy"
        if path.is_file():
            return np.load(path)
        blocks = []
        for start in range(0, len(docs), batch):
            vecs, computed = self.encoder.encode_documents([d.full_text for d in docs[start:start + batch]])
            blocks.append(vecs)
            log.info("encoded documents", extra={"done": start + len(vecs), "total": len(docs), "computed": computed})
        matrix = np.concatenate(blocks) if blocks else np.zeros((0, self.encoder.dim), np.float32)
        VECTOR_DIR.mkdir(parents=True, exist_ok=True)
        np.save(path, matrix)
        return matrix

    def queries(self, texts: Sequence[str], batch: int = 256) -> np.ndarray:
        """Query vectors, cached as one ``.npy`` keyed by the texts (the generated set is re-run often)."""
        h = hashlib.sha256(self.encoder.model_id.encode())
        for t in texts:
            h.update(t.encode())
            h.update(b"\x00")
        path = VECTOR_DIR / f"queries-{h.hexdigest()[:16]}.npy"
        if path.is_file():
            return np.load(path)
        out = [self.encoder.encode_queries(list(texts[s:s + batch])) for s in range(0, len(texts), batch)]
        matrix = np.concatenate(out) if out else np.zeros((0, self.encoder.dim), np.float32)
        VECTOR_DIR.mkdir(parents=True, exist_ok=True)
        np.save(path, matrix)
        return matrix


@dataclass
class ProbeIndex:
    """BM25 (the embedded backend) + exact dense over one document list."""

    docs: list[Doc]
    sparse: object
    dense: object
    by_id: dict[str, Doc]

    @classmethod
    def build(cls, docs: list[Doc], vectors: np.ndarray | None, workdir: Path | None = None) -> "ProbeIndex":
        from services.dense.backends.embedded import EmbeddedDenseBackend
        from services.sparse.backends.embedded import EmbeddedSparseBackend

        root = workdir or Path(tempfile.mkdtemp(prefix="gate-eval-"))
        sparse = EmbeddedSparseBackend(root)
        sparse.upsert(docs)
        dense = None
        if vectors is not None:
            dense = EmbeddedDenseBackend(root, dim=int(vectors.shape[1]))
            dense.upsert(docs, vectors)
        return cls(docs, sparse, dense, {d.id: d for d in docs})

    def search_sparse(self, query: str, flt: Scope, k: int) -> list[tuple[str, float]]:
        return [(h.doc_id, h.score) for h in self.sparse.search(query, flt, k)]  # type: ignore[attr-defined]

    def search_dense(self, vector: np.ndarray | None, flt: Scope, k: int) -> list[tuple[str, float]]:
        if self.dense is None or vector is None:
            return []
        return [(h.doc_id, h.score) for h in self.dense.search(vector, flt, k, exact=True)]  # type: ignore[attr-defined]


def main() -> None:
    """Encode the curriculum (+ SciFact) corpora now, so evaluation runs find the vectors cached."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("corpora", nargs="+", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    enc = QueryEncoder()
    for path in args.corpora:
        docs = load_docs([path])
        m = enc.documents(docs)
        print(f"{path}: {m.shape}")


if __name__ == "__main__":
    main()
