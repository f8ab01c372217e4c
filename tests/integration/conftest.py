"""Engine availability for the integration tests (issue 3, "Tests").

Each engine fixture probes its server once per session. When it is unreachable the test
FAILS if ``CHSR_REQUIRE_ENGINES=1`` (CI sets it: an engine that cannot start must fail CI,
never skip silently) and skips with the reason and the start command otherwise. Addresses come
from the usual ``CHSR_*`` settings (chsr/config.py).
"""

from __future__ import annotations

import json
import os
import socket
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from chsr.config import Settings
from chsr.documents import Doc
from tests.conftest import DEMO_CORPUS

DEMO_QUERIES = DEMO_CORPUS.parent / "queries.jsonl"
PROBE_TIMEOUT_S = 2.0


def engines_required() -> bool:
    return os.environ.get("CHSR_REQUIRE_ENGINES", "") == "1"


def require_engine(engine: str, where: str, error: str | None) -> None:
    """Fail (CI) or skip (developer machine) when ``error`` says the engine is unreachable."""
    if error is None:
        return
    message = (f"{engine} unreachable at {where}: {error}. "
               f"Start it with `deploy/local/engines.sh start {engine}`")
    if engines_required():
        pytest.fail(f"{message} (CHSR_REQUIRE_ENGINES=1: engine tests must run)", pytrace=False)
    pytest.skip(message)


def _http_probe(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=PROBE_TIMEOUT_S) as resp:  # noqa: S310 (loopback URL)
            return None if resp.status < 300 else f"HTTP {resp.status}"
    except Exception as exc:  # any failure means "not usable"
        return f"{type(exc).__name__}: {exc}"


def _redis_probe(host: str, port: int) -> str | None:
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S) as sock:
            sock.settimeout(PROBE_TIMEOUT_S)
            sock.sendall(b"PING\r\n")
            reply = sock.recv(64)
        return None if reply.startswith(b"+PONG") else f"unexpected reply {reply!r}"
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def es_url(settings: Settings) -> str:
    url = settings.es_url.rstrip("/")
    require_engine("elasticsearch", url, _http_probe(f"{url}/_cluster/health?wait_for_status=yellow&timeout=1s"))
    return url


@pytest.fixture(scope="session")
def weaviate_addrs(settings: Settings) -> tuple[str, str]:
    http = settings.weaviate_http
    error = _http_probe(f"http://{http}/v1/.well-known/ready")
    if error is None:
        host, _, port = settings.weaviate_grpc.rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=PROBE_TIMEOUT_S).close()
        except OSError as exc:
            error = f"gRPC port {settings.weaviate_grpc}: {exc}"
    require_engine("weaviate", http, error)
    return http, settings.weaviate_grpc


@pytest.fixture(scope="session")
def redis_url(settings: Settings) -> str:
    """The configured Redis, but database 15 so tests never touch a dev gateway's keys (db 0)."""
    base = settings.redis_url.rsplit("/", 1)[0] if settings.redis_url.count("/") > 2 else settings.redis_url
    host_port = base.split("://", 1)[1].split("@")[-1]
    host, _, port = host_port.rpartition(":")
    require_engine("redis", base, _redis_probe(host or "127.0.0.1", int(port or 6379)))
    return f"{base}/15"


@pytest.fixture()
def closed_ports() -> tuple[int, int]:
    """Two distinct loopback ports nobody listens on (for "engine unreachable" checks)."""
    with socket.socket() as a, socket.socket() as b:
        a.bind(("127.0.0.1", 0))
        b.bind(("127.0.0.1", 0))
        return a.getsockname()[1], b.getsockname()[1]


@pytest.fixture()
def closed_port(closed_ports: tuple[int, int]) -> int:
    return closed_ports[0]


@pytest.fixture(scope="session")
def run_id() -> str:
    """Unique per test session: index/collection names never collide with real data or other runs."""
    return uuid.uuid4().hex[:10]


@dataclass(frozen=True)
class DemoData:
    docs: list[Doc]
    queries: list[dict]

    @property
    def by_id(self) -> dict[str, Doc]:
        return {d.id: d for d in self.docs}


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def demo() -> DemoData:
    return DemoData(docs=[Doc.from_json(o) for o in _read_jsonl(DEMO_CORPUS)], queries=_read_jsonl(DEMO_QUERIES))
