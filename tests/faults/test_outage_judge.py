"""The fault-matrix judge and the load driver on hand-made timelines (fast; no mesh)."""

from __future__ import annotations

import pytest

import threading

from pytest import approx

from tools.bench.driver import ClosedLoop, Sample
from tests.faults.outage import Timeline, analyse, recovery_time

pytestmark = pytest.mark.unit

DEADLINE = 2.0


def s(start: float, ms: float, code: str = "OK", degraded: tuple[str, ...] = (),
      **kw) -> Sample:  # type: ignore[no-untyped-def]
    return Sample(0, start, start + ms / 1000, code, degraded=degraded, **kw)


def test_recovery_counts_from_health_to_the_first_answer_of_the_clean_tail() -> None:
    samples = [s(10.0, 50, degraded=("dense_unavailable",)), s(10.2, 50), s(10.4, 50, degraded=("dense_unavailable",)),
               s(10.6, 50), s(10.8, 50), s(11.0, 50)]
    assert recovery_time(samples, 10.0, lambda x: x.normal) == approx(0.65)


def test_no_recovery_when_the_tail_is_still_failing() -> None:
    samples = [s(10.0, 50), s(10.2, 50), s(10.4, 50, code="UNAVAILABLE")]
    assert recovery_time(samples, 10.0, lambda x: x.normal) is None


def test_slow_deadline_flags_are_reported_not_blamed_on_the_fault() -> None:
    tl = Timeline(start=0.0, down=2.0, restart=5.0, healthy=8.0)
    samples = [s(1.0, 40), s(2.5, 60, degraded=("dense_unavailable",)), s(4.0, 60, degraded=("dense_unavailable",)),
               s(8.1, 30), s(8.5, 1230, degraded=("dense_unavailable",)),  # missed its share under load
               s(9.9, 40), s(10.1, 40), s(10.3, 40)]
    rep = analyse("dense", "dense_unavailable", samples, tl, DEADLINE)
    assert [x.start for x in rep.outage] == [2.5, 4.0]
    assert rep.recovery_s == approx(0.13) and rep.first_normal_s == approx(0.13)
    assert rep.strict_recovery_s is not None and rep.strict_recovery_s > 1.9
    assert rep.slow_flagged == 1 and not rep.bad_codes and rep.max_overrun_ms < 0


def test_fast_failures_after_health_delay_recovery() -> None:
    tl = Timeline(start=0.0, down=2.0, restart=5.0, healthy=8.0)
    samples = [s(8.1, 40, degraded=("rerank_unavailable",)), s(9.0, 40, degraded=("rerank_unavailable",)),
               s(9.5, 40), s(9.7, 40), s(9.9, 40)]
    assert analyse("rerank", "rerank_unavailable", samples, tl, DEADLINE).recovery_s == approx(1.54)


def test_internal_errors_and_overruns_are_caught() -> None:
    tl = Timeline(start=0.0, down=1.0, restart=2.0, healthy=3.0)
    samples = [s(0.5, 2400, code="DEADLINE_EXCEEDED"), s(1.5, 5, code="INTERNAL")]
    rep = analyse("gate", "gate_unavailable_hints_only", samples, tl, DEADLINE)
    assert [x.code for x in rep.bad_codes] == ["INTERNAL"] and round(rep.max_overrun_ms) == 400


def test_closed_loop_respects_request_budget_and_concurrency() -> None:
    active, peak, lock = [0], [0], threading.Lock()

    def call(worker: int, seq: int) -> Sample:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        threading.Event().wait(0.005)
        with lock:
            active[0] -= 1
        return s(0.0, 5)

    samples = ClosedLoop(call, concurrency=3, duration_s=30, max_requests=40).run()
    assert len(samples) == 40 and peak[0] <= 3
