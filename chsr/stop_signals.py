"""Waiting for SIGTERM / SIGINT in a process that also runs gRPC threads.

Two ways the obvious ``signal.signal(sig, lambda *_: stop.set()); stop.wait()`` hangs for ever:

* the kernel may deliver the signal to any thread that does not block it, gRPC's among them. CPython then only marks
  the handler pending; the main thread, blocked in ``Event.wait()`` (a lock acquire with no timeout), is never woken to
  run it. An installed ``chsr up --demo`` stopped by SIGINT in the install test stayed up, waiting, for half an hour;
* a handler runs in the main thread between bytecodes, possibly inside ``Event.wait`` while it holds the event's lock,
  and ``Event.set()`` then waits for that lock.

So the handler only appends to a list (no lock), and the main thread polls with ``time.sleep``, which returns within
``POLL_S`` whichever thread the signal reached and lets the pending handler run.
"""

from __future__ import annotations

import signal
import time
from typing import Iterable

#: How often the waiting main thread wakes to run a handler the signal left pending.
POLL_S = 0.2
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT)


class StopSignals:
    """Records the stop signals from the moment it is created (the main thread only: ``signal.signal``)."""

    def __init__(self, signals: Iterable[signal.Signals] = STOP_SIGNALS) -> None:
        self.received: list[int] = []
        for sig in signals:
            signal.signal(sig, self._record)

    def _record(self, signum: int, _frame: object) -> None:
        self.received.append(signum)

    @property
    def stopping(self) -> bool:
        return bool(self.received)

    def wait(self, timeout_s: float | None = None) -> int | None:
        """Block until a stop signal has arrived and return its number; None when ``timeout_s`` passes first."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while not self.received:
            if deadline is not None and time.monotonic() >= deadline:
                return None
            time.sleep(POLL_S)
        return self.received[0]
