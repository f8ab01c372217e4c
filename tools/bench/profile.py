"""`chsr bench profile`: where a search's milliseconds and CPU-milliseconds go, per server, under load.

For every pipeline and concurrency, a closed-loop cache-miss run (as `chsr bench load`) while py-spy
samples every Python server of the mesh (``py-spy record --nonblocking``, raw collapsed stacks) and
``/proc`` counts every process's CPU, the engines' included. Reported per request:

* wall time per stage, from ``SearchResponse.timings`` (the gateway's own clock per stage call);
* CPU-ms per process (``/proc``: utime + stime over the run / answered requests);
* per Python server, its CPU-ms split by what the sampled stack is doing (``CATEGORIES``: the frame
  nearest the leaf that names a known library or module decides), and its hottest frames.

py-spy's own sampling costs CPU on the same cores, so these runs are the profile, not the load figures
(those come from `chsr bench load` without a profiler attached).
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

import grpc

from chsr.channels import channel_options
from chsr.config import Settings
from chsr.v1 import gateway_pb2_grpc
from tools.bench.cpu import CpuMeter, mesh_ports, pids_by_port
from tools.bench.driver import ClosedLoop
from tools.bench.load import MAX_REQUESTS_PER_RUN, LoadConfig, MeshRunConfig, measured_setup, mesh_calls
from tools.bench.mesh import bench_mesh
from tools.bench.queries import load_queries
from tools.bench.stats import summarise

log = logging.getLogger(__name__)

PYTHON_SERVERS = ("gateway", "gate", "sparse", "dense", "fusion", "rerank")

#: (category, substrings of a py-spy frame "function (path:line)"); the first frame from the leaf that
#: matches any rule decides the sample's category, rules tried in this order.
CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("encode (onnxruntime/tokenizers/torch)", ("onnxruntime", "tokenizers", "sentence_transformers", "torch/",
                                              "transformers/", "onnx_encoder.py", "dense/encoder.py")),
    ("elasticsearch client", ("elasticsearch/", "elastic_transport")),
    ("weaviate client", ("weaviate/",)),
    ("protobuf (build/parse)", ("google/protobuf", "_pb2.py", "message.py")),
    ("grpc runtime", ("grpc/", "grpc_")),
    ("http + sockets", ("urllib3", "httpx", "httpcore", "h11", "h2/", "http/client.py", "socket.py", "ssl.py",
                        "selectors.py")),
    ("json", ("json/", "orjson")),
    ("logging", ("logging/", "chsr/logs.py")),
    ("metrics", ("prometheus_client",)),
    ("numpy/scipy", ("numpy/", "scipy/")),
    ("gate logic", ("services/gate/",)),
    ("fusion logic", ("services/fusion/",)),
    ("rerank logic", ("services/rerank/",)),
    ("sparse/BM25 logic", ("services/sparse/", "bm25s")),
    ("dense logic", ("services/dense/", "hnswlib")),
    ("retrieval servicer", ("services/retrieval/",)),
    ("gateway logic", ("gateway/",)),
    ("kernel (chsr/)", ("chsr/",)),
    ("thread pools + locks", ("concurrent/futures", "threading.py", "queue.py")),
)
OTHER = "other Python"


@dataclass
class ProfileConfig(MeshRunConfig):
    duration_s: float = 8.0
    rate_hz: int = 100
    out: Path = Path("benchmarks/profile")


def category(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, needles in CATEGORIES:
            if any(n in frame for n in needles):
                return name
    return OTHER


def parse_collapsed(text: str) -> list[tuple[list[str], int]]:
    """py-spy's raw output: one ``frame;frame;...;leaf count`` line per distinct stack."""
    stacks = []
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def summarise_stacks(stacks: list[tuple[list[str], int]], rate_hz: int, requests: int,
                     top: int = 8) -> dict[str, object]:
    """CPU-ms per request by category and the hottest leaf frames of one process."""
    by_cat: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = 0
    for frames, n in stacks:
        by_cat[category(frames)] += n
        leaves[frames[-1]] += n
        total += n
    per_req = 1000.0 / rate_hz / max(1, requests)
    return {
        "samples": total,
        "cpu_ms_per_request": round(total * per_req, 2),
        "by_category_ms": {c: round(n * per_req, 2) for c, n in by_cat.most_common()},
        "top_frames_ms": {f: round(n * per_req, 2) for f, n in leaves.most_common(top)},
    }


