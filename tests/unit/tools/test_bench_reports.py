"""The load report's anchor ratio and targets, and the profile's stack attribution (tools.bench)."""

from __future__ import annotations

import pytest

from tools.bench.load import anchor_ratios
from tools.bench.profile import OTHER, category, parse_collapsed, summarise_stacks
from tools.bench.report import target_rows

pytestmark = pytest.mark.unit


def run(mode: str, pipeline: str, c: int, p95: float, cache: str = "miss", qps: float = 10.0) -> dict:
    return {"mode": mode, "pipeline": pipeline, "concurrency": c, "cache": cache, "qps": qps,
            "latency_ms": {"p50": p95 / 2, "p95": p95, "p99": p95}}


def test_anchor_ratio_is_mesh_p95_over_the_anchors_at_the_same_concurrency() -> None:
    runs = [run("mesh", "C", 1, 45.0), run("mesh", "C", 8, 200.0), run("mesh", "C", 1, 1.5, cache="hit"),
            run("anchor", "weaviate_hybrid", 1, 30.0), run("anchor", "weaviate_hybrid", 8, 100.0)]
    ratios = anchor_ratios(runs)
    assert [(r["concurrency"], r["ratio"]) for r in ratios] == [(1, 1.5), (8, 2.0)]
    rows = {row[0]: row for row in target_rows(runs, [], ratios)}
    assert rows["C p95 / Weaviate hybrid p95, concurrency 1"][3] == "yes"
    assert rows["C p95 / Weaviate hybrid p95, concurrency 8"][3] == "**no**"
    assert rows["C p95 at concurrency 1, cache miss (C)"][3] == "**no**"   # 45 > 40
    assert rows["cache-hit p95 at concurrency 1 (C)"][3] == "yes"        # 1.5 <= 2


def test_a_stack_is_attributed_by_the_frame_nearest_its_leaf() -> None:
    grpc_then_encode = ["_serve (grpc/_server.py:1)", "Retrieve (services/retrieval/servicer.py:9)",
                        "encode (services/dense/onnx_encoder.py:3)", "run (onnxruntime/session.py:2)"]
    assert category(grpc_then_encode) == "encode (onnxruntime/tokenizers/torch)"
    assert category(["_serve (grpc/_server.py:1)", "SerializeToString (google/protobuf/message.py:4)"]) \
        == "protobuf (build/parse)"
    assert category(["main (somewhere.py:1)"]) == OTHER


def test_collapsed_stacks_become_cpu_ms_per_request() -> None:
    text = "a (x.py:1);b (grpc/y.py:2) 30\na (x.py:1);c (services/gate/z.py:3) 70\nnot a stack line\n"
    stacks = parse_collapsed(text)
    assert [n for _, n in stacks] == [30, 70]
    summary = summarise_stacks(stacks, rate_hz=100, requests=10)   # 100 samples at 100 Hz = 1 s over 10 requests
    assert summary["cpu_ms_per_request"] == 100.0
    assert summary["by_category_ms"] == {"gate logic": 70.0, "grpc runtime": 30.0}


def test_settle_waits_for_the_engines_to_go_idle_and_gives_up_at_the_limit():
    from tools.bench.cpu import settle

    clock = {"t": 0.0}
    busy_until = 12.0   # the engine burns one core until t = 12 s, then nothing

    def read_cpu(pid: int) -> float:
        return min(clock["t"], busy_until) if pid == 7 else 0.0   # only the engine's pid burns CPU

    def sleep(s: float) -> None:
        clock["t"] += s

    pids = {"elasticsearch": 7, "gateway": 8}
    out = settle(pids, window_s=5.0, max_wait_s=300.0, read_cpu=read_cpu, sleep=sleep)
    assert out == {"waited_s": 20.0, "cores": 0.0, "settled": 1.0}   # busy at 5, 10, (15: 0.4 cores), idle at 20
    clock["t"], busy_until = 0.0, 1e9
    out = settle(pids, window_s=5.0, max_wait_s=15.0, read_cpu=read_cpu, sleep=sleep)
    assert out["settled"] == 0.0 and out["waited_s"] == 15.0 and out["cores"] == 1.0
    assert settle({"gateway": 8}, read_cpu=read_cpu, sleep=sleep)["waited_s"] == 0.0   # no engine: nothing to wait
