"""LRU cache of query vectors inside the dense service (``CHSR_QUERY_VECTOR_CACHE``, default 1,024 entries).

Query encoding dominates dense latency; the same query text is often encoded
again for another pipeline, k or scope (the gateway's result cache keys on all
of those). ``CHSR_QUERY_VECTOR_CACHE=N`` keeps the last N query vectors; 0 turns it off.
Benchmarks that report uncached latency run with it off (``benchmarks/load/run.sh``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np


class QueryVectorCache:
    def __init__(self, max_entries: int) -> None:
        self._max = max(0, max_entries)
        self._data: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    @property
    def max_entries(self) -> int:
        return self._max

    def get(self, query: str) -> np.ndarray | None:
        if not self._max:
            return None
        with self._lock:
            vec = self._data.get(query)
            if vec is not None:
                self._data.move_to_end(query)
                self.hits += 1
            return vec

    def put(self, query: str, vector: np.ndarray) -> None:
        if not self._max:
            return
        with self._lock:
            self._data[query] = vector
            self._data.move_to_end(query)
            while len(self._data) > self._max:
                self._data.popitem(last=False)
