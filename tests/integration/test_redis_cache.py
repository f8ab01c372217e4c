"""RedisCache against the real server (database 15), plus the gateway's use of it (issue 3, "Cache on Redis")."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from chsr.config import Settings
from chsr.scope import Scope
from chsr.v1 import gateway_pb2
from gateway.budget import Budget
from gateway.cache.base import CacheUnavailable, cache_key
from gateway.cache.redis_cache import GENERATION_KEY, RedisCache

pytestmark = pytest.mark.integration

FAIL_FAST_S = 1.0  # 0.2 s socket timeouts and no retries: far below any request deadline


@pytest.fixture()
def cache(redis_url: str):  # type: ignore[no-untyped-def]
    c = RedisCache(redis_url)
    yield c
    c.close()


def _key() -> str:
    return f"chsr:v1:test:{uuid.uuid4().hex}"


def _service(cache):  # type: ignore[no-untyped-def]
    from gateway.search import SearchService
    return SearchService(stubs=None, cache=cache, settings=Settings())  # type: ignore[arg-type]


@pytest.mark.redis
def test_get_set_and_ttl_expiry(cache: RedisCache) -> None:
    key = _key()
    assert cache.get(key) is None
    cache.set(key, b"\x00payload", ttl_s=1)
    assert cache.get(key) == b"\x00payload"
    assert 0 < cache._redis.pttl(key) <= 1000  # SET ... EX 1
    time.sleep(1.2)
    assert cache.get(key) is None


@pytest.mark.redis
def test_generation_bump_makes_old_entries_unreachable(cache: RedisCache, redis_url: str) -> None:
    gen = cache.generation()
    old = cache_key("newton's second law", Scope.from_dict({"subject": "physics"}), "rrf", 10, False, gen)
    cache.set(old, b"stale", ttl_s=60)
    other_process = RedisCache(redis_url)
    assert other_process.bump_generation() == gen + 1  # ingest on another gateway replica
    assert cache.generation() == gen + 1 and cache._redis.get(GENERATION_KEY) == str(gen + 1).encode()
    new = cache_key("newton's second law", Scope.from_dict({"subject": "physics"}), "rrf", 10, False,
                    cache.generation())
    assert new != old and new.startswith(f"chsr:v1:g{gen + 1}:search:")
    assert cache.get(new) is None
    other_process.close()


@pytest.mark.redis
def test_lock_is_nx_expires_and_only_the_holder_unlocks(cache: RedisCache, redis_url: str) -> None:
    key, other = _key(), RedisCache(redis_url)
    assert cache.lock(key, ttl_ms=5000)
    assert not other.lock(key, ttl_ms=5000) and not cache.lock(key, ttl_ms=5000)
    other.unlock(key)  # not the holder: a no-op
    assert not other.lock(key, ttl_ms=5000)
    cache.unlock(key)
    assert other.lock(key, ttl_ms=150)
    time.sleep(0.3)  # the holder died: the lock expires by PX
    assert cache.lock(key, ttl_ms=5000)
    other.unlock(key)  # its lock expired and was taken over: must not release ours
    assert not other.lock(key, ttl_ms=5000)
    cache.unlock(key)
    other.close()


@pytest.mark.redis
def test_stampede_waiters_get_the_holders_answer(cache: RedisCache, redis_url: str) -> None:
    service, key = _service(cache), _key()
    answer = gateway_pb2.SearchResponse(pipeline="rrf", index_generation=7)
    locked, cached = service._single_flight(key, Budget(2.0))
    assert (locked, cached) == (True, None)
    threading.Timer(0.05, lambda: cache.set(key, answer.SerializeToString(), 60)).start()
    waiter = _service(RedisCache(redis_url))
    start = time.perf_counter()
    locked2, cached2 = waiter._single_flight(key, Budget(2.0))
    assert not locked2 and cached2 is not None and cached2.cache_hit and cached2.index_generation == 7
    assert time.perf_counter() - start < 0.15 + 0.05
    service._cache_unlock(key)


@pytest.mark.redis
def test_stampede_waiter_computes_itself_when_the_holder_is_slow(cache: RedisCache) -> None:
    service, key = _service(cache), _key()
    assert cache.lock(key, ttl_ms=5000)
    start = time.perf_counter()
    assert service._single_flight(key, Budget(2.0)) == (False, None)
    assert 0.1 <= time.perf_counter() - start < 0.5  # waited ~150 ms, then gave up
    cache.unlock(key)


def test_redis_down_is_cache_unavailable_fast(closed_port: int) -> None:
    down = RedisCache(f"redis://127.0.0.1:{closed_port}/0")
    for call in (lambda: down.get("k"), lambda: down.set("k", b"v", 5), down.generation, down.bump_generation,
                 lambda: down.lock("k", 100), down.ping):
        start = time.perf_counter()
        with pytest.raises(CacheUnavailable):
            call()
        assert time.perf_counter() - start < FAIL_FAST_S


def test_gateway_bypasses_a_down_redis_with_a_degraded_flag(closed_port: int) -> None:
    from gateway.request import plan_search

    service = _service(RedisCache(f"redis://127.0.0.1:{closed_port}/0"))
    plan = plan_search(gateway_pb2.SearchRequest(query="photosynthesis", k=5), Settings())
    cached, key, degraded = service._cache_lookup(plan)
    assert (cached, key, degraded) == (None, None, ["cache_unavailable"])
    assert service._cache_generation() == -1
