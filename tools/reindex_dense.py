"""Re-encode an embedded dense index for the configured passage mode.

The embedded backend refuses to open a data dir built in another ``CHSR_DENSE_PASSAGES`` mode
(mixing whole-document and best-passage scores would rank unfairly). Run this with the dense
service stopped and the new mode set, e.g. ``CHSR_DENSE_PASSAGES=maxp python -m tools.reindex_dense``.
Every stored document is re-encoded through the content-addressed embedding cache, so switching
back to a mode used before computes nothing.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from chsr.config import get_settings
from chsr.documents import Doc
from services.inference.model_files import resolve_model_path
from services.dense.backends.embedded import EmbeddedDenseBackend
from services.dense.encoder import Encoder
from services.dense.passages import PassageMode

log = logging.getLogger(__name__)


def vectorizer(encoder: Encoder, mode: PassageMode):  # type: ignore[no-untyped-def]
    """docs -> vectors in ``mode``'s shape: an ``(n, dim)`` array (off) or passage blocks (maxp)."""
    def vectorize(docs: Sequence[Doc]) -> Any:
        if mode is PassageMode.MAXP:
            return encoder.encode_passages(docs)[0]
        return encoder.encode_documents([d.full_text for d in docs])[0]
    return vectorize


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    settings = get_settings()
    mode = PassageMode.from_str(settings.dense_passages)
    encoder = Encoder(resolve_model_path(settings.model_path), settings.cache_dir, settings.encode_batch_size)
    backend = EmbeddedDenseBackend(settings.data_dir, encoder.dim, index=settings.dense_index, passages=mode,
                                   reencode=vectorizer(encoder, mode))
    log.info("dense index ready", extra={"documents": backend.count(), "passages": mode.storage_key()})
    backend.close()


if __name__ == "__main__":
    main()
