"""What a server may spend on a call, whatever deadline the client sent.

A call without a deadline (grpcurl, Go and Java stubs by default) reports an
effectively infinite remaining time (``ServicerContext.time_remaining()`` is
about 9.2e18 s); a stage timeout derived from it overflows and fails at once.
So every budget a server splits or forwards goes through :func:`call_budget_s`:

* no deadline -> ``CHSR_DEFAULT_DEADLINE_MS``;
* a deadline above ``CHSR_MAX_DEADLINE_MS`` -> the cap;
* otherwise what is left of the client's deadline.

:func:`bounded_timeout` does the same for calls with their own ceiling (an
ingest batch's upsert, ``ListIds`` during a verify): the ceiling, or less when
the client's deadline is nearer.
"""

from __future__ import annotations

import math
from typing import Protocol

#: A remaining time above this is "no deadline" (gRPC's infinite future), not a real one.
NO_DEADLINE_ABOVE_S = 365 * 24 * 3600.0


class HasTimeRemaining(Protocol):
    def time_remaining(self) -> float | None: ...


def client_remaining_s(context: HasTimeRemaining | None) -> float | None:
    """The client's remaining time in seconds, or None when the call carries no deadline."""
    if context is None:
        return None
    left = context.time_remaining()
    if left is None or not math.isfinite(left) or left > NO_DEADLINE_ABOVE_S:
        return None
    return max(0.0, float(left))


def call_budget_s(context: HasTimeRemaining | None, default_s: float, cap_s: float) -> float:
    """The budget of one request: the client's remaining time, ``default_s`` without a
    deadline, never more than ``cap_s``."""
    left = client_remaining_s(context)
    return min(default_s if left is None else left, cap_s)


def bounded_timeout(context: HasTimeRemaining | None, ceiling_s: float) -> float:
    """A forwarded call's timeout: ``ceiling_s``, or the client's remaining time if sooner."""
    left = client_remaining_s(context)
    return ceiling_s if left is None else min(left, ceiling_s)
