"""`chsr bench load`: closed-loop load on the gateway over gRPC, with a report of latency percentiles, QPS and CPU.

For every pipeline and concurrency: a cache-miss run (``no_cache``, the whole
query set) and a cache-hit run (a small query set, primed first), each with a
short unrecorded warm-up. Recorded: QPS, end-to-end p50/p95/p99, per-stage
percentiles from ``SearchResponse.timings``, errors, degraded answers and the
CPU of every mesh process (and engine) during the run. Optionally the same
pipelines in-process (:mod:`tools.bench.inprocess_mesh`) for the mesh /
in-process ratio, and the encoder levers (:mod:`tools.bench.levers`). Loopback
only; every run is bounded by its duration.
"""

from __future__ import annotations

import logging
import os
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import grpc

from tools.bench.cpu import CpuMeter, mesh_ports, pids_by_port, settle
from tools.bench.driver import Call, ClosedLoop, search_sample
from tools.bench.mesh import BenchMesh, bench_mesh
from tools.bench.queries import load_queries
from tools.bench.stats import summarise
from chsr.channels import channel_options
from chsr.config import Settings
from chsr.v1 import gateway_pb2, gateway_pb2_grpc

log = logging.getLogger(__name__)
MAX_REQUESTS_PER_RUN = 200_000  # a backstop; runs end by duration


@dataclass
class MeshRunConfig:
    """What every closed-loop run against a mesh needs: the pipelines and client counts, the queries, and
    which mesh (an existing gateway, or one started here with ``corpora`` ingested)."""

    pipelines: list[str]
    concurrency: list[int]
    duration_s: float = 10.0
    queries: str = "mixed"
    max_queries: int = 1000
    gateway: str | None = None
    start_mesh: bool = False
    backend: str = "embedded"
    corpora: list[Path] = field(default_factory=list)
    data_dir: Path | None = None
    warmup_s: float = 1.0
    deadline_s: float = 5.0
    k: int = 10


@dataclass
class LoadConfig(MeshRunConfig):
    inprocess: bool = False
    inprocess_concurrency: list[int] = field(default_factory=lambda: [1])
    cache_hit: bool = True
    hit_queries: int = 8
    levers: bool = False
    onnx: bool = False
    lever_duration_s: float = 5.0
    anchor: bool = False             # also time Weaviate's own hybrid call (engines only), for the ratio
    settle_max_s: float = 300.0      # wait (at most this long) for the engines to go idle before measuring; 0 = off
    out: Path = Path("benchmarks/load")


def _request(query: str, pipeline: str, k: int, no_cache: bool) -> gateway_pb2.SearchRequest:
    return gateway_pb2.SearchRequest(query=query, k=k, pipeline=pipeline, no_cache=no_cache)


def measured_run(call: Call, concurrency: int, cfg: LoadConfig, pids: dict[str, int]) -> dict[str, object]:
    if cfg.warmup_s > 0:
        ClosedLoop(call, concurrency, cfg.warmup_s, MAX_REQUESTS_PER_RUN).run()
    loop = ClosedLoop(call, concurrency, cfg.duration_s, MAX_REQUESTS_PER_RUN)
    with CpuMeter(pids) as cpu:
        samples = loop.run()
    wall = time.monotonic() - loop.started_at
    return summarise(samples, wall) | {"cpu_cores": cpu.cores}


def mesh_calls(stub, queries: list[str], pipeline: str, cfg: LoadConfig,  # type: ignore[no-untyped-def]
               no_cache: bool) -> Call:
    offset = zlib.crc32(f"{pipeline}:{no_cache}".encode()) % len(queries)  # runs start at different queries

    def call(worker: int, seq: int):  # type: ignore[no-untyped-def]
        req = _request(queries[(offset + seq) % len(queries)], pipeline, cfg.k, no_cache)
        return search_sample(stub, req, cfg.deadline_s, worker)

    return call


def run_mesh(mesh: BenchMesh, queries: list[str], cfg: LoadConfig, pids: dict[str, int]) -> list[dict[str, object]]:
    channel = grpc.insecure_channel(mesh.gateway, channel_options(Settings()))
    stub = gateway_pb2_grpc.GatewayServiceStub(channel)
    runs: list[dict[str, object]] = []
    hits = queries[:cfg.hit_queries]
    for pipeline in cfg.pipelines:
        for c in cfg.concurrency:
            log.info("mesh run", extra={"pipeline": pipeline, "concurrency": c, "cache": "miss"})
            runs.append({"mode": "mesh", "pipeline": pipeline, "concurrency": c, "cache": "miss",
                         **measured_run(mesh_calls(stub, queries, pipeline, cfg, True), c, cfg, pids)})
            if not cfg.cache_hit:
                continue
            for q in hits:  # prime: each hit query computed and stored once
                stub.Search(_request(q, pipeline, cfg.k, False), timeout=30)
            runs.append({"mode": "mesh", "pipeline": pipeline, "concurrency": c, "cache": "hit",
                         **measured_run(mesh_calls(stub, hits, pipeline, cfg, False), c, cfg, pids)})
    channel.close()
    return runs


