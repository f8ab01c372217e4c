"""Closed-loop load driver shared by the load benchmark and the fault tests.

Each worker thread sends one request, waits for its answer, optionally thinks,
and sends the next, until the duration or the request budget is spent (a
closed loop: offered load follows the service, so a slow service is measured,
not buried). Every request becomes a :class:`Sample` with monotonic start and
end times, so tests can line samples up against fault events.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import grpc

from chsr.v1 import gateway_pb2


@dataclass
class Sample:
    worker: int
    start: float                       # time.monotonic() when the call was issued
    end: float
    code: str                          # "OK" or the grpc.StatusCode name
    degraded: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)  # SearchResponse.timings, ms
    cache_hit: bool = False
    results: int = 0
    details: str = ""
    label: str = ""                    # caller's tag, e.g. "hints" / "no-hints"

    @property
    def latency_ms(self) -> float:
        return (self.end - self.start) * 1000

    @property
    def normal(self) -> bool:
        """An answer as if nothing had failed: OK and not degraded."""
        return self.code == "OK" and not self.degraded


Call = Callable[[int, int], Sample]  # (worker, sequence number) -> Sample


def search_sample(stub, request: gateway_pb2.SearchRequest, timeout_s: float,  # type: ignore[no-untyped-def]
                  worker: int = 0, label: str = "") -> Sample:
    """Send one Search and record it, never raising for an RPC error."""
    start = time.monotonic()
    try:
        resp = stub.Search(request, timeout=timeout_s)
    except grpc.RpcError as exc:
        return Sample(worker, start, time.monotonic(), exc.code().name, details=exc.details() or "", label=label)
    return Sample(worker, start, time.monotonic(), "OK", degraded=tuple(resp.degraded),
                  timings={t.stage: t.ms for t in resp.timings}, cache_hit=resp.cache_hit,
                  results=len(resp.results), label=label)


class ClosedLoop:
    """``concurrency`` workers calling ``call`` until ``duration_s`` or ``max_requests``.

    Use :meth:`run` to block, or :meth:`start` / :meth:`stop` / :meth:`join` to
    drive it in the background while something else happens (a fault).
    """

    def __init__(self, call: Call, concurrency: int, duration_s: float, max_requests: int | None = None,
                 think_s: float = 0.0) -> None:
        self._call = call
        self._concurrency = concurrency
        self._duration = duration_s
        self._think = think_s
        self._budget = itertools.count() if max_requests is None else iter(range(max_requests))
        self._budget_lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._samples: list[Sample] = []
        self._samples_lock = threading.Lock()
        self.started_at = 0.0

    def _next_seq(self) -> int | None:
        with self._budget_lock:
            return next(self._budget, None)

    def _worker(self, worker: int) -> None:
        deadline = self.started_at + self._duration
        while not self._stop.is_set() and time.monotonic() < deadline:
            seq = self._next_seq()
            if seq is None:
                return
            sample = self._call(worker, seq)
            with self._samples_lock:
                self._samples.append(sample)
            if self._think:
                self._stop.wait(self._think)

    def start(self) -> None:
        self.started_at = time.monotonic()
        self._threads = [threading.Thread(target=self._worker, args=(w,), name=f"load-{w}", daemon=True)
                         for w in range(self._concurrency)]
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout_s: float | None = None) -> list[Sample]:
        end = None if timeout_s is None else time.monotonic() + timeout_s
        for t in self._threads:
            t.join(None if end is None else max(0.0, end - time.monotonic()))
        return self.samples()

    def samples(self) -> list[Sample]:
        with self._samples_lock:
            return sorted(self._samples, key=lambda s: s.start)

    def run(self) -> list[Sample]:
        self.start()
        return self.join()
