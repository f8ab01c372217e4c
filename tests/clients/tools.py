"""The Go tools the suite drives, built (once, cached) by deploy/local/tools.sh from the Go module proxy.

A missing tool skips the test with the command that builds it, or FAILS when
``CHSR_REQUIRE_ENGINES=1`` (CI: scripts/setup_and_test.sh builds the tools first and sets it),
so CI can never pass by skipping the client suite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.report import REPO_ROOT

TOOLS_SH = REPO_ROOT / "deploy" / "local" / "tools.sh"
#: A cold build of buf takes minutes on 2 cores; a cached one milliseconds.
BUILD_TIMEOUT_S = 1800


def required() -> bool:
    return os.environ.get("CHSR_REQUIRE_ENGINES") == "1"


def require(ok: bool, reason: str) -> None:
    """Skip with ``reason`` unless CHSR_REQUIRE_ENGINES=1, then fail instead."""
    if ok:
        return
    if required():
        pytest.fail(f"{reason} (CHSR_REQUIRE_ENGINES=1: the client suite must run)", pytrace=False)
    pytest.skip(reason)


def go_tool(name: str) -> Path:
    """The cached binary of ``name``; built now when Go is installed and it is not cached yet."""
    found = subprocess.run(["bash", str(TOOLS_SH), "path", name], capture_output=True, text=True)
    if found.returncode != 0 and shutil.which("go"):
        found = subprocess.run(["bash", str(TOOLS_SH), "install", name], capture_output=True, text=True,
                               timeout=BUILD_TIMEOUT_S)
    require(found.returncode == 0, f"{name} not available: run `deploy/local/tools.sh install {name}` "
                                   f"(needs Go); {found.stderr.strip()[-300:]}")
    return Path(found.stdout.strip().splitlines()[-1])


def go_binary() -> Path:
    found = shutil.which("go")
    require(found is not None, "the go toolchain is not on PATH (the Go client tests need it)")
    return Path(found)  # type: ignore[arg-type]