def run_anchor(gateway: str, queries: list[str], cfg: LoadConfig, pids: dict[str, int]) -> list[dict[str, object]]:
    """Weaviate's hybrid call on the same queries, encoded by the mesh's dense server (tools.bench.anchor)."""
    from tools.bench.anchor import WeaviateHybrid
    from tools.cli.up_cmd import OFFSETS

    host, port = gateway.rsplit(":", 1)
    hybrid = WeaviateHybrid(f"{host}:{int(port) + OFFSETS['dense']}", Settings(), cfg.k)
    runs: list[dict[str, object]] = []
    try:
        for c in cfg.concurrency:
            log.info("anchor run", extra={"concurrency": c})
            runs.append({"mode": "anchor", "pipeline": "weaviate_hybrid", "concurrency": c, "cache": "miss",
                         **measured_run(hybrid.calls(queries, cfg.deadline_s), c, cfg, pids)})
    finally:
        hybrid.close()
    return runs


def anchor_ratios(runs: list[dict[str, object]]) -> list[dict[str, object]]:
    """Each mesh pipeline's cache-miss p95 over the anchor's, per concurrency."""
    anchor = {r["concurrency"]: r["latency_ms"]["p95"] for r in runs if r["mode"] == "anchor"}  # type: ignore[index]
    out = []
    for r in runs:
        if r["mode"] == "mesh" and r["cache"] == "miss" and r["concurrency"] in anchor:
            a = anchor[r["concurrency"]]
            p95 = r["latency_ms"]["p95"]  # type: ignore[index]
            out.append({"pipeline": r["pipeline"], "concurrency": r["concurrency"], "mesh_p95_ms": p95,
                        "anchor_p95_ms": a, "ratio": round(p95 / a, 2) if a else None})
    return out


def run_inprocess(mesh: BenchMesh, queries: list[str], cfg: LoadConfig) -> list[dict[str, object]]:
    from tools.bench.inprocess_mesh import build_search_service, inprocess_sample

    settings = Settings(backend=mesh.backend, data_dir=mesh.data_dir)
    service = build_search_service(settings)
    runs: list[dict[str, object]] = []
    for pipeline in cfg.pipelines:
        def call(worker: int, seq: int, pipeline: str = pipeline):  # type: ignore[no-untyped-def]
            req = _request(queries[seq % len(queries)], pipeline, cfg.k, True)
            return inprocess_sample(service, req, cfg.deadline_s, settings, worker)

        for c in cfg.inprocess_concurrency:
            log.info("in-process run", extra={"pipeline": pipeline, "concurrency": c})
            runs.append({"mode": "inprocess", "pipeline": pipeline, "concurrency": c, "cache": "miss",
                         **measured_run(call, c, cfg, {"bench": os.getpid()})})
    return runs


def ratios(runs: list[dict[str, object]]) -> list[dict[str, object]]:
    """Mesh p50 / in-process p50 per pipeline and concurrency (cache-miss runs)."""
    def key(r: dict[str, object]) -> tuple[object, object]:
        return r["pipeline"], r["concurrency"]

    inproc = {key(r): r for r in runs if r["mode"] == "inprocess"}
    out = []
    for r in runs:
        if r["mode"] == "mesh" and r["cache"] == "miss" and key(r) in inproc:
            mesh_p50 = r["latency_ms"]["p50"]  # type: ignore[index]
            local_p50 = inproc[key(r)]["latency_ms"]["p50"]  # type: ignore[index]
            out.append({"pipeline": r["pipeline"], "concurrency": r["concurrency"], "mesh_p50_ms": mesh_p50,
                        "inprocess_p50_ms": local_p50, "ratio": round(mesh_p50 / local_p50, 3) if local_p50 else None})
    return out


