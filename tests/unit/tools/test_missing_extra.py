"""A base install without the 'tools' extra: the CLI names the extra to install (issue 23)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chsr.extras import install_hint

pytestmark = pytest.mark.unit

# tqdm blocked as if it were not installed (None in sys.modules makes its import fail)
SCRIPT = "import sys; sys.modules['tqdm'] = None; from tools.cli.main import main; sys.exit(main(['search', 'x']))"


def test_the_cli_without_its_extra_says_which_extra_to_install():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "needs the 'tools' extra (missing module 'tqdm')" in proc.stderr
    assert "pip install 'chsr[tools]'" in proc.stderr and "Traceback" not in proc.stderr


def test_a_server_module_maps_to_its_own_extra():
    hint = install_hint(ModuleNotFoundError("No module named 'bm25s'", name="bm25s"), "the sparse server", "sparse")
    assert "the sparse server needs the 'sparse' extra" in hint
    unknown = install_hint(ModuleNotFoundError("x", name="somethingelse"), "the graph server", "graph")
    assert "'graph' extra" in unknown
