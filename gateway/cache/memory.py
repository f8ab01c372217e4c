"""In-process LRU cache with TTL: the embedded default."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict


class MemoryCache:
    name = "memory"

    def __init__(self, max_entries: int = 10_000) -> None:
        self._data: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()
        self._generation = 0
        self._locks: dict[str, float] = {}

    def get(self, key: str) -> bytes | None:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            expires, value = item
            if expires < time.monotonic():
                del self._data[key]
                return None
            self._data.move_to_end(key)
            return value

    def set(self, key: str, value: bytes, ttl_s: int) -> None:
        with self._lock:
            self._data[key] = (time.monotonic() + ttl_s, value)
            self._data.move_to_end(key)
            while len(self._data) > self._max:
                self._data.popitem(last=False)

    def generation(self) -> int:
        return self._generation

    def bump_generation(self) -> int:
        with self._lock:
            self._generation += 1
            self._data.clear()
            return self._generation

    def lock(self, key: str, ttl_ms: int) -> bool:
        now = time.monotonic()
        with self._lock:
            held = self._locks.get(key)
            if held is not None and held > now:
                return False
            self._locks[key] = now + ttl_ms / 1000
            return True

    def unlock(self, key: str) -> None:
        with self._lock:
            self._locks.pop(key, None)
