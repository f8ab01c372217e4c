"""The floor under a pipeline-C request: what its irreducible parts cost alone, on this machine (issue 22).

A C request on the engines is, at the least: one query encoding, the evidence probe (Elasticsearch's
top ``depth`` with metadata from doc values ‖ Weaviate's top 20 with metadata), one gated dense search
(Weaviate, filtered, top ``depth`` ids; the lexical list comes from the probe), one ``mget`` of the
fused top k, and the gRPC calls between the six processes (client -> gateway, two probe legs, gate,
dense step, fusion, fetch: seven unary calls). Each part is timed here alone, from 1 and from 8 concurrent
callers, with the project's own backends and encoder (in-process: no mesh), recording its wall time, the CPU of this
process (the client side of an engine call: the official client's request building and response
parsing) and the CPU the engine process spent (``/proc``). A gRPC call is timed against ``tools.bench.echo``, a
thread-pool server in a child process (3 kB replies), client and server CPU both counted.

From these, :func:`compose` gives the floor: the CPU a C request needs if the gate, fusion and the
gateway did no work of their own (so the most requests per second two cores can serve) and the wall
time of the dependent chain at one client. The distance from the floor to the measured mesh is the
mesh's own Python work. The anchor (encode + one Weaviate hybrid call) is timed the same way.

    CHSR_ES_INDEX=chsr-load CHSR_WEAVIATE_COLLECTION=ChsrLoad python -m tools.bench.floor \
        --out benchmarks/profile/floor --load-report benchmarks/load/report.json [--queries mixed] [--n 300]

Needs the engines running (``deploy/local/engines.sh start``) holding the load benchmark's index
(``chsr-load`` / ``ChsrLoad``: ``benchmarks/load/run.sh`` ingests it); with ``--load-report`` the measured
mesh is set beside the floor, process by process.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from chsr.scope import Scope
from tools.bench.anchor import hybrid_query
from tools.bench.cluster_ratio import miss_runs
from tools.bench.cpu import cpu_seconds, engine_ports, pids_by_port
from tools.bench.echo import METHOD, EchoServer
from tools.bench.queries import load_queries
from tools.eval.report import machine_info

log = logging.getLogger(__name__)

#: gRPC calls on the path of a C request answered in one retrieval round with the lexical list taken from
#: the probe: client -> gateway, probe sparse, probe dense, gate, dense step, fusion, fetch.
C_CALLS = 7


@dataclass(frozen=True)
class Part:
    """One irreducible part, timed alone: per call, wall percentiles and mean CPU (ms)."""

    name: str
    calls: int
    wall_p50: float
    wall_p95: float
    client_cpu: float   # this process (the caller; for the encoder, the whole encoding)
    engine_cpu: float   # the engine process (Elasticsearch or Weaviate; the echo server for a gRPC call)

    @property
    def cpu(self) -> float:
        return self.client_cpu + self.engine_cpu


def time_part(name: str, calls: Sequence[Callable[[], Any]], engine_pid: int | None, clients: int = 1) -> Part:
    """Run each call once (after a warm-up of the first tenth), from ``clients`` threads at a time; wall per
    call and CPU per call (this process's and the engine's, whose idle rate before the part is subtracted)."""
    for call in calls[: max(1, len(calls) // 10)]:
        call()
    idle = _idle_rate(engine_pid)
    walls: list[float] = []

    def run(call: Callable[[], Any]) -> None:
        start = time.perf_counter()
        call()
        walls.append((time.perf_counter() - start) * 1000)

    engine0 = cpu_seconds(engine_pid) if engine_pid else None
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if clients == 1:
        for call in calls:
            run(call)
    else:
        with ThreadPoolExecutor(max_workers=clients) as pool:
            list(pool.map(run, calls))
    elapsed = time.perf_counter() - wall0
    client = (time.process_time() - cpu0) * 1000 / len(calls)
    engine1 = cpu_seconds(engine_pid) if engine_pid else None
    engine = 0.0
    if engine0 is not None and engine1 is not None:
        engine = max(0.0, (engine1 - engine0 - idle * elapsed)) * 1000 / len(calls)
    walls.sort()
    return Part(name, len(calls), round(walls[len(walls) // 2], 3), round(walls[int(0.95 * (len(walls) - 1))], 3),
                round(client, 3), round(engine, 3))


def _idle_rate(pid: int | None, window_s: float = 1.0) -> float:
    """The engine's CPU seconds per second while nothing calls it (its background work)."""
    if not pid:
        return 0.0
    before = cpu_seconds(pid)
    time.sleep(window_s)
    after = cpu_seconds(pid)
    return (after - before) / window_s if before is not None and after is not None else 0.0


