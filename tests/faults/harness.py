"""Fault-test plumbing: bounded background load, stopping and restarting parts of the mesh.

Everything stays on loopback and is bounded in time and request count (issue 7;
the machine's brief: load tests send traffic only to 127.0.0.0/8 and stop by
themselves). The load is deliberately small: 2 workers with a think time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from typing import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tools.bench.driver import ClosedLoop, Sample, search_sample
from tools.bench.queries import demo_queries
from chsr.v1 import gateway_pb2, gateway_pb2_grpc
from tests.conftest import REPO_ROOT
from tests.faults.outage import Timeline, unaffected_by

DEADLINE_S = 2.0        # client deadline of every load request
SLACK_MS = 250          # allowed overrun of that deadline
RECOVERY_S = 5.0        # back to normal within this long after health SERVING (issue 7)
WORKERS = 2
THINK_S = 0.15
MAX_REQUESTS = 1500     # hard cap per run (about 10 req/s for 150 s)
PRE_S, OUTAGE_S = 2.0, 3.0
# OpenMP's default active wait makes the dense service's two torch threads spin on this shared 2-core
# machine (a query then costs ~150 ms of CPU instead of ~35 ms; chsr bench load --levers shows it);
# the test meshes run with the passive policy so stage deadlines are missed by faults, not by spinning.
MESH_ENV = {"OMP_WAIT_POLICY": "PASSIVE"}
ENGINES_SH = REPO_ROOT / "deploy" / "local" / "engines.sh"
HINTS = gateway_pb2.SearchRequest(hints={"subject": ["physics"]}).hints

HealthCheck = Callable[[], bool]


def search_load(gateway: str, pipeline: str = "D", no_cache: bool = True, max_s: float = 150.0) -> ClosedLoop:
    """Alternate requests without hints ("plain") and with a subject hint ("hints")."""
    channel = grpc.insecure_channel(gateway)
    stub = gateway_pb2_grpc.GatewayServiceStub(channel)
    queries = demo_queries()

    def call(worker: int, seq: int) -> Sample:
        req = gateway_pb2.SearchRequest(query=queries[seq % len(queries)], k=5, pipeline=pipeline,
                                        no_cache=no_cache)
        label = "hints" if seq % 2 else "plain"
        if label == "hints":
            req.hints.CopyFrom(HINTS)
        return search_sample(stub, req, DEADLINE_S, worker, label)

    return ClosedLoop(call, WORKERS, max_s, MAX_REQUESTS, THINK_S)


def grpc_serving(addr: str) -> HealthCheck:
    def check() -> bool:
        with grpc.insecure_channel(addr) as chan:
            try:
                resp = health_pb2_grpc.HealthStub(chan).Check(health_pb2.HealthCheckRequest(), timeout=0.5)
            except grpc.RpcError:
                return False
        return resp.status == health_pb2.HealthCheckResponse.SERVING
    return check


def http_ok(url: str) -> HealthCheck:
    def check() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                return resp.status == 200
        except OSError:
            return False
    return check


def redis_ok(url: str) -> HealthCheck:
    def check() -> bool:
        import redis
        try:
            return bool(redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False
    return check


def wait_until(check: HealthCheck, timeout_s: float, interval_s: float = 0.1) -> float:
    """Poll ``check``; return the monotonic time it first passed (raises on timeout)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return time.monotonic()
        time.sleep(interval_s)
    raise TimeoutError(f"not healthy within {timeout_s:.0f}s")


def stop_process(proc: subprocess.Popen, sig: signal.Signals, timeout_s: float = 20) -> float:
    proc.send_signal(sig)
    try:
        proc.wait(timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout_s)
    return time.monotonic()


def engines_cmd(action: str, engine: str, timeout_s: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(ENGINES_SH), action, engine], capture_output=True, text=True,
                          timeout=timeout_s, check=False)


def settle_and_stop(load: ClosedLoop, tl: Timeline, flag: str, min_after_s: float = 2.0, tail: int = 6) -> list[Sample]:
    """Keep the load on after health SERVING until an unaffected tail (with a fully normal answer)
    shows or the recovery window (plus a margin) has passed, then stop it."""
    limit = tl.healthy + RECOVERY_S + 1.5
    ok = unaffected_by(flag, DEADLINE_S)
    while time.monotonic() < limit:
        time.sleep(0.25)
        after = [s for s in load.samples() if s.start >= tl.healthy]
        if (time.monotonic() > tl.healthy + min_after_s and len(after) >= tail
                and all(ok(s) for s in after[-tail:]) and any(s.normal for s in after)):
            break
    load.stop()
    return load.join(DEADLINE_S + 5)


def engines_down() -> list[str]:
    return [name for name, ok in ENGINE_HEALTH.items() if not ok()]


def require_engines() -> None:
    """Skip when an engine is not running, or fail when CHSR_REQUIRE_ENGINES=1 (CI starts them)."""
    import pytest

    down = engines_down() if ENGINES_SH.exists() else ["deploy/local/engines.sh missing"]
    if not down:
        return
    reason = f"engines not running: {down} (deploy/local/engines.sh start all)"
    if os.environ.get("CHSR_REQUIRE_ENGINES") == "1":
        pytest.fail(f"{reason} (CHSR_REQUIRE_ENGINES=1: engine tests must run)", pytrace=False)
    pytest.skip(reason)


def drop_engine_data(es_index: str, collection: str) -> None:
    """Remove a test's own Elasticsearch index and Weaviate collection (loopback HTTP)."""
    # explicit names: ES 8 refuses wildcard deletes (action.destructive_requires_name)
    for url in (f"http://127.0.0.1:19200/{es_index}", f"http://127.0.0.1:19200/{es_index}-meta",
                f"http://127.0.0.1:18080/v1/schema/{collection}", f"http://127.0.0.1:18080/v1/schema/{collection}Meta"):
        try:
            urllib.request.urlopen(urllib.request.Request(url, method="DELETE"), timeout=10).close()
        except OSError:
            pass


ENGINE_HEALTH: dict[str, HealthCheck] = {
    "elasticsearch": http_ok("http://127.0.0.1:19200/_cluster/health"),
    "weaviate": http_ok("http://127.0.0.1:18080/v1/.well-known/ready"),
    "redis": redis_ok("redis://127.0.0.1:16379/0"),
}
