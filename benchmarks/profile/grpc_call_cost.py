"""Server CPU per unary gRPC call: the thread-pool server (what the mesh runs) vs a ``grpc.aio`` server.

    .venv/bin/python benchmarks/profile/grpc_call_cost.py [OUT.json]

Each server runs in its own process (a generic bytes handler, 3 kB replies); a client process sends 4,000
calls from 8 threads; the server's CPU is read from ``/proc/self`` before and after the calls, so start-up
is not counted. Writes the figures (and the machine's load) as JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from concurrent import futures
from pathlib import Path

import grpc

REPLY = b"x" * 3000
CALLS = 4000
CLIENTS = 8
PORT = 50991
METHOD = "/bench.Echo/Call"


def _cpu_s() -> float:
    return sum(os.times()[:2])


def _identity(data: bytes) -> bytes:
    return data


def _handlers(behaviour) -> grpc.GenericRpcHandler:  # type: ignore[no-untyped-def]
    return grpc.method_handlers_generic_handler(
        "bench.Echo", {"Call": grpc.unary_unary_rpc_method_handler(behaviour, _identity, _identity)})


def _report_cpu(start: float) -> None:
    """Wait for the parent's line on stdin, then answer the CPU spent since ``start``."""
    sys.stdin.readline()
    sys.stdout.write(f"{_cpu_s() - start}\n")
    sys.stdout.flush()


def serve_threads() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers((_handlers(lambda request, context: REPLY),))
    server.add_insecure_port(f"127.0.0.1:{PORT}")
    server.start()
    start = _cpu_s()
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    _report_cpu(start)


def serve_aio() -> None:
    async def reply(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return REPLY

    async def run() -> None:
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((_handlers(reply),))
        server.add_insecure_port(f"127.0.0.1:{PORT}")
        await server.start()
        start = _cpu_s()
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        await asyncio.get_running_loop().run_in_executor(None, _report_cpu, start)

    asyncio.run(run())


def drive() -> float:
    """Send the calls; returns the wall seconds."""
    call = grpc.insecure_channel(f"127.0.0.1:{PORT}").unary_unary(
        METHOD, request_serializer=_identity, response_deserializer=_identity)
    call(b"warm-up", timeout=5)

    def worker() -> None:
        for _ in range(CALLS // CLIENTS):
            call(b"q" * 200, timeout=5)

    began = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - began


def measure(kind: str) -> dict[str, float | str]:
    server = subprocess.Popen([sys.executable, __file__, f"--serve-{kind}"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None and server.stdin is not None
    server.stdout.readline()  # "ready"
    wall = drive()
    server.stdin.write("\n")
    server.stdin.flush()
    cpu = float(server.stdout.readline())
    server.wait(timeout=10)
    return {"server": kind, "calls": CALLS, "clients": CLIENTS, "wall_s": round(wall, 3),
            "server_cpu_ms_per_call": round(cpu * 1000 / CALLS, 4)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1].startswith("--serve-"):
        {"--serve-threads": serve_threads, "--serve-aio": serve_aio}[sys.argv[1]]()
        return
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("benchmarks/profile/grpc_call_cost.json")
    runs = [measure(kind) for _ in range(2) for kind in ("threads", "aio")]
    out.write_text(json.dumps({"load_average_after": os.getloadavg(), "cpus": os.cpu_count(), "runs": runs},
                              indent=2) + "\n")
    sys.stdout.write(out.read_text())


if __name__ == "__main__":
    main()
