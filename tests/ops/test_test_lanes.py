"""The README test command's lanes (scripts/test_lanes.sh) run every test exactly once.

The lanes are lists of paths; a lane that drops a file, or two lanes that both take one, would pass CI while
testing less (or run a test that stops an engine beside one that uses it). Collecting each lane and the whole
suite and comparing the node ids catches both.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ops

ROOT = Path(__file__).resolve().parents[2]


def _collect(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return [line for line in out.stdout.splitlines() if "::" in line]


def test_every_test_runs_in_exactly_one_lane() -> None:
    listed = subprocess.run(["bash", "scripts/test_lanes.sh", "--list", "--ids"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, env=os.environ | {"PY": sys.executable})
    assert listed.returncode == 0, listed.stderr
    lanes: dict[str, list[str]] = {}
    for line in listed.stdout.splitlines():
        lane, _, node = line.partition(" ")
        lanes.setdefault(lane, []).append(node)
    assert set(lanes) == {"local", "engines", "stops", "cluster"}
    every = [node for nodes in lanes.values() for node in nodes]
    assert len(every) == len(set(every)), "a test is in two lanes"
    assert sorted(every) == sorted(_collect())
    # the tests that stop a single-node engine run only in phase 2's "stops" lane
    assert all(n.startswith(("tests/faults/test_fault_matrix.py", "tests/faults/test_ingest_crash.py"))
               for n in lanes["stops"])
    assert not any("test_fault_matrix" in n or "test_ingest_crash" in n for n in lanes["local"] + lanes["engines"])