def _encode_cpu(parts: dict[str, Part]) -> float:
    """One query's encoding: one at a time, or batched where that is cheaper (as the dense server batches)."""
    return min(parts["encode"].cpu, parts["encode_batch"].cpu if "encode_batch" in parts else parts["encode"].cpu)


def compose(parts: dict[str, Part], calls: int = C_CALLS, cores: int = 2) -> dict[str, float]:
    """The floor of one C request from its parts (ms): CPU (the encode batched where that is cheaper, as the
    dense server does under concurrency) and the requests per second ``cores`` can serve at that CPU, and the
    wall time of the dependent chain (p50s; at one client, the least a request can take): client -> gateway, then the probe's two legs in
    parallel (dense: encode + search), gate, dense step, fusion, fetch, each one gRPC call."""
    hop = parts["grpc_call"]
    engine_parts = ("es_probe", "weaviate_probe", "weaviate_step", "es_fetch")
    cpu = _encode_cpu(parts) + sum(parts[p].cpu for p in engine_parts) + calls * hop.cpu
    probe = max(parts["encode"].wall_p50 + parts["weaviate_probe"].wall_p50, parts["es_probe"].wall_p50)
    # the probe's two legs are two calls but one hop of the chain
    wall = (calls - 1) * hop.wall_p50 + probe + parts["weaviate_step"].wall_p50 + parts["es_fetch"].wall_p50
    return {"cpu_ms": round(cpu, 2), "max_qps": round(cores * 1000 / cpu, 1), "chain_wall_ms": round(wall, 2),
            "grpc_calls": calls, "grpc_cpu_ms": round(calls * hop.cpu, 2),
            "anchor_wall_p50_ms": parts["anchor"].wall_p50 if "anchor" in parts else 0.0}


def grpc_call_parts(n: int, clients: Sequence[int]) -> dict[int, Part]:
    """One unary call to the echo server (``tools.bench.echo``, a child process on a free port), timed at each of
    ``clients``."""
    import grpc

    with EchoServer("threads") as echo:
        channel = grpc.insecure_channel(f"127.0.0.1:{echo.port}")
        call = channel.unary_unary(METHOD)
        calls = [lambda: call(b"q" * 200, timeout=5)] * n
        parts = {c: time_part("grpc_call", calls, echo.pid, c) for c in clients}
        channel.close()
    return parts


