"""Result cache interface (cache-aside) and its key.

Keys are namespaced and versioned by the index generation that ingest bumps,
so a result computed before a re-ingest is never served after it.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from chsr.scope import Scope
from gateway.pipelines import PipelineConfig

NAMESPACE = "chsr:v1"


class CacheUnavailable(RuntimeError):
    """The cache backend cannot be reached: the gateway bypasses it (degraded, not an error)."""


class ResultCache(Protocol):
    name: str

    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes, ttl_s: int) -> None: ...

    def generation(self) -> int: ...

    def bump_generation(self) -> int: ...

    def lock(self, key: str, ttl_ms: int) -> bool:
        """Try to become the single computer of ``key`` (stampede protection)."""
        ...

    def unlock(self, key: str) -> None: ...


def cache_key(query: str, hints: Scope, pipeline: PipelineConfig, k: int, strict: bool, generation: int) -> str:
    """Normalised query + hints + the pipeline's whole configuration + k + strictness, under the
    index generation (a re-ingest changes every key)."""
    normalised = " ".join(query.lower().split())
    raw = "\x1f".join([normalised, hints.cache_key(), repr(pipeline), str(k), str(int(strict))])
    return f"{NAMESPACE}:g{generation}:search:{hashlib.sha256(raw.encode('utf-8')).hexdigest()}"
