"""Count the bad-input cases run and the status codes they got (issue 7: "report the number of cases")."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

_CASES: dict[str, Counter[str]] = defaultdict(Counter)


@pytest.fixture(scope="session")
def fuzz_log(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """``fuzz_log(test, code)`` counts one case; totals go to <basetemp>/fuzz-summary.json."""
    path = Path(tmp_path_factory.getbasetemp()) / "fuzz-summary.json"

    def record(test: str, code: str) -> None:
        _CASES[test][code] += 1
        path.write_text(json.dumps(summary(), indent=2))

    return record


def summary() -> dict[str, object]:
    total = Counter[str]()
    for codes in _CASES.values():
        total.update(codes)
    return {"cases": sum(total.values()), "codes": dict(total), "by_test": {k: dict(v) for k, v in _CASES.items()}}


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if not _CASES:
        return
    terminalreporter.section("gateway bad-input cases")
    data = summary()
    terminalreporter.write_line(f"cases run: {data['cases']}  status codes: {data['codes']}")
    for test, codes in sorted(data["by_test"].items()):  # type: ignore[union-attr]
        terminalreporter.write_line(f"  {test}: {sum(codes.values())} {codes}")
