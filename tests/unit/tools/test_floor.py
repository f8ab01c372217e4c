"""The floor of a C request from its parts (issue 22): the arithmetic, and the load report it is set beside."""

from __future__ import annotations

import json

import pytest

from tools.bench.floor import C_CALLS, Part, compose, floor_by_process, mesh_measured, time_part

pytestmark = pytest.mark.unit


def _part(name: str, wall: float, client: float, engine: float = 0.0) -> Part:
    return Part(name, 10, wall, wall * 2, client, engine)


def _parts(**extra: Part) -> dict[str, Part]:
    return {"encode": _part("encode", 6.0, 6.0), "es_probe": _part("es_probe", 4.0, 1.0, 3.0),
            "weaviate_probe": _part("weaviate_probe", 2.0, 1.0, 1.0),
            "weaviate_step": _part("weaviate_step", 3.0, 1.0, 2.0), "es_fetch": _part("es_fetch", 1.5, 0.5, 1.5),
            "grpc_call": _part("grpc_call", 0.5, 0.25, 0.25), "anchor": _part("anchor", 12.0, 7.0, 5.0)} | extra


def test_the_floor_adds_every_part_and_seven_calls_and_chains_the_dependent_steps() -> None:
    floor = compose(_parts())
    # CPU: encode 6 + ES probe 4 + Weaviate probe 2 + step 3 + fetch 2 + 7 calls x 0.5
    assert floor["cpu_ms"] == 20.5 and floor["grpc_cpu_ms"] == 3.5
    assert floor["max_qps"] == round(2000 / 20.5, 1)
    # wall: six hops (the probe's two legs run side by side) + max(encode 6 + Weaviate 2, ES 4) + step 3 + fetch 1.5
    assert floor["chain_wall_ms"] == 6 * 0.5 + 8.0 + 3.0 + 1.5
    assert floor["anchor_wall_p50_ms"] == 12.0


def test_a_cheaper_batched_encode_lowers_the_cpu_floor_but_not_the_chain() -> None:
    plain = compose(_parts())
    batched = compose(_parts(encode_batch=_part("encode_batch", 20.0, 2.0)))
    assert batched["cpu_ms"] == plain["cpu_ms"] - 4.0
    assert batched["chain_wall_ms"] == plain["chain_wall_ms"]
    dearer = compose(_parts(encode_batch=_part("encode_batch", 20.0, 9.0)))
    assert dearer["cpu_ms"] == plain["cpu_ms"]


def test_time_part_runs_every_call_once_after_a_warm_up_at_any_concurrency() -> None:
    for clients in (1, 4):
        seen: list[int] = []
        calls = [lambda i=i: seen.append(i) for i in range(20)]
        part = time_part("noop", calls, None, clients)
        assert sorted(seen[2:]) == list(range(20)) and seen[:2] == [0, 1]   # the first tenth twice: warm-up
        assert part.calls == 20 and part.engine_cpu == 0.0 and part.wall_p50 <= part.wall_p95


def test_the_measured_mesh_is_read_from_the_load_reports_uncached_c_runs(tmp_path) -> None:
    def run(clients: int, cache: str, qps: float) -> dict:
        return {"mode": "mesh", "pipeline": "C", "concurrency": clients, "cache": cache, "qps": qps,
                "latency_ms": {"p50": 30.0, "p95": 45.0}, "cpu_cores": {"gateway": 0.2, "elasticsearch": 0.6}}

    report = tmp_path / "report.json"
    report.write_text(json.dumps({"runs": [run(1, "miss", 25.0), run(8, "miss", 50.0), run(1, "hit", 900.0),
                                           {**run(1, "miss", 1.0), "pipeline": "E"}]}))
    measured = mesh_measured(report)
    assert sorted(measured) == [1, 8]
    assert measured[1] == {"p50_ms": 30.0, "p95_ms": 45.0, "qps": 25.0, "cpu_ms_per_request": 32.0,
                           "cpu_ms_by_process": {"gateway": 8.0, "elasticsearch": 24.0}}
    assert measured[8]["cpu_ms_per_request"] == 16.0


def test_the_floor_split_by_process_adds_up_to_the_floor_less_the_drivers_side_of_the_first_call() -> None:
    parts = _parts()
    shares = floor_by_process(parts)
    assert shares["elasticsearch"] == 3.0 + 1.5 and shares["weaviate"] == 1.0 + 2.0
    assert shares["dense"] == 6.0 + 1.0 + 1.0 + 2 * 0.25 and shares["gate"] == shares["fusion"] == 0.25
    assert shares["gateway"] == 0.25 + (C_CALLS - 1) * 0.25
    assert round(sum(shares.values()) + parts["grpc_call"].client_cpu, 6) == compose(parts)["cpu_ms"]
