"""Result cache on Redis: cache-aside with TTL, generation-versioned keys, stampede locks.

Why it looks like this ("Cache on Redis"):

* Values are ``SET key value EX ttl``; keys come from :func:`gateway.cache.base.cache_key`
  (``chsr:v1:g<generation>:search:<sha256>``), so bumping the generation (``INCR
  chsr:v1:generation``, done by ingest) makes every older entry unreachable at once; the old
  entries then age out by TTL (and ``allkeys-lru`` in deploy/local) instead of being scanned.
* Stampede protection: the first request that misses a hot key takes
  ``SET <key>:lock <token> NX PX ttl`` and computes; the others briefly poll for its result
  (gateway/search.py). The unlock deletes the lock only if it still holds our token (a
  compare-and-delete script), so a slow holder never releases somebody else's lock.
* Redis is a cache, never a dependency: socket connect and operation timeouts are 0.2 s,
  there are no client retries, and every Redis error is :class:`CacheUnavailable`, which the
  gateway turns into a bypass flagged ``cache_unavailable`` (degraded, not an error).
* High availability through Sentinel (``CHSR_REDIS_SENTINELS``): the client asks the Sentinels for
  the primary and re-asks after a connection error, so after a failover the cache is back as soon
  as a replica is promoted; meanwhile lookups are bypassed and flagged. A Sentinel that answers but
  names no primary for ``CHSR_REDIS_SENTINEL_MASTER`` is a configuration error and stops the
  gateway at start-up; Sentinels that cannot be reached only make the cache unavailable. Replication
  is asynchronous, so a generation bump waits (``WAIT``, bounded) for one replica: a failover never
  resurrects results cached before an ingest. Redis Cluster is not used: the cache is small
  (hundreds of MB) and needs no sharding, only a standby.
"""

from __future__ import annotations

import threading
import uuid
from contextlib import contextmanager
from typing import Iterator

import logging
from urllib.parse import urlparse

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import Sentinel

from chsr.config import Settings
from chsr.errors import FailedPrecondition
from gateway.cache.base import NAMESPACE, CacheUnavailable

GENERATION_KEY = f"{NAMESPACE}:generation"
log = logging.getLogger(__name__)
WAIT_REPLICA_MS = 100  # a generation bump waits this long for one replica to have it (Sentinel mode)
_UNLOCK_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class RedisCache:
    name = "redis"

    def __init__(self, url: str, *, connect_timeout_s: float = 0.2, op_timeout_s: float = 0.2,
                 sentinels: str = "", master: str = "chsr") -> None:
        self._url = url
        self._sentinel: Sentinel | None = None
        options = dict(socket_connect_timeout=connect_timeout_s, socket_timeout=op_timeout_s,
                       retry=Retry(NoBackoff(), 0), retry_on_timeout=False, health_check_interval=0)
        if sentinels:
            addrs = [_host_port(a) for a in sentinels.split(",") if a.strip()]
            # redis-py's default client retries 3 times with up to 10 s backoff: never, for a cache.
            sentinel_options = dict(socket_timeout=op_timeout_s, socket_connect_timeout=connect_timeout_s,
                                    retry=Retry(NoBackoff(), 0))
            self._sentinel = Sentinel(addrs, sentinel_kwargs=sentinel_options, **sentinel_options)  # type: ignore[arg-type]
            self._master = master
            db = int((urlparse(url).path or "/0").lstrip("/") or 0)
            self._redis = self._sentinel.master_for(master, db=db, **options)  # type: ignore[arg-type]
        else:
            self._redis = redis.Redis.from_url(url, **options)  # type: ignore[arg-type]
        self._tokens: dict[tuple[str, int], str] = {}  # (key, thread) -> lock token we hold
        self._tokens_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> "RedisCache":
        """Timeouts come from optional settings fields (``CHSR_REDIS_TIMEOUT_S``); default 0.2 s."""
        timeout = settings.redis_timeout_s
        cache = cls(settings.redis_url, connect_timeout_s=timeout, op_timeout_s=timeout,
                    sentinels=settings.redis_sentinels, master=settings.redis_sentinel_master)
        cache.check()
        return cache

    def check(self) -> None:
        """Start-up check (Sentinel mode): a Sentinel that answers must name the primary.

        Raises :class:`FailedPrecondition` when every Sentinel that answered knows no primary by this
        name (a typo or an unmonitored name would otherwise bypass the cache forever, silently);
        unreachable Sentinels are logged: the cache is best-effort and comes back with them."""
        if self._sentinel is None:
            return
        answered, named = [], []
        for sentinel in self._sentinel.sentinels:
            addr = f"{sentinel.connection_pool.connection_kwargs['host']}:{sentinel.connection_pool.connection_kwargs['port']}"
            try:
                masters = sentinel.sentinel_masters()
            except (redis.RedisError, OSError):
                continue
            answered.append(addr)
            if self._master in masters:
                named.append(addr)
        if answered and not named:
            raise FailedPrecondition(f"redis: the Sentinels at {', '.join(answered)} monitor no primary named "
                                     f"{self._master!r} (CHSR_REDIS_SENTINEL_MASTER)")
        if not answered:
            log.warning("redis: no Sentinel reachable at start-up; the cache is bypassed until one is",
                        extra={"master": self._master})

    @contextmanager
    def _guard(self, what: str) -> Iterator[None]:
        try:
            yield
        except (redis.RedisError, OSError) as exc:
            raise CacheUnavailable(f"redis {what}: {type(exc).__name__}: {exc}") from exc

    # ---- ResultCache -----------------------------------------------------------
    def get(self, key: str) -> bytes | None:
        with self._guard("get"):
            return self._redis.get(key)

    def set(self, key: str, value: bytes, ttl_s: int) -> None:
        with self._guard("set"):
            self._redis.set(key, value, ex=max(1, int(ttl_s)))

    def generation(self) -> int:
        with self._guard("generation"):
            raw = self._redis.get(GENERATION_KEY)
        return int(raw) if raw is not None else 0

    def bump_generation(self) -> int:
        with self._guard("bump_generation"):
            generation = int(self._redis.incr(GENERATION_KEY))
            if self._sentinel is not None:  # replicated asynchronously: make the bump survive a failover
                self._redis.execute_command("WAIT", 1, WAIT_REPLICA_MS)
            return generation

    def lock(self, key: str, ttl_ms: int) -> bool:
        token = uuid.uuid4().hex
        with self._guard("lock"):
            acquired = bool(self._redis.set(f"{key}:lock", token, nx=True, px=max(1, int(ttl_ms))))
        if acquired:
            with self._tokens_lock:
                self._tokens[(key, threading.get_ident())] = token
        return acquired

    def unlock(self, key: str) -> None:
        with self._tokens_lock:
            token = self._tokens.pop((key, threading.get_ident()), None)
        if token is None:
            return
        with self._guard("unlock"):
            self._redis.eval(_UNLOCK_SCRIPT, 1, f"{key}:lock", token)

    # ---- operations --------------------------------------------------------------
    def ping(self) -> bool:
        with self._guard("ping"):
            return bool(self._redis.ping())

    def close(self) -> None:
        self._redis.close()


def _host_port(addr: str) -> tuple[str, int]:
    host, _, port = addr.strip().rpartition(":")
    return host or "127.0.0.1", int(port)
