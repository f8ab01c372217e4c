"""`chsr up` starts each server without running Python in the forked child."""

import shutil
import subprocess
import sys
import time

import pytest

from tools.cli import up_cmd

pytestmark = pytest.mark.unit


@pytest.mark.skipif(not shutil.which("setpriv"), reason="setpriv (util-linux) not installed")
def test_servers_start_through_setpriv_with_no_preexec_function() -> None:
    argv, preexec = up_cmd.server_command("gateway.server")
    assert preexec is None
    assert argv[:4] == [shutil.which("setpriv"), "--pdeathsig", "TERM", "--"]
    assert argv[4:] == [sys.executable, "-m", "gateway.server"]


def test_without_setpriv_the_parent_death_signal_is_set_in_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(up_cmd, "_SETPRIV", None)
    argv, preexec = up_cmd.server_command("gateway.server")
    assert argv == [sys.executable, "-m", "gateway.server"]
    assert preexec is up_cmd._die_with_parent


@pytest.mark.skipif(not shutil.which("setpriv"), reason="setpriv (util-linux) not installed")
def test_the_child_gets_sigterm_when_its_parent_dies() -> None:
    """A parent (sh) starts a child through setpriv and dies: the child is killed, not orphaned."""
    script = ("import subprocess, sys; from tools.cli.up_cmd import _SETPRIV; "
              "p = subprocess.Popen([_SETPRIV, '--pdeathsig', 'TERM', '--', 'sleep', '30']); print(p.pid, flush=True)")
    parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    pid = int(parent.stdout.strip())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split()[2] == "Z":
                    break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        subprocess.run(["kill", "-9", str(pid)], check=False)
        pytest.fail(f"child {pid} outlived its parent")


def test_a_port_another_server_listens_on_is_waited_for_then_refused_by_name() -> None:
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        assert not up_cmd.port_free("127.0.0.1", port)
        started = time.monotonic()
        with pytest.raises(RuntimeError, match=rf"dense gRPC {port} .*another mesh or server still listens there"):
            up_cmd.wait_ports_free("127.0.0.1", {"dense gRPC": port}, timeout_s=0.5)
        assert time.monotonic() - started >= 0.5
    assert up_cmd.port_free("127.0.0.1", port)
    up_cmd.wait_ports_free("127.0.0.1", {"dense gRPC": port, "no metrics": 0}, timeout_s=0.5)   # free: returns at once
