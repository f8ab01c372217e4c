"""Server CPU per unary gRPC call: the thread-pool server (what the mesh runs) vs a ``grpc.aio`` server.

    .venv/bin/python benchmarks/profile/grpc_call_cost.py [OUT.json]

Each server runs in its own process (``tools.bench.echo``: a generic bytes handler, 3 kB replies); a client
process sends 4,000 calls from 8 threads; the server reports the CPU it spent from when it was ready to when
the calls were done, so start-up is not counted. Writes the figures (and the machine's load) as JSON.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import grpc

from tools.bench.echo import METHOD, EchoServer

CALLS = 4000
CLIENTS = 8


def _identity(data: bytes) -> bytes:
    return data


def drive(port: int) -> float:
    """Send the calls to the echo server on ``port``; returns the wall seconds."""
    call = grpc.insecure_channel(f"127.0.0.1:{port}").unary_unary(
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
    with EchoServer(kind) as server:
        wall = drive(server.port)
        cpu = server.stop()
    return {"server": kind, "calls": CALLS, "clients": CLIENTS, "wall_s": round(wall, 3),
            "server_cpu_ms_per_call": round(cpu * 1000 / CALLS, 4)}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("benchmarks/profile/grpc_call_cost.json")
    runs = [measure(kind) for _ in range(2) for kind in ("threads", "aio")]
    out.write_text(json.dumps({"load_average_after": os.getloadavg(), "cpus": os.cpu_count(), "runs": runs},
                              indent=2) + "\n")
    sys.stdout.write(out.read_text())


if __name__ == "__main__":
    main()
