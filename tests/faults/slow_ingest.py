"""A paced ingest client run as a subprocess by the crash tests, so it can be killed mid-stream.

    python -m tests.faults.slow_ingest GATEWAY CORPUS --batch-size 8 --delay 0.02

Writes ``sent N`` after each batch the stream has taken, ``done`` on success,
``error CODE`` (exit 3) when the gateway aborts the stream.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Iterator

import grpc

from chsr.client import GatewayClient
from tools.corpus import read_corpus
from chsr.documents import Doc


def paced(docs: list[Doc], delay_s: float) -> Iterator[Doc]:
    for doc in docs:
        time.sleep(delay_s)
        yield doc


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("gateway")
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--delay", type=float, default=0.02, help="seconds per document")
    args = parser.parse_args()
    sent = 0

    def progress(n: int) -> None:
        nonlocal sent
        sent += n
        sys.stdout.write(f"sent {sent}\n")
        sys.stdout.flush()

    try:
        GatewayClient(args.gateway).ingest(paced(read_corpus(args.corpus), args.delay), args.batch_size,
                                           on_batch=progress, timeout=300)
    except grpc.RpcError as exc:
        sys.stdout.write(f"error {exc.code().name} {exc.details()}\n")
        return 3
    sys.stdout.write("done\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
