"""A trivial gRPC server in its own process, for timing what one unary call costs (issue 22).

    python -m tools.bench.echo threads|aio PORT

Answers every call to ``METHOD`` with ``REPLY`` (3 kB) from a thread-pool server (what the mesh runs:
16 workers, as ``chsr.server``) or a ``grpc.aio`` server. Prints ``ready PORT`` once serving (PORT 0: any
free port, the one bound is printed); when a line arrives on stdin it prints the CPU seconds it has spent since
``ready`` and exits. Used by
``benchmarks/profile/grpc_call_cost.py`` (thread pool vs aio) and ``tools.bench.floor`` (one call of
the floor of a C request).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from concurrent import futures
from typing import Any

import grpc

REPLY = b"x" * 3000
METHOD = "/bench.Echo/Call"
KINDS = ("threads", "aio")


def _cpu_s() -> float:
    return sum(os.times()[:2])


def _identity(data: bytes) -> bytes:
    return data


def _handlers(behaviour: Any) -> grpc.GenericRpcHandler:
    return grpc.method_handlers_generic_handler(
        "bench.Echo", {"Call": grpc.unary_unary_rpc_method_handler(behaviour, _identity, _identity)})


def _report_cpu(start: float) -> None:
    """Wait for the parent's line on stdin, then answer the CPU spent since ``start``."""
    sys.stdin.readline()
    sys.stdout.write(f"{_cpu_s() - start}\n")
    sys.stdout.flush()


def _ready(port: int) -> float:
    if not port:
        raise SystemExit("echo server: could not bind its port")
    start = _cpu_s()
    sys.stdout.write(f"ready {port}\n")
    sys.stdout.flush()
    return start


def serve_threads(port: int) -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((_handlers(lambda request, context: REPLY),))
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    _report_cpu(_ready(bound))
    server.stop(0)


def serve_aio(port: int) -> None:
    async def reply(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return REPLY

    async def run() -> None:
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((_handlers(reply),))
        bound = server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        start = _ready(bound)
        await asyncio.get_running_loop().run_in_executor(None, _report_cpu, start)
        await server.stop(0)

    asyncio.run(run())


class EchoServer:
    """``with EchoServer("threads", port) as echo: ...``: the server in a child process; ``echo.pid`` for
    ``/proc``, ``echo.port`` the port it serves (``port`` 0: any free one); ``echo.stop()`` (or leaving the
    block) ends it and returns its CPU seconds since ready."""

    def __init__(self, kind: str, port: int = 0) -> None:
        if kind not in KINDS:
            raise ValueError(f"echo server kind '{kind}'; valid: {', '.join(KINDS)}")
        self._child = subprocess.Popen([sys.executable, "-m", "tools.bench.echo", kind, str(port)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._child.stdout is not None
        first = self._child.stdout.readline().split()
        if len(first) != 2 or first[0] != "ready":
            self._child.kill()
            raise RuntimeError("echo server did not start")
        self.port = int(first[1])
        self.pid = self._child.pid
        self._cpu: float | None = None

    def stop(self) -> float:
        if self._cpu is None:
            assert self._child.stdin is not None and self._child.stdout is not None
            self._child.stdin.write("\n")
            self._child.stdin.flush()
            self._cpu = float(self._child.stdout.readline())
            self._child.wait(timeout=10)
        return self._cpu

    def __enter__(self) -> "EchoServer":
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            if self._child.poll() is None:
                self._child.kill()


def main(argv: list[str] | None = None) -> int:
    kind, port = (argv if argv is not None else sys.argv[1:])[:2]
    {"threads": serve_threads, "aio": serve_aio}[kind](int(port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
