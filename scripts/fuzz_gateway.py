#!/usr/bin/env python
"""Fuzz run over the gateway's gRPC API ("Bad input"): raw byte payloads to every method.

For each GatewayService method, N payloads are sent as raw request bytes: half
purely random, half mutations (byte flips, truncation, insertion, splicing) of
a valid serialised request, which reach deeper than random noise. The report
is a status-code histogram per method, plus every case that broke the rules
(INTERNAL / UNKNOWN, or an INVALID_ARGUMENT whose message does not start with
a field name). Exit status 1 when there was any.

    .venv/bin/python scripts/fuzz_gateway.py --gateway 127.0.0.1:50051 -n 300 --out fuzz-report.json

Loopback targets only, bounded by N and a per-call deadline. The Ingest seed
document has empty text, so its mutations are almost always rejected; any
Ingest that did index something is counted (``ingest_indexed``) so a run
against a shared mesh can be cleaned up.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import grpc

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from chsr.v1 import common_pb2, gateway_pb2  # noqa: E402

log = logging.getLogger("fuzz_gateway")
FIELD_RE = re.compile(
    r"^(request|query|k|pipeline|hints(\.[a-z_]+)?|documents\[\d+\]|doc_ids|expected_ids)(?=[\s.:(]|$)")
SEEDS = {
    "Search": gateway_pb2.SearchRequest(query="Northfield physics paper 1 acceleration", k=5, pipeline="D",
                                        hints=common_pb2.Scope(subject=["physics"], year=[2019])),
    "Ingest": gateway_pb2.IngestRequest(documents=[common_pb2.Document(
        id="fuzz-seed", title="t", text="", metadata=common_pb2.Metadata(subject="physics", year=2019))]),
    "Delete": gateway_pb2.DeleteRequest(doc_ids=["fuzz-none-1", "fuzz-none-2"]),
    "IndexStats": gateway_pb2.IndexStatsRequest(),
    "VerifyIndex": gateway_pb2.VerifyIndexRequest(expected_ids=["fuzz-none-1"]),
    "ListPipelines": gateway_pb2.ListPipelinesRequest(),
}


def mutate(seed: bytes, rng: random.Random) -> bytes:
    data = bytearray(seed)
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("flip", "truncate", "insert", "splice"))
        if op == "flip" and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif op == "truncate" and data:
            del data[rng.randrange(len(data)):]
        elif op == "insert":
            pos = rng.randint(0, len(data))
            data[pos:pos] = rng.randbytes(rng.randint(1, 16))
        elif op == "splice" and data:
            start = rng.randrange(len(data))
            data.extend(data[start:start + rng.randint(1, 32)])
    return bytes(data)


def payloads(method: str, n: int, rng: random.Random, max_bytes: int) -> list[bytes]:
    seed = SEEDS[method].SerializeToString()
    return [rng.randbytes(rng.randint(0, max_bytes)) if i % 2 == 0 else mutate(seed, rng) for i in range(n)]


def call(channel: grpc.Channel, method: str, payload: bytes, timeout_s: float) -> tuple[str, str, int]:
    """(code, details, documents indexed by an Ingest that succeeded)."""
    path = f"/chsr.v1.GatewayService/{method}"
    try:
        if method == "Ingest":
            raw = channel.stream_unary(path)(iter([payload]), timeout=timeout_s)
            return "OK", "", gateway_pb2.IngestSummary.FromString(raw).indexed
        channel.unary_unary(path)(payload, timeout=timeout_s)
    except grpc.RpcError as exc:
        return exc.code().name, exc.details() or "", 0
    return "OK", "", 0


def is_violation(code: str, details: str) -> bool:
    return code in {"INTERNAL", "UNKNOWN"} or (code == "INVALID_ARGUMENT" and not FIELD_RE.match(details))


def run(gateway: str, n: int, seed: int, max_bytes: int, timeout_s: float) -> dict[str, object]:
    rng = random.Random(seed)
    channel = grpc.insecure_channel(gateway)
    per_method: dict[str, Counter[str]] = {}
    violations: list[dict[str, str]] = []
    indexed = 0
    started = time.monotonic()
    for method in SEEDS:
        codes: Counter[str] = Counter()
        for payload in payloads(method, n, rng, max_bytes):
            code, details, docs = call(channel, method, payload, timeout_s)
            codes[code] += 1
            indexed += docs
            if is_violation(code, details):
                violations.append({"method": method, "code": code, "details": details[:300],
                                   "payload_hex": payload[:256].hex()})
        per_method[method] = codes
        log.info("method done", extra={"method": method, "codes": dict(codes)})
    channel.close()
    total: Counter[str] = Counter()
    for codes in per_method.values():
        total.update(codes)
    return {"gateway": gateway, "seed": seed, "cases": sum(total.values()),
            "seconds": round(time.monotonic() - started, 1),
            "codes": dict(total), "per_method": {m: dict(c) for m, c in per_method.items()},
            "violations": violations, "ingest_indexed": indexed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gateway", default="127.0.0.1:50051")
    parser.add_argument("-n", type=int, default=200, help="payloads per method (default 200)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-bytes", type=int, default=512, help="largest random payload")
    parser.add_argument("--timeout", type=float, default=10.0, help="per-call deadline, seconds")
    parser.add_argument("--out", type=Path, default=Path("fuzz-report.json"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.gateway.startswith(("127.", "localhost", "[::1]")):
        parser.error("--gateway: fuzz only loopback addresses")
    report = run(args.gateway, args.n, args.seed, args.max_bytes, args.timeout)
    args.out.write_text(json.dumps(report, indent=2))
    sys.stdout.write(f"{report['cases']} cases in {report['seconds']}s: {report['codes']}; "
                     f"violations: {len(report['violations'])}; report: {args.out}\n")
    return 1 if report["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
