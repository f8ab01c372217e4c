"""Cost as the corpus grows (issue 13): index and query the engines at growing corpus sizes.

``python -m tools.bench.scale --sizes 31755,100000,300000,1000000`` (benchmarks/scale/run.sh starts
single-node engines of their own and runs it). For each size, the corpus of
:mod:`tools.bench.scale_corpus` is grown to that size through the product's own backends
(:class:`ElasticsearchSparseBackend` / :class:`WeaviateDenseBackend` upserts, default settings,
one engine at a time so each ingest rate is its own), then measured:

* per engine, ungated and gated (the curriculum dev cases' scopes): p50/p95 at one client and QPS
  at four (closed loop), ids and scores only as the legs ask;
* end to end: pipeline C through the six servers (torch or ONNX query encoder as configured),
  p50/p95 at one client, QPS at eight;
* engine resident memory (and the ES heap), data on disk, ingest rate of the increment;
* the load average before and after every measurement (the machine is shared).

Results go to ``<out>/results.json`` after every size (a crash keeps what was measured), plots and
``<out>/README.md`` tables at the end. Loopback only; every run is bounded by its duration.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import grpc
import numpy as np

from chsr.config import Settings
from chsr.scope import Scope
from chsr.v1 import gateway_pb2, gateway_pb2_grpc
from tools.bench.driver import ClosedLoop, Sample, search_sample
from tools.bench.queries import load_queries
from tools.bench.stats import summarise

log = logging.getLogger("chsr.bench.scale")
INDEX, COLLECTION = "chsr-scale", "ChsrScale"
HEAVY_NICE = 10


@dataclass
class ScaleConfig:
    sizes: list[int]
    es_url: str
    weaviate_http: str
    weaviate_grpc: str
    es_data: Path
    weaviate_data: Path
    out: Path
    duration_1_s: float = 15.0
    duration_n_s: float = 10.0
    clients: int = 4
    e2e_clients: int = 8
    queries: int = 400
    es_batch: int = 2000
    weaviate_batch: int = 1000
    e2e: bool = True
    resume: bool = False
    redis_url: str = "redis://127.0.0.1:16379/7"
    extra: dict[str, Any] = field(default_factory=dict)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _du_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True, check=False).stdout.split()
    return round(int(out[0]) / 2**20, 1) if out else 0.0


def _pid_on_port(port: int) -> int | None:
    from tools.bench.cpu import pids_by_port
    return pids_by_port({"x": port}).get("x")


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def set_priority(pids: list[int], nice: int) -> None:
    """The engines, the driver and its mesh run at nice 10 like every heavy job on this shared machine;
    every thread of each process is moved (Linux niceness is per thread)."""
    for pid in pids:
        try:
            tasks = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            continue
        for tid in tasks:
            try:
                os.setpriority(os.PRIO_PROCESS, tid, nice)
            except OSError:
                pass


def timed_loop(call: Callable[[int, int], Sample], clients: int, duration_s: float) -> dict[str, Any]:
    ClosedLoop(call, clients, 1.0).run()  # warm-up, unrecorded
    before = _load()
    loop = ClosedLoop(call, clients, duration_s)
    samples = loop.run()
    return summarise(samples, time.monotonic() - loop.started_at) | {"load_before": before, "load_after": _load()}


def engine_call(fn: Callable[[int], Any]) -> Callable[[int, int], Sample]:
    def call(worker: int, seq: int) -> Sample:
        start = time.monotonic()
        try:
            n = len(fn(seq))
        except Exception as exc:  # recorded, never raised: a closed loop keeps going
            return Sample(worker, start, time.monotonic(), type(exc).__name__, details=str(exc)[:200])
        return Sample(worker, start, time.monotonic(), "OK", results=n)
    return call


class ScaleRun:
    def __init__(self, cfg: ScaleConfig) -> None:
        from services.dense.backends.weaviate import WeaviateDenseBackend
        from services.dense.encoder import Encoder
        from services.inference.model_files import resolve_model_path
        from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend
        from tools.bench.scale_corpus import BaseCorpus

        self.cfg = cfg
        settings = Settings()
        model = resolve_model_path(settings.model_path)
        encoder = Encoder(model, None)
        self.base = BaseCorpus.load([settings.dataset_dir("curriculum") / "corpus.jsonl",
                                     settings.dataset_dir("scifact") / "corpus.jsonl"],
                                    settings.cache_dir / "embeddings.sqlite", encoder.model_id)
        self.es = ElasticsearchSparseBackend(cfg.es_url, INDEX, bulk_timeout_s=600)
        self.wv = WeaviateDenseBackend(cfg.weaviate_http, cfg.weaviate_grpc, COLLECTION, encoder.dim,
                                       query_timeout_s=30)
        self.es.check()
        self.wv.check()
        texts, _ = load_queries("mixed", cfg.queries)
        self.ungated = texts
        self.ungated_vecs = encoder.encode_queries(texts)
        cases = [json.loads(line) for line in
                 (settings.dataset_dir("curriculum") / "cases.dev.jsonl").read_text().splitlines() if line.strip()]
        self.gated = [(c["query"], Scope.from_dict({k: v for k, v in c["scope"].items()
                                                    if k in ("subject", "level", "content_type") and v}))
                      for c in cases if c.get("scope")]
        self.gated_vecs = encoder.encode_queries([q for q, _ in self.gated])
        del encoder
        self.size = self.es.count()
        self.results: list[dict[str, Any]] = []
        self.mesh = None

    # ---- ingest ------------------------------------------------------------------------------
    def grow(self, size: int) -> dict[str, Any]:
        from tools.bench.scale_corpus import batches

        start = self.size
        out: dict[str, Any] = {"from": start, "to": size}
        for name, backend, batch in (("elasticsearch", self.es, self.cfg.es_batch),
                                     ("weaviate", self.wv, self.cfg.weaviate_batch)):
            have = backend.count()
            if have >= size:
                out[name] = {"docs": 0, "s": 0.0, "docs_per_s": None, "note": f"already {have}"}
                continue
            t0, n, gen_s = time.monotonic(), 0, 0.0
            load_before = _load()
            g0 = time.monotonic()
            for docs, vecs in batches(self.base, have, size, batch):
                gen_s += time.monotonic() - g0
                result = backend.upsert(docs) if name == "elasticsearch" else backend.upsert(docs, vecs)
                if result.errors:
                    raise RuntimeError(f"{name}: {len(result.errors)} item errors, first {result.errors[0]}")
                n += len(docs)
                if n % (batch * 25) == 0:
                    log.info("ingest", extra={"engine": name, "at": have + n, "rate": round(n / (time.monotonic() - t0))})
                g0 = time.monotonic()
            wall = time.monotonic() - t0
            out[name] = {"docs": n, "s": round(wall, 1), "generate_s": round(gen_s, 1),
                         "docs_per_s": round(n / max(1e-9, wall - gen_s), 1), "load_before": load_before,
                         "load_after": _load()}
        self.size = size
        return out

    # ---- measurements ------------------------------------------------------------------------
    def footprint(self) -> dict[str, Any]:
        es_port = int(self.cfg.es_url.split(",")[0].rsplit(":", 1)[1])
        wv_port = int(self.cfg.weaviate_http.split(",")[0].rsplit(":", 1)[1])
        out: dict[str, Any] = {}
        for name, port, data in (("elasticsearch", es_port, self.cfg.es_data),
                                 ("weaviate", wv_port, self.cfg.weaviate_data)):
            pid = _pid_on_port(port)
            out[name] = {"rss_mb": _rss_mb(pid) if pid else None, "disk_mb": _du_mb(data)}
        try:
            with urllib.request.urlopen(f"{self.cfg.es_url.split(',')[0]}/_nodes/stats/jvm,indices", timeout=10) as r:
                node = next(iter(json.loads(r.read())["nodes"].values()))
            out["elasticsearch"]["heap_used_mb"] = round(node["jvm"]["mem"]["heap_used_in_bytes"] / 2**20, 1)
            out["elasticsearch"]["segments_mb"] = round(node["indices"]["store"]["size_in_bytes"] / 2**20, 1)
        except (OSError, KeyError, StopIteration):
            pass
        return out

    def engines(self) -> dict[str, Any]:
        rng = random.Random(0)
        order = list(range(len(self.ungated)))
        rng.shuffle(order)
        empty = Scope()
        runs: dict[str, Any] = {}
        plans = {
            "elasticsearch": {
                "ungated": lambda i: self.es.search(self.ungated[order[i % len(order)]], empty, 100, with_docs=False),
                "gated": lambda i: self.es.search(self.gated[i % len(self.gated)][0], self.gated[i % len(self.gated)][1],
                                                  100, with_docs=False)},
            "weaviate": {
                "ungated": lambda i: self.wv.search(self.ungated_vecs[order[i % len(order)]], empty, 100, with_docs=False),
                "gated": lambda i: self.wv.search(self.gated_vecs[i % len(self.gated)], self.gated[i % len(self.gated)][1],
                                                  100, with_docs=False)},
        }
        for engine, variants in plans.items():
            for variant, fn in variants.items():
                log.info("engine queries", extra={"engine": engine, "variant": variant, "size": self.size})
                runs[f"{engine}/{variant}"] = {
                    "c1": timed_loop(engine_call(fn), 1, self.cfg.duration_1_s),
                    f"c{self.cfg.clients}": timed_loop(engine_call(fn), self.cfg.clients, self.cfg.duration_n_s)}
        return runs

    def end_to_end(self) -> dict[str, Any]:
        if self.mesh is None:
            self.mesh = self._start_mesh()
        gateway, _sup = self.mesh
        channel = grpc.insecure_channel(gateway)
        stub = gateway_pb2_grpc.GatewayServiceStub(channel)
        queries = self.ungated

        def call(worker: int, seq: int) -> Sample:
            req = gateway_pb2.SearchRequest(query=queries[(seq * 7) % len(queries)], k=10, pipeline="C", no_cache=True)
            return search_sample(stub, req, 10.0, worker)

        out = {"c1": timed_loop(call, 1, self.cfg.duration_1_s),
               f"c{self.cfg.e2e_clients}": timed_loop(call, self.cfg.e2e_clients, self.cfg.duration_n_s)}
        channel.close()
        return out

    def _start_mesh(self):  # type: ignore[no-untyped-def]
        from tools.bench.mesh import free_port_block
        from tools.cli.up_cmd import MeshLayout, Supervisor

        root = Path(tempfile.mkdtemp(prefix="chsr-scale-mesh-"))
        base = free_port_block(14)
        layout = MeshLayout("127.0.0.1", base, base + 8)
        env = {"CHSR_ES_URL": self.cfg.es_url, "CHSR_ES_INDEX": INDEX, "CHSR_WEAVIATE_HTTP": self.cfg.weaviate_http,
               "CHSR_WEAVIATE_GRPC": self.cfg.weaviate_grpc, "CHSR_WEAVIATE_COLLECTION": COLLECTION,
               "CHSR_REDIS_URL": self.cfg.redis_url, "CHSR_ES_TIMEOUT_S": "30"}
        sup = Supervisor(layout, "engines", str(root / "data"), root / "logs", restart=False, extra_env=env)
        sup.start_all(timeout_s=300)
        return layout.addr("gateway"), sup

    def engine_pids(self) -> list[int]:
        ports = [int(u.rsplit(":", 1)[1].split("/")[0]) for u in (self.cfg.es_url.split(",")[0],
                                                                  self.cfg.weaviate_http.split(",")[0])]
        return [p for p in (_pid_on_port(port) for port in ports) if p] + [os.getpid()]

    def measure(self, size: int) -> dict[str, Any]:
        set_priority(self.engine_pids(), HEAVY_NICE)
        row: dict[str, Any] = {"size": size, "ingest": self.grow(size)}
        row["footprint"] = self.footprint()
        row["engines"] = self.engines()
        if self.cfg.e2e:
            row["end_to_end"] = self.end_to_end()
        row["footprint_after_queries"] = self.footprint()
        return row

    def run(self) -> list[dict[str, Any]]:
        from tools.bench.report import machine_info

        self.cfg.out.mkdir(parents=True, exist_ok=True)
        header = {"machine": machine_info(), "config": {k: str(v) for k, v in vars(self.cfg).items()},
                  "base_corpus": len(self.base.docs)}
        saved = self.cfg.out / "results.json"
        if self.cfg.resume and saved.exists():  # keep the sizes measured before, below the first new one
            self.results = [r for r in json.loads(saved.read_text())["sizes"] if r["size"] < min(self.cfg.sizes)]
        try:
            for size in self.cfg.sizes:
                log.info("size", extra={"size": size})
                self.results.append(self.measure(size))
                (self.cfg.out / "results.json").write_text(json.dumps({**header, "sizes": self.results}, indent=1))
        finally:
            if self.mesh is not None:
                self.mesh[1].stop_all()
            self.es.close()
            self.wv.close()
        return self.results


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="31755,100000,300000,1000000")
    p.add_argument("--es-url", default="http://127.0.0.1:31200")
    p.add_argument("--weaviate-http", default="127.0.0.1:30080")
    p.add_argument("--weaviate-grpc", default="127.0.0.1:27051")
    p.add_argument("--es-data", type=Path, required=True)
    p.add_argument("--weaviate-data", type=Path, required=True)
    p.add_argument("--out", type=Path, default=Path("benchmarks/scale"))
    p.add_argument("--duration", type=float, default=15.0, help="seconds per one-client run")
    p.add_argument("--duration-n", type=float, default=10.0, help="seconds per multi-client run")
    p.add_argument("--no-e2e", action="store_true")
    p.add_argument("--resume", action="store_true", help="keep results.json's rows below the first size")
    p.add_argument("--plots-only", action="store_true", help="redraw plots and README from results.json")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("elastic_transport", "httpx", "weaviate"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if not args.plots_only:
        cfg = ScaleConfig(sizes=[int(s) for s in args.sizes.split(",")], es_url=args.es_url,
                          weaviate_http=args.weaviate_http, weaviate_grpc=args.weaviate_grpc, es_data=args.es_data,
                          weaviate_data=args.weaviate_data, out=args.out, duration_1_s=args.duration,
                          duration_n_s=args.duration_n, e2e=not args.no_e2e, resume=args.resume)
        ScaleRun(cfg).run()
    from tools.bench.scale_report import write_report
    write_report(args.out)


if __name__ == "__main__":
    main()
