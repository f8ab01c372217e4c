"""Is the mesh behind this gateway ready? (issue 23: "ready before it is ready").

The gateway's own health stays NOT_SERVING until every stage a search needs (gate, sparse, dense, fusion,
rerank; not the optional graph and ingest servers) answers SERVING to a gRPC health check (``chsr.server.start_server(ready=...)``), so ``chsr up``, ``chsr ingest`` and Kubernetes readiness
probes all see the same thing. Write RPCs that arrive earlier wait for the stages within their deadline
(at most :data:`WRITE_WAIT_S`) and otherwise answer UNAVAILABLE naming the stages and saying to retry.
Once ready it stays ready: a stage lost later degrades answers (flagged), it does not take the gateway
out of service.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Mapping

from chsr.deadline import HasTimeRemaining
from chsr.errors import Unavailable

WRITE_WAIT_S = 60.0
POLL_S = 0.25


class StageReadiness:
    def __init__(self, checks: Mapping[str, Callable[[], bool]]) -> None:
        self._checks = dict(checks)
        self._ready = threading.Event()

    def waiting_for(self) -> list[str]:
        """The stages that do not answer SERVING now (none once the mesh has been ready)."""
        if self._ready.is_set():
            return []
        missing = []
        for name, check in self._checks.items():
            try:
                ok = check()
            except Exception:  # a stage that does not answer is simply not ready yet
                ok = False
            if not ok:
                missing.append(name)
        if not missing:
            self._ready.set()
        return missing

    def ready(self) -> bool:
        return not self.waiting_for()

    def wait(self, timeout_s: float) -> list[str]:
        """Wait up to ``timeout_s`` for every stage; returns the stages still missing ([] = ready)."""
        deadline = time.monotonic() + timeout_s
        while True:
            missing = self.waiting_for()
            if not missing or time.monotonic() >= deadline:
                return missing
            time.sleep(POLL_S)

    def require(self, context: HasTimeRemaining | None, what: str) -> None:
        """For a write RPC: return once the stages answer, within the call's deadline; else UNAVAILABLE."""
        if self._ready.is_set():
            return
        remaining = context.time_remaining() if context is not None else None
        budget = WRITE_WAIT_S if remaining is None else max(0.0, min(WRITE_WAIT_S, remaining - 0.5))
        missing = self.wait(budget)
        if missing:
            raise Unavailable(f"{what}: the mesh is not ready yet ({', '.join(missing)} not SERVING); "
                              "nothing was written; retry in a few seconds")


ALWAYS_READY = StageReadiness({})
