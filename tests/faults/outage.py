"""Judge a load run against the timeline of one fault (issue 7, "Fault matrix").

Timeline (monotonic seconds): ``down`` the component is gone (process reaped /
engine stopped), ``restart`` it was told to start again, ``healthy`` its health
check said SERVING. Samples that start after ``down`` and end before
``restart`` are *outage* samples; recovery is measured from ``healthy``.

Recovery is judged on the fault, not on the machine: after health SERVING an
answer is *fault-affected* when it fails fast (UNAVAILABLE well inside the
deadline) or carries the component's flag from a fast failure. On a shared
2-core machine a stage can also miss its share of the deadline through CPU
contention, which the gateway flags the same way (decisions.md section 7:
UNAVAILABLE and DEADLINE_EXCEEDED both degrade a leg); such slow-path flags
are counted and reported (``slow_flagged``), and ``strict_recovery_s`` gives the
time to an all-normal tail, but the assertion is that fast failures stop and
a fully normal answer arrives within the window.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tools.bench.driver import Sample
from gateway.budget import STAGE_SHARE

ALLOWED_ERRORS = {"UNAVAILABLE", "DEADLINE_EXCEEDED"}
STABLE_TAIL = 3  # unaffected answers in a row, up to the end of the run, that count as "back to normal"
FAST_FAIL_SHARE = 0.5  # a failure or flag in under half the deadline was not a deadline: the part was unreachable


@dataclass
class Timeline:
    start: float
    down: float = 0.0
    restart: float = 0.0
    healthy: float = 0.0


@dataclass
class OutageReport:
    component: str
    total: int
    codes: dict[str, int]
    max_overrun_ms: float                # worst (latency - deadline), ms; <= 0 when every call met it
    outage: list[Sample] = field(default_factory=list)
    bad_codes: list[Sample] = field(default_factory=list)
    recovery_s: float | None = None      # from health SERVING to the first answer of the unaffected tail
    first_normal_s: float | None = None  # from health SERVING to the end of the first fully normal answer
    strict_recovery_s: float | None = None  # ... to the first answer of an all-normal tail
    slow_flagged: int = 0                # answers after SERVING degraded by a missed stage deadline
    down_s: float = 0.0
    restart_to_healthy_s: float = 0.0

    def outage_flags(self) -> dict[str, int]:
        flags: Counter[str] = Counter()
        for s in self.outage:
            flags.update(s.degraded or ((s.code,) if s.code != "OK" else ("normal",)))
        return dict(flags)

    def summary(self) -> dict[str, object]:
        return {"component": self.component, "requests": self.total, "codes": self.codes,
                "max_overrun_ms": round(self.max_overrun_ms, 1), "outage_requests": len(self.outage),
                "outage_flags": self.outage_flags(), "down_s": round(self.down_s, 2),
                "restart_to_healthy_s": round(self.restart_to_healthy_s, 2),
                "recovery_s": _round(self.recovery_s), "first_normal_s": _round(self.first_normal_s),
                "strict_recovery_s": _round(self.strict_recovery_s), "slow_flagged_after": self.slow_flagged}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def unaffected_by(flag: str, deadline_s: float) -> Callable[[Sample], bool]:
    """An answer that shows no sign of the part behind ``flag`` still being unreachable.

    An unreachable peer fails in tens of milliseconds (connection refused, three
    attempts with 20-200 ms backoff); a stage that ran out of its budget share
    fails at that share: the gate's is 15 % of the deadline (its time is in the
    response's timings even when it fails), the others' end well past half of it.
    """
    fast_ms = deadline_s * 1000 * FAST_FAIL_SHARE
    gate_budget_ms = deadline_s * 1000 * STAGE_SHARE["gate"] * 0.9

    def ok(s: Sample) -> bool:
        if s.code == "DEADLINE_EXCEEDED" or "DEADLINE_EXCEEDED" in s.details:
            return True
        if s.code == "OK" and flag not in s.degraded:
            return True
        if flag.startswith("gate_") and s.code == "OK":
            return s.timings.get("gate", 0.0) >= gate_budget_ms
        return s.latency_ms >= fast_ms
    return ok


def recovery_time(samples: list[Sample], healthy: float, ok: Callable[[Sample], bool]) -> float | None:
    """Seconds from ``healthy`` to the end of the first answer after which every answer is ``ok``."""
    after = [s for s in samples if s.start >= healthy]
    if len(after) < STABLE_TAIL or not all(ok(s) for s in after[-STABLE_TAIL:]):
        return None
    first = len(after) - 1
    while first > 0 and ok(after[first - 1]):
        first -= 1
    return max(0.0, after[first].end - healthy)


def first_normal(samples: list[Sample], healthy: float) -> float | None:
    ends = [s.end - healthy for s in samples if s.start >= healthy and s.normal]
    return min(ends) if ends else None


def analyse(component: str, flag: str, samples: list[Sample], tl: Timeline, deadline_s: float) -> OutageReport:
    unaffected = unaffected_by(flag, deadline_s)
    return OutageReport(
        component=component,
        total=len(samples),
        codes=dict(Counter(s.code for s in samples)),
        max_overrun_ms=max((s.latency_ms - deadline_s * 1000 for s in samples), default=0.0),
        outage=[s for s in samples if s.start >= tl.down and s.end <= tl.restart],
        bad_codes=[s for s in samples if s.code != "OK" and s.code not in ALLOWED_ERRORS],
        recovery_s=recovery_time(samples, tl.healthy, unaffected),
        first_normal_s=first_normal(samples, tl.healthy),
        strict_recovery_s=recovery_time(samples, tl.healthy, lambda s: s.normal),
        slow_flagged=sum(1 for s in samples if s.start >= tl.healthy and not s.normal and unaffected(s)),
        down_s=tl.restart - tl.down,
        restart_to_healthy_s=tl.healthy - tl.restart,
    )
