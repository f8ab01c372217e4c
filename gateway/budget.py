"""Deadline budget: split what is left of a request's budget across stages.

The budget itself comes bounded from :func:`chsr.deadline.call_budget_s` (a call without a
deadline gets ``CHSR_DEFAULT_DEADLINE_MS``). Each stage call gets a share of the *remaining*
time, so no stage call outlives the request and later stages keep a reserve. Shares are
fractions of what is left when the stage starts.
"""

from __future__ import annotations

import time

from chsr.errors import DeadlineExceeded

STAGE_SHARE = {"probe": 0.15, "gate": 0.15, "retrieve": 0.6, "fusion": 0.3, "fetch": 0.3, "rerank": 0.9}
MIN_STAGE_S = 0.002


class Budget:
    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def for_stage(self, stage: str) -> float:
        left = self.remaining()
        if left <= MIN_STAGE_S:
            raise DeadlineExceeded(f"deadline exceeded before stage '{stage}'")
        return max(MIN_STAGE_S, left * STAGE_SHARE.get(stage, 0.5))
