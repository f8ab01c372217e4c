"""Micro-batching of concurrent query encodings (lever).

Query encoding dominates dense latency (~20 ms on one thread). Under
concurrency, requests that arrive within ``max_wait_ms`` of each other are
encoded in one forward pass, which costs far less than N passes.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from typing import Callable, Sequence

import numpy as np

EncodeFn = Callable[[Sequence[str]], np.ndarray]


class MicroBatcher:
    def __init__(self, encode: EncodeFn, max_batch: int = 16, max_wait_ms: float = 2.0) -> None:
        self._encode = encode
        self._max_batch = max_batch
        self._max_wait = max_wait_ms / 1000
        self._queue: queue.Queue[tuple[str, Future]] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="query-batcher", daemon=True)
        self._thread.start()
        self.batches = 0
        self.items = 0

    def submit(self, text: str) -> Future:
        fut: Future = Future()
        self._queue.put((text, fut))
        return fut

    def encode(self, text: str, timeout: float | None = None) -> np.ndarray:
        return self.submit(text).result(timeout)

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            batch = [first]
            try:
                while len(batch) < self._max_batch:
                    batch.append(self._queue.get(timeout=self._max_wait if len(batch) == 1 else 0.0005))
            except queue.Empty:
                pass
            texts = [t for t, _ in batch]
            try:
                vectors = self._encode(texts)
            except Exception as exc:  # deliver the failure to every waiter
                for _, fut in batch:
                    fut.set_exception(exc)
                continue
            self.batches += 1
            self.items += len(batch)
            for (_, fut), vec in zip(batch, vectors):
                fut.set_result(vec)
