"""The package as users install it: the wheel in a fresh venv, run from outside the checkout.

The wheel is built from this checkout and installed with ``--no-deps`` into a fresh venv
whose third-party packages come from the test venv's site-packages through a plain path
line (a ``.pth`` path entry: the checkout's editable-install hook is *not* processed, so
``chsr`` can only come from the wheel). Then, from a temporary directory:

* ``chsr up --demo`` starts the seven servers, ingests the packaged demo corpus and answers
  the sample query (everything it reads at run time is package data);
* a server that fails at start-up makes ``chsr up`` exit non-zero with no server left running;
* ``kill -9`` of the supervisor takes its servers down with it.
"""

from __future__ import annotations

import os
import signal
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, free_port_block

pytestmark = [pytest.mark.install, pytest.mark.slow]


def _clean_env() -> dict[str, str]:
    """No CHSR_* settings and no PYTHONPATH: the installed package alone decides what runs."""
    return {k: v for k, v in os.environ.items() if not k.startswith("CHSR_") and k != "PYTHONPATH"}


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("install")
    wheels = root / "wheels"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(wheels), str(REPO_ROOT)],
                   check=True, capture_output=True, timeout=600)
    env_dir = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=120)
    py = env_dir / "bin" / "python"
    purelib = subprocess.check_output([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                      text=True).strip()
    (Path(purelib) / "chsr-test-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    wheel = next(wheels.glob("chsr-*.whl"))
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   timeout=300, cwd=root, env=_clean_env())
    where = subprocess.check_output([str(py), "-c", "import chsr, tools.demo; print(chsr.__file__, tools.demo.DEMO_CORPUS)"],
                                    text=True, cwd=root, env=_clean_env()).split()
    assert all(str(REPO_ROOT) not in p for p in where), where  # really the installed copy
    return env_dir


def _env(base: int) -> dict[str, str]:
    return _clean_env() | {"OMP_NUM_THREADS": "1"}


def _servers(base: int) -> list[int]:
    """Pids of chsr server processes bound to our port block (read from their environment)."""
    ports = {str(p) for p in range(base, base + 7)}
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(e.startswith(b"CHSR_PORT=") and e.split(b"=", 1)[1].decode() in ports for e in environ):
            found.append(int(pid))
    return found


def _up(venv: Path, tmp: Path, base: int, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([str(venv / "bin" / "chsr"), "up", "--port", str(base), "--metrics-base", str(base + 8),
                             "--data-dir", str(tmp / "data"), *extra], cwd=tmp, env=env or _env(base),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_gone(base: int, timeout_s: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _servers(base):
        time.sleep(0.5)
    return _servers(base)


def test_chsr_up_demo_runs_from_the_installed_package(venv: Path, tmp_path: Path) -> None:
    base = free_port_block(16)
    proc = _up(venv, tmp_path, base, "--demo")
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 420
        while time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                break
            lines.append(line)
            if line.startswith("try: chsr search"):
                break
        out = "".join(lines)
        assert "demo corpus:" in out and "sample query:" in out and "  1. demo:" in out, out[-3000:]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
    assert proc.returncode == 0
    assert _wait_gone(base) == []


def test_a_server_failing_at_start_up_takes_the_mesh_down(venv: Path, tmp_path: Path) -> None:
    base = free_port_block(16)
    env = _env(base) | {"CHSR_MODEL_PATH": str(tmp_path / "no-such-model")}  # only the dense server loads it
    proc = _up(venv, tmp_path, base, env=env)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode != 0 and "dense exited with" in out, out[-2000:]
    assert _wait_gone(base) == []


def test_kill_9_of_the_supervisor_takes_its_servers_with_it(venv: Path, tmp_path: Path) -> None:
    base = free_port_block(16)
    proc = _up(venv, tmp_path, base)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line or line.startswith("chsr mesh up"):
                break
        assert len(_servers(base)) == 7
    finally:
        proc.kill()
        proc.wait(30)
    assert _wait_gone(base) == []