# ---- the run ------------------------------------------------------------------------------------------------
def measure(queries: list[str], depth: int, probe_depth: int, k: int,
            clients: Sequence[int]) -> dict[int, dict[str, Part]]:
    """Every part at each number of ``clients``: {clients: {part: Part}}."""
    from chsr.config import get_settings
    from services.dense.backends.weaviate import WeaviateDenseBackend
    from services.dense.encoder import Encoder
    from services.dense.server import query_encoder
    from services.inference.model_files import resolve_model_path
    from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

    settings = get_settings()
    pids = pids_by_port(engine_ports())
    es_pid, wv_pid = pids.get("elasticsearch"), pids.get("weaviate")
    encoder = Encoder(resolve_model_path(settings.model_path), settings.cache_dir, settings.encode_batch_size)
    encode = query_encoder(settings, encoder)
    es = ElasticsearchSparseBackend.from_settings(settings)
    wv = WeaviateDenseBackend.from_settings(settings, encoder.dim)
    collection = wv._coll()  # the backend's own collection handle: the same client and connection

    # the inputs each part needs, made once (this pass also warms the engines and the encoder)
    vectors = [encode([q])[0] for q in queries]
    fetch_ids = [[h.doc_id for h in es.search(q, Scope(), k, with_docs=False)] for q in queries]
    scopes = [_step_scope(wv.search(v, Scope(), 1, metadata_only=True)) for v in vectors]
    parts: dict[int, dict[str, Part]] = {}
    for c in clients:
        parts[c] = {
            "encode": time_part("encode", [lambda q=q: encode([q]) for q in queries], None, c),
            **({"encode_batch": _batched(time_part("encode_batch", [
                lambda i=i: encode(queries[i:i + c]) for i in range(0, len(queries), c)], None, 1), c)} if c > 1 else {}),
            "es_probe": time_part("es_probe", [
                lambda q=q: es.search(q, Scope(), depth, metadata_only=True) for q in queries], es_pid, c),
            "weaviate_probe": time_part("weaviate_probe", [
                lambda v=v: wv.search(v, Scope(), probe_depth, metadata_only=True) for v in vectors], wv_pid, c),
            "weaviate_step": time_part("weaviate_step", [
                lambda v=v, s=s: wv.search(v, s, depth, with_docs=False) for v, s in zip(vectors, scopes)],
                wv_pid, c),
            "es_fetch": time_part("es_fetch", [lambda ids=ids: es.get(ids) for ids in fetch_ids if ids], es_pid, c),
            "anchor": time_part("anchor", [
                lambda q=q: hybrid_query(collection, q, [float(x) for x in encode([q])[0]], k) for q in queries],
                wv_pid, c),
        }
    for c, part in grpc_call_parts(len(queries) * 4, clients).items():
        parts[c]["grpc_call"] = part
    return parts


def _batched(part: Part, size: int) -> Part:
    """A part whose every call encoded ``size`` queries, per query: the dense server batches concurrent
    encodings, which may cost less per query than one at a time (padding to the longest query may cost more)."""
    return replace(part, client_cpu=round(part.client_cpu / size, 3))


def _step_scope(hits: Sequence[Any]) -> Scope:
    """A gated step's filter: the subject and level of the probe's top hit (what the gate most often keeps)."""
    if not hits or hits[0].doc is None:
        return Scope()
    meta = hits[0].doc.metadata
    subject, level = meta.get("subject"), meta.get("level")
    return Scope(subject=(subject,) if subject else (), level=(level,) if level else ())


def mesh_measured(report: Path, pipeline: str = "C") -> dict[int, dict[str, float]]:
    """The load report's uncached runs of ``pipeline``: {clients: p50, p95, QPS and CPU ms per request (every
    mesh and engine process, from the report's ``cpu_cores``)}."""
    out: dict[int, dict[str, float]] = {}
    for (name, clients), run in miss_runs(json.loads(report.read_text(encoding="utf-8"))).items():
        if name != pipeline:
            continue
        qps = float(run["qps"])
        cpu = sum(run.get("cpu_cores", {}).values()) * 1000 / qps if qps else 0.0
        per_process = {proc: round(cores * 1000 / qps, 2) for proc, cores in run.get("cpu_cores", {}).items()
                       if qps and cores * 1000 / qps >= 0.05}
        out[clients] = {"p50_ms": run["latency_ms"]["p50"], "p95_ms": run["latency_ms"]["p95"], "qps": qps,
                        "cpu_ms_per_request": round(cpu, 2), "cpu_ms_by_process": per_process}
    return out


