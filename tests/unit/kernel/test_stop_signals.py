"""Stop signals are seen whichever thread the kernel delivers them to (chsr/stop_signals.py)."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Iterator

import pytest

from chsr.stop_signals import StopSignals

pytestmark = pytest.mark.unit


@pytest.fixture(autouse=True)
def _restore_handlers() -> Iterator[None]:
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


def _later(seconds: float, action) -> threading.Thread:
    thread = threading.Thread(target=lambda: (time.sleep(seconds), action()), daemon=True)
    thread.start()
    return thread


def test_a_signal_to_the_process_ends_the_wait_with_its_number():
    stop = StopSignals()
    _later(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    assert stop.wait(timeout_s=10) == signal.SIGINT
    assert stop.stopping


def test_a_signal_delivered_to_another_thread_still_ends_the_wait():
    """What hung an installed `chsr up --demo` for half an hour: the kernel handed SIGINT to a gRPC thread, and the
    main thread, blocked in Event.wait(), never ran the handler. Here the signal goes to a sleeping helper thread."""
    stop = StopSignals()
    sleeper = threading.Thread(target=time.sleep, args=(3,), daemon=True)
    sleeper.start()
    assert sleeper.ident is not None
    _later(0.1, lambda: signal.pthread_kill(sleeper.ident, signal.SIGTERM))
    started = time.monotonic()
    assert stop.wait(timeout_s=10) == signal.SIGTERM
    assert time.monotonic() - started < 2.5  # not only once the helper thread wakes


def test_without_a_signal_the_wait_times_out_and_a_signal_before_the_wait_is_kept():
    stop = StopSignals()
    assert stop.wait(timeout_s=0.3) is None and not stop.stopping
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.05)
    assert stop.wait(timeout_s=1) == signal.SIGTERM