def _spy(pid: int, seconds: float, rate_hz: int, out: Path) -> subprocess.Popen:
    exe = shutil.which("py-spy") or str(Path(__import__("sys").executable).with_name("py-spy"))
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
                             "--rate", str(rate_hz), "--format", "raw", "--nonblocking", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def profile_run(stub, queries: list[str], pipeline: str, concurrency: int, cfg: ProfileConfig,  # type: ignore[no-untyped-def]
                pids: dict[str, int], raw_dir: Path) -> dict[str, object]:
    load_cfg = LoadConfig(pipelines=[pipeline], concurrency=[concurrency], k=cfg.k, deadline_s=cfg.deadline_s)
    call = mesh_calls(stub, queries, pipeline, load_cfg, True)
    if cfg.warmup_s > 0:
        ClosedLoop(call, concurrency, cfg.warmup_s, MAX_REQUESTS_PER_RUN).run()
    spies = {}
    for name in PYTHON_SERVERS:
        if name in pids:
            path = raw_dir / f"{pipeline}-c{concurrency}-{name}.txt"
            spies[name] = (path, _spy(pids[name], cfg.duration_s, cfg.rate_hz, path))
    time.sleep(0.3)  # py-spy attaches
    loop = ClosedLoop(call, concurrency, cfg.duration_s, MAX_REQUESTS_PER_RUN)
    with CpuMeter(pids) as cpu:
        samples = loop.run()
    wall = time.monotonic() - loop.started_at
    summary = summarise(samples, wall)
    answered = int(summary["ok"]) or 1
    servers: dict[str, object] = {}
    for name, (path, proc) in spies.items():
        _, err = proc.communicate(timeout=cfg.duration_s + 30)
        if proc.returncode != 0 or not path.exists():
            servers[name] = {"error": (err or b"").decode(errors="replace")[-300:]}
            continue
        servers[name] = summarise_stacks(parse_collapsed(path.read_text(errors="replace")), cfg.rate_hz, answered)
    cpu_ms = {name: round(cores * wall * 1000 / answered, 2) for name, cores in cpu.cores.items()}
    return {"pipeline": pipeline, "concurrency": concurrency, **summary,
            "cpu_ms_per_request": cpu_ms, "cpu_ms_per_request_total": round(sum(cpu_ms.values()), 2),
            "servers": servers}


def run_profile(cfg: ProfileConfig) -> dict[str, object]:
    from tools.bench.report import machine_info

    queries, used = load_queries(cfg.queries, cfg.max_queries)
    cfg.out.mkdir(parents=True, exist_ok=True)
    raw_dir = cfg.out / "raw"
    raw_dir.mkdir(exist_ok=True)
    config = {k: [str(p) for p in v] if k == "corpora" else str(v) if isinstance(v, Path) else v
              for k, v in asdict(cfg).items()}
    report: dict[str, object] = {"config": config, "machine": machine_info(),
                                 "queries": {"source": used, "count": len(queries)}, "categories": [c for c, _ in CATEGORIES]}
    with bench_mesh(cfg.gateway, cfg.start_mesh, cfg.backend, cfg.data_dir, cfg.corpora) as mesh:
        config.update(measured_setup(mesh.gateway))
        pids = pids_by_port(mesh_ports(mesh.gateway))
        channel = grpc.insecure_channel(mesh.gateway, channel_options(Settings()))
        stub = gateway_pb2_grpc.GatewayServiceStub(channel)
        runs = []
        for pipeline in cfg.pipelines:
            for c in cfg.concurrency:
                log.info("profile run", extra={"pipeline": pipeline, "concurrency": c})
                runs.append(profile_run(stub, queries, pipeline, c, cfg, pids, raw_dir))
        channel.close()
    report["runs"] = runs
    import os

    report["machine"]["load_after"] = [round(x, 2) for x in os.getloadavg()]  # type: ignore[index]
    (cfg.out / "profile.json").write_text(json.dumps(report, indent=2) + "\n")
    (cfg.out / "README.md").write_text(render(report))
    return report