def floor_by_process(parts: dict[str, Part]) -> dict[str, float]:
    """Each mesh process's share of the floor (ms of CPU per C request): what its parts alone cost there.
    The caller's side of the client -> gateway call is the load driver's, in no mesh process."""
    hop = parts["grpc_call"]
    share = {
        "dense": _encode_cpu(parts) + parts["weaviate_probe"].client_cpu + parts["weaviate_step"].client_cpu + 2 * hop.engine_cpu,
        "weaviate": parts["weaviate_probe"].engine_cpu + parts["weaviate_step"].engine_cpu,
        "sparse": parts["es_probe"].client_cpu + parts["es_fetch"].client_cpu + 2 * hop.engine_cpu,
        "elasticsearch": parts["es_probe"].engine_cpu + parts["es_fetch"].engine_cpu,
        "gateway": hop.engine_cpu + (C_CALLS - 1) * hop.client_cpu,
        "gate": hop.engine_cpu,
        "fusion": hop.engine_cpu,
    }
    return {name: round(value, 2) for name, value in share.items()}


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def write(out: Path, doc: dict[str, Any]) -> None:
    """``floor.json`` (everything) and ``floor.md`` (a table of the parts per number of clients, the floors)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "floor.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    lines: list[str] = []
    for clients, parts in doc["parts"].items():
        lines += [f"### {clients} client(s)", "",
                  "| part | calls | wall p50 ms | wall p95 ms | client CPU ms | engine / server CPU ms | CPU ms |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        lines += [f"| {p['name']} | {p['calls']} | {p['wall_p50']:.2f} | {p['wall_p95']:.2f} | {p['client_cpu']:.2f} | "
                  f"{p['engine_cpu']:.2f} | {p['cpu']:.2f} |" for p in parts.values()]
        lines += ["", "floor: " + ", ".join(f"{key} {value}" for key, value in doc["floor"][clients].items()), ""]
    if doc.get("mesh"):
        lines += ["### the mesh, measured (load report, pipeline C, cache miss)", "",
                  "| clients | p50 ms | p95 ms | QPS | CPU ms per request |", "|---:|---:|---:|---:|---:|"]
        lines += [f"| {c} | {m['p50_ms']} | {m['p95_ms']} | {m['qps']} | {m['cpu_ms_per_request']} |"
                  for c, m in doc["mesh"].items()]
        lines += ["", "### CPU ms per C request by process: measured in the mesh, its parts' floor, the rest (the mesh's own work)",
                  "", "| clients | process | measured | floor | own work |", "|---:|---|---:|---:|---:|"]
        for c, m in doc["mesh"].items():
            floor = doc["floor_by_process"].get(c, {})
            for name, measured in sorted(m["cpu_ms_by_process"].items(), key=lambda kv: -kv[1]):
                share = floor.get(name, 0.0)
                lines.append(f"| {c} | {name} | {measured:.2f} | {share:.2f} | {measured - share:.2f} |")
    (out / "floor.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/profile/floor"))
    parser.add_argument("--queries", default="mixed")
    parser.add_argument("--n", type=int, default=300, help="queries (each part runs once per query)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--clients", default="1,8", help="comma-separated numbers of concurrent callers")
    parser.add_argument("--load-report", type=Path, default=None,
                        help="a benchmarks/load report.json to set the measured mesh beside the floor")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from chsr.config import get_settings
    from gateway.pipelines import get_pipeline

    settings = get_settings()
    depth = get_pipeline("C", settings.candidate_depth).depth
    clients = [int(c) for c in args.clients.split(",") if c.strip()]
    queries, source = load_queries(args.queries, args.n)
    before = load_average()
    parts = measure(queries, depth, settings.gate_probe_depth, args.k, clients)
    doc: dict[str, Any] = {
        "machine": machine_info(), "queries": {"source": source, "n": len(queries)}, "depth": depth,
        "probe_depth": settings.gate_probe_depth, "k": args.k, "query_encoder": str(settings.query_encoder),
        "es_index": settings.es_index, "weaviate_collection": settings.weaviate_collection,
        "load_average_before": before, "load_average_after": load_average(),
        "parts": {c: {name: asdict(p) | {"cpu": round(p.cpu, 3)} for name, p in ps.items()} for c, ps in parts.items()},
        "floor": {c: compose(ps) for c, ps in parts.items()},
        "floor_by_process": {c: floor_by_process(ps) for c, ps in parts.items()},
        "mesh": mesh_measured(args.load_report) if args.load_report else {},
    }
    write(args.out, doc)
    log.info("floor: %s", json.dumps(doc["floor"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
