"""Budgets derived from a client's deadline (chsr/deadline.py)."""

from __future__ import annotations

import pytest

from chsr.deadline import NO_DEADLINE_ABOVE_S, bounded_timeout, call_budget_s, client_remaining_s

pytestmark = pytest.mark.unit

GRPC_NO_DEADLINE = 9.22337203505862e18  # what grpcio's ServicerContext.time_remaining() says without one


class Ctx:
    def __init__(self, left: float | None) -> None:
        self.left = left

    def time_remaining(self) -> float | None:
        return self.left


@pytest.mark.parametrize("left", [None, GRPC_NO_DEADLINE, float("inf"), NO_DEADLINE_ABOVE_S * 2])
def test_no_deadline_gets_the_default(left):
    assert client_remaining_s(Ctx(left)) is None
    assert call_budget_s(Ctx(left), default_s=5.0, cap_s=60.0) == 5.0
    assert bounded_timeout(Ctx(left), 600.0) == 600.0


def test_a_long_deadline_is_capped_and_a_short_one_kept():
    assert call_budget_s(Ctx(600.0), default_s=5.0, cap_s=60.0) == 60.0
    assert call_budget_s(Ctx(0.8), default_s=5.0, cap_s=60.0) == pytest.approx(0.8)
    assert bounded_timeout(Ctx(3.0), 600.0) == pytest.approx(3.0)
    assert bounded_timeout(Ctx(900.0), 600.0) == 600.0


def test_an_expired_deadline_is_zero_not_negative():
    assert client_remaining_s(Ctx(-0.5)) == 0.0
    assert call_budget_s(Ctx(-0.5), default_s=5.0, cap_s=60.0) == 0.0


def test_no_context_is_no_deadline():
    assert call_budget_s(None, default_s=2.0, cap_s=60.0) == 2.0
