"""The echo server that one gRPC call is timed against (tools.bench.echo): both kinds answer and report CPU."""

from __future__ import annotations

import grpc
import pytest

from tools.bench.echo import METHOD, REPLY, EchoServer

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("kind", ["threads", "aio"])
def test_the_echo_server_answers_and_reports_its_cpu_when_stopped(kind: str) -> None:
    # port 0: the child binds any free port and says which (a fixed port collided with a parallel test lane)
    with EchoServer(kind, 0) as echo:
        assert echo.port > 0
        with grpc.insecure_channel(f"127.0.0.1:{echo.port}") as channel:
            call = channel.unary_unary(METHOD)
            assert all(call(b"q", timeout=10) == REPLY for _ in range(20))
        cpu = echo.stop()
        assert cpu >= 0.0 and echo.stop() == cpu   # stopping twice answers the same figure


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="valid: threads, aio"):
        EchoServer("fork", 0)
