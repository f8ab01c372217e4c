import threading

import numpy as np
import pytest

from services.dense.batcher import MicroBatcher

pytestmark = pytest.mark.unit


def test_concurrent_requests_share_batches_and_keep_order():
    calls = []

    def encode(texts):
        calls.append(list(texts))
        return np.array([[float(len(t))] for t in texts])

    b = MicroBatcher(encode, max_batch=8, max_wait_ms=20)
    results = {}

    def worker(text):
        results[text] = b.encode(text, timeout=5)

    threads = [threading.Thread(target=worker, args=("x" * n,)) for n in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results["x" * n][0] == n for n in range(1, 9))
    assert sum(len(c) for c in calls) == 8
    assert len(calls) < 8  # at least some requests were batched together


def test_errors_reach_every_waiter():
    def boom(texts):
        raise RuntimeError("encoder down")

    b = MicroBatcher(boom, max_wait_ms=1)
    with pytest.raises(RuntimeError, match="encoder down"):
        b.encode("q", timeout=5)


def test_query_vector_cache_lru_and_off():
    from services.dense.query_cache import QueryVectorCache

    off = QueryVectorCache(0)
    off.put("a", np.ones(2))
    assert off.get("a") is None
    c = QueryVectorCache(2)
    c.put("a", np.ones(2))
    c.put("b", np.zeros(2))
    assert c.get("a") is not None  # a is now most recent
    c.put("c", np.ones(2))
    assert c.get("b") is None and c.get("a") is not None and c.hits == 2
