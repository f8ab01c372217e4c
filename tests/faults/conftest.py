"""Collect fault-matrix and crash-test findings and show them after the run."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

_REPORTS: list[dict[str, object]] = []


@pytest.fixture(scope="session")
def fault_report(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """``fault_report(summary, samples, timeline)`` records one finding in <basetemp>/fault-matrix.json
    and the run's samples (times relative to the load's start) in <basetemp>/fault-<component>.json."""
    base = Path(tmp_path_factory.getbasetemp())

    def record(summary: dict[str, object], samples=(), timeline=None) -> None:  # type: ignore[no-untyped-def]
        _REPORTS.append(summary)
        (base / "fault-matrix.json").write_text(json.dumps(_REPORTS, indent=2))
        if timeline is not None:
            t0 = timeline.start
            rows = [{**asdict(s), "start": round(s.start - t0, 3), "end": round(s.end - t0, 3)} for s in samples]
            events = {k: round(v - t0, 3) for k, v in asdict(timeline).items() if k != "start"}
            (base / f"fault-{summary['component']}.json").write_text(json.dumps({"events": events, "samples": rows}))

    return record


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if not _REPORTS:
        return
    terminalreporter.section("fault matrix")
    for rep in _REPORTS:
        terminalreporter.write_line(json.dumps(rep))