def render(report: dict[str, object]) -> str:
    cfg = report["config"]  # type: ignore[assignment]
    m = report["machine"]  # type: ignore[assignment]
    lines = [
        "# Profile: where a search's time goes (issue 22)", "",
        f"`chsr bench profile --pipelines {','.join(cfg['pipelines'])} --concurrency "  # type: ignore[index]
        f"{','.join(map(str, cfg['concurrency']))} --duration {cfg['duration_s']:g}` — backend "  # type: ignore[index]
        f"{cfg.get('backend')}, query encoder {cfg.get('query_encoder', '?')}, {report['queries']['count']} "  # type: ignore[index,union-attr]
        f"{report['queries']['source']} queries, cache miss, py-spy {cfg['rate_hz']} Hz on every Python server.", "",  # type: ignore[index]
        f"Machine: {m.get('cpu', '?')}, {m.get('cores', '?')} cores; load average before {m.get('load_before')}, "  # type: ignore[union-attr]
        f"after {m.get('load_after')}. py-spy samples on the same cores, so latencies here run a little above "  # type: ignore[union-attr]
        "`benchmarks/load`'s.", "",
        "## Per request: wall time per stage (p50 ms, the gateway's clock) and CPU-ms per process", "",
    ]
    runs = report["runs"]  # type: ignore[assignment]
    stages = [s for s in ("probe", "gate", "sparse", "dense", "fusion", "fetch", "rerank", "total")
              if any(s in r["stages_ms"] for r in runs)]  # type: ignore[index,union-attr]
    lines.append("| pipeline | clients | QPS | e2e p50 / p95 | " + " | ".join(stages) + " |")
    lines.append("|---|---|---:|---:|" + "---:|" * len(stages))
    for r in runs:  # type: ignore[union-attr]
        st = r["stages_ms"]
        cells = [f"{st[s]['p50']:.1f}" if s in st else "-" for s in stages]
        lines.append(f"| {r['pipeline']} | {r['concurrency']} | {r['qps']:.1f} | {r['latency_ms']['p50']:.1f} / "
                     f"{r['latency_ms']['p95']:.1f} | " + " | ".join(cells) + " |")
    lines += ["", "| pipeline | clients | CPU-ms per request, total | by process |", "|---|---|---:|---|"]
    for r in runs:  # type: ignore[union-attr]
        procs = ", ".join(f"{k} {v:.1f}" for k, v in sorted(r["cpu_ms_per_request"].items(), key=lambda kv: -kv[1]))
        lines.append(f"| {r['pipeline']} | {r['concurrency']} | {r['cpu_ms_per_request_total']:.1f} | {procs} |")
    lines += ["", "## Per Python server: CPU-ms per request by what the sampled stack does", ""]
    for r in runs:  # type: ignore[union-attr]
        lines.append(f"### {r['pipeline']}, {r['concurrency']} client(s)")
        lines.append("")
        lines.append("| server | CPU-ms / req (py-spy) | by category |")
        lines.append("|---|---:|---|")
        for name, s in r["servers"].items():
            if "error" in s:
                lines.append(f"| {name} | - | py-spy failed: {s['error'][:80]} |")
                continue
            cats = ", ".join(f"{c} {v:.1f}" for c, v in list(s["by_category_ms"].items())[:7])
            lines.append(f"| {name} | {s['cpu_ms_per_request']:.1f} | {cats} |")
        lines.append("")
    lines += ["Raw collapsed stacks per run and server: `raw/` (`flamegraph.pl raw/C-c1-gateway.txt > x.svg`).", ""]
    return "\n".join(lines)
