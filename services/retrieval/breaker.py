"""A minimal circuit breaker for a retriever's engine.

After an engine error, calls fail fast for ``open_s`` instead of each waiting out the
engine's own timeout: a down Weaviate otherwise costs every search its whole retrieval
budget.
"""

from __future__ import annotations

import time

from chsr.errors import Unavailable
from chsr.metrics import BACKEND_ERRORS

BREAKER_OPEN_S = 0.5


class CircuitBreaker:
    def __init__(self, name: str, open_s: float = BREAKER_OPEN_S) -> None:
        self._name = name
        self._open_s = open_s
        self._open_until = 0.0

    def check(self) -> None:
        """Raise UNAVAILABLE at once while the breaker is open."""
        if time.monotonic() < self._open_until:
            raise Unavailable(f"{self._name}: engine failing (circuit open)")

    def trip(self) -> None:
        """Count an engine failure and open for ``open_s``."""
        BACKEND_ERRORS.labels(self._name, "unavailable").inc()
        self._open_until = time.monotonic() + self._open_s
