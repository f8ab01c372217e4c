"""The README's client examples are the ones this suite runs (issue 10): the README shows
tests/clients/examples/{python_sync.py,python_async.py,grpcurl.sh} and the marked part of
tests/clients/go/example_test.go verbatim, and each one runs here against the mesh.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.clients.conftest import ClientMesh
from tests.clients.report import REPO_ROOT
from tests.clients.tools import go_tool

pytestmark = [pytest.mark.clients]

EXAMPLES = Path(__file__).parent / "examples"
README = REPO_ROOT / "README.md"
GO_EXAMPLE = Path(__file__).parent / "go" / "example_test.go"


def go_snippet() -> str:
    text = GO_EXAMPLE.read_text()
    body = text.split("// README:begin\n", 1)[1].split("\t// README:end", 1)[0]
    return textwrap.dedent(body)


@pytest.mark.parametrize("name", ["python_sync.py", "python_async.py", "grpcurl.sh", "go"])
def test_readme_shows_the_examples_verbatim(name: str) -> None:
    example = go_snippet() if name == "go" else (EXAMPLES / name).read_text()
    assert example.strip() in README.read_text(), (
        f"README.md's Clients section no longer shows {name} as the suite runs it; copy it over")


def example_env(cm: ClientMesh) -> dict[str, str]:
    return os.environ | {"CHSR_GATEWAY": cm.gateway, "GATEWAY": cm.gateway, "CHSR_INGEST_TOKEN": cm.token,
                         "PYTHONPATH": str(REPO_ROOT)}


@pytest.mark.parametrize("name", ["python_sync.py", "python_async.py"])
def test_python_examples_run(client_mesh: ClientMesh, name: str) -> None:
    out = subprocess.run([sys.executable, str(EXAMPLES / name)], env=example_env(client_mesh), capture_output=True,
                         text=True, timeout=120, cwd=REPO_ROOT)
    ok = out.returncode == 0 and "deleted" in out.stdout
    client_mesh.record("README example", f"{name}: Search, IngestWithProgress, Delete"
                       + (", IndexStats" if "async" in name else ""), "as shown", "OK" if ok else "FAILED", ok)
    assert ok, out.stdout + out.stderr
    if name == "python_sync.py":
        assert "INVALID_ARGUMENT k k: must be in 1..100, got 0" in out.stdout, out.stdout
        assert "deleted 3" in out.stdout, out.stdout
    else:
        assert "deleted 2" in out.stdout, out.stdout


def test_grpcurl_examples_run(client_mesh: ClientMesh) -> None:
    """Each paragraph of grpcurl.sh runs; the last one is the bad request (grpcurl exits 64 + 3)."""
    grpcurl = go_tool("grpcurl")
    env = example_env(client_mesh) | {"PATH": f"{grpcurl.parent}:{os.environ.get('PATH', '')}"}
    paragraphs = [p for p in (EXAMPLES / "grpcurl.sh").read_text().split("\n\n") if p.strip()]
    for i, paragraph in enumerate(paragraphs):
        title = paragraph.splitlines()[0].lstrip("# ")
        out = subprocess.run(["bash", "-euo", "pipefail", "-c", paragraph], env=env, capture_output=True, text=True,
                             timeout=120)
        last = i == len(paragraphs) - 1
        ok = (out.returncode == 67 and "Code: InvalidArgument" in out.stderr and "chsr-field: k" in out.stdout
              if last else out.returncode == 0)
        client_mesh.record("README example", "grpcurl.sh", title, f"exit {out.returncode}", ok)
        assert ok, f"paragraph {i} ({title}) exit {out.returncode}:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