# Dense-service variants compared end to end (own mesh only). OpenMP's default active wait makes
# torch's two intra-op threads spin on a shared 2-core machine; PASSIVE or one thread stops that.
DENSE_VARIANTS = [
    ("micro-batch off", {"CHSR_QUERY_MICROBATCH": "0"}),
    ("OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"}),
    ("OMP_NUM_THREADS=1", {"OMP_NUM_THREADS": "1"}),
]


def dense_variants_end_to_end(mesh: BenchMesh, queries: list[str], cfg: LoadConfig,
                              pids: Callable[[], dict[str, int]]) -> list[dict[str, object]]:
    """The first pipeline, cache-miss, with the dense service restarted under each variant's
    environment; then restarted as it was."""
    pipeline, runs = cfg.pipelines[0], []
    channel = grpc.insecure_channel(mesh.gateway, channel_options(Settings()))
    stub = gateway_pb2_grpc.GatewayServiceStub(channel)
    try:
        for label, env in DENSE_VARIANTS:
            mesh.restart_service("dense", env)
            log.info("dense variant run", extra={"variant": label, "pipeline": pipeline})
            runs += [{"mode": f"mesh, dense {label}", "pipeline": pipeline, "concurrency": c, "cache": "miss",
                      **measured_run(mesh_calls(stub, queries, pipeline, cfg, True), c, cfg, pids())}
                     for c in cfg.concurrency]
    finally:
        channel.close()
        mesh.restart_service("dense", {})
    return runs


def measured_setup(gateway: str) -> dict[str, str]:
    """``backend`` (engines | embedded, from the retrieval servers' own names), ``backends`` (each server's),
    ``query_encoder`` and ``query_vector_cache`` (the dense server's LRU size; 0 = off), asked from the gateway's
    IndexStats."""
    from chsr.client import GatewayClient

    with GatewayClient(gateway) as client:
        stats = client.stats()
    names = [b.backend for b in stats.backends]
    encoder = next((b.details["query_encoder"] for b in stats.backends if "query_encoder" in b.details), "unknown")
    lru = next((b.details["query_vector_cache"] for b in stats.backends if "query_vector_cache" in b.details), "unknown")
    engines = any(n.startswith(("elasticsearch", "weaviate")) or "engine" in b.details
                  for n, b in zip(names, stats.backends))
    return {"backend": "engines" if engines else "embedded", "backends": ",".join(names), "query_encoder": encoder,
            "query_vector_cache": lru}


def run_load(cfg: LoadConfig) -> dict[str, object]:
    from tools.bench.report import machine_info, write_report

    queries, used = load_queries(cfg.queries, cfg.max_queries)
    config = {k: [str(p) for p in v] if k == "corpora" else str(v) if isinstance(v, Path) else v
              for k, v in asdict(cfg).items()}
    report: dict[str, object] = {"config": config,
                                 "machine": machine_info(), "queries": {"source": used, "count": len(queries)}}
    started = time.time()
    with bench_mesh(cfg.gateway, cfg.start_mesh, cfg.backend, cfg.data_dir, cfg.corpora) as mesh:
        # what the mesh says it runs, not what this process's environment says (issue 23: true words)
        config.update(measured_setup(mesh.gateway))
        pids = pids_by_port(mesh_ports(mesh.gateway))
        report["pids"] = pids
        if cfg.settle_max_s > 0 and config.get("backend") == "engines":
            # an ingest just before leaves the engines merging: measure queries, not that (an embedded mesh uses no
            # engine, so engines other work runs on this machine are not waited for)
            report["settle"] = settle(pids, max_wait_s=cfg.settle_max_s)
            log.info("engines settled", extra=report["settle"])
        runs = run_mesh(mesh, queries, cfg, pids)
        if cfg.anchor:
            runs += run_anchor(mesh.gateway, queries, cfg, pids)
            report["anchor_ratio"] = anchor_ratios(runs)
        if cfg.inprocess:
            runs += run_inprocess(mesh, queries, cfg)
            report["mesh_inprocess_p50_ratio"] = ratios(runs)
        if cfg.levers:
            from tools.bench.levers import encoder_levers

            report["levers"] = encoder_levers(Settings(), queries, cfg.concurrency, cfg.lever_duration_s, cfg.onnx)
            if mesh.supervisor is not None:
                runs += dense_variants_end_to_end(mesh, queries, cfg, lambda: pids_by_port(mesh_ports(mesh.gateway)))
        report["runs"] = runs
    report["elapsed_s"] = round(time.time() - started, 1)
    report["machine"]["load_after"] = [round(x, 2) for x in os.getloadavg()]  # type: ignore[index]
    write_report(report, cfg.out)
    return report
