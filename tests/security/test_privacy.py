"""No query text in metric labels or in INFO logs; cache keys namespaced (issue 7, security).

A search carrying a unique marker goes through the running mesh (a normal
search, an invalid one and a cached repeat); then every service's /metrics
and every service log (written at INFO) must be free of the marker.
"""

from __future__ import annotations

import urllib.request
import uuid

import grpc
import pytest

from tools.cli.up_cmd import SERVICES
from chsr.client import GatewayClient
from chsr.scope import Scope
from gateway.cache.base import cache_key

pytestmark = [pytest.mark.security, pytest.mark.slow]


@pytest.fixture(scope="module")
def marker(mesh) -> str:  # type: ignore[no-untyped-def]
    mark = f"zq{uuid.uuid4().hex[:10]}"
    client = GatewayClient(mesh.gateway)
    query = f"{mark} Northfield physics paper 1 acceleration of a car"
    for pipeline in ("D", "E", "rrf"):
        client.search(query, k=5, pipeline=pipeline)
        client.search(query, k=5, pipeline=pipeline)  # cached path too
    with pytest.raises(grpc.RpcError):
        client.search(query, k=0)                      # invalid-argument path
    with pytest.raises(grpc.RpcError):
        client.search(query, k=5, pipeline=mark)       # unknown pipeline named in the error, not in labels
    return mark


def test_query_text_is_not_in_any_metric(mesh, marker) -> None:  # type: ignore[no-untyped-def]
    for name in SERVICES:
        body = urllib.request.urlopen(mesh.metrics_url(name), timeout=10).read().decode()
        assert "chsr_" in body
        assert marker not in body, f"query text in {name} /metrics"


def test_query_text_is_not_in_info_logs(mesh, marker) -> None:  # type: ignore[no-untyped-def]
    log_dir = mesh.data_dir.parent / "logs"
    logs = {p.name: p.read_text(errors="replace") for p in sorted(log_dir.glob("*.log"))}
    assert set(logs) >= {f"{name}.log" for name in SERVICES}
    assert any('"level": "info"' in text for text in logs.values()), "logs are not written at INFO"
    for name, text in logs.items():
        assert marker not in text, f"query text in {name}"


def test_cache_keys_are_namespaced_and_hide_the_query() -> None:
    key = cache_key("What is the SECRET formula?", Scope(subject=("physics",)), "D", 5, False, 7)
    assert key.startswith("chsr:v1:g7:search:")
    assert "secret" not in key.lower() and "physics" not in key
