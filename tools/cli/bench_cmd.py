"""`chsr bench load` / `chsr bench levers`: the load benchmark (tools/bench/)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from chsr.config import get_settings
from tools.bench.queries import SOURCES


def _ints(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _names(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def add_parsers(sub: argparse._SubParsersAction) -> None:
    bench = sub.add_parser("bench", help="benchmarks (load)")
    bsub = bench.add_subparsers(dest="bench_cmd", required=True)

    p = bsub.add_parser("load", help="closed-loop gRPC load on the gateway; writes report.json, README.md, plots")
    p.add_argument("--pipelines", type=_names, default=["C", "D", "E"], help="comma-separated (default C,D,E)")
    p.add_argument("--concurrency", type=_ints, default=[1, 4, 8, 16], help="comma-separated (default 1,4,8,16)")
    p.add_argument("--duration", type=float, default=10.0, help="seconds per measured run (default 10)")
    p.add_argument("--queries", choices=SOURCES, default="mixed",
                   help="scifact, curriculum (dev cases), mixed (both, default) or demo; demo when data is missing")
    p.add_argument("--max-queries", type=int, default=1000)
    p.add_argument("--gateway", default=None, help=f"gateway to drive (default {get_settings().gateway})")
    p.add_argument("--start-mesh", action="store_true",
                   help="start our own mesh (chsr up's supervisor) and ingest --corpus; needed for the "
                        "end-to-end micro-batching comparison")
    p.add_argument("--backend", choices=["embedded", "engines"], default="embedded")
    p.add_argument("--corpus", type=Path, action="append", default=[],
                   help="corpus to ingest with --start-mesh (repeatable; default: the demo corpus)")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="the mesh's data dir (for --inprocess on an existing embedded mesh; default CHSR_DATA_DIR)")
    p.add_argument("--inprocess", action="store_true", help="also run the pipelines in-process; report the ratio")
    p.add_argument("--inprocess-concurrency", type=_ints, default=[1])
    p.add_argument("--no-cache-hit", dest="cache_hit", action="store_false", help="skip the cache-hit runs")
    p.add_argument("--hit-queries", type=int, default=8, help="size of the primed cache-hit query set")
    p.add_argument("--warmup", type=float, default=1.0, help="unrecorded seconds before each run")
    p.add_argument("--deadline", type=float, default=5.0, help="client deadline per request, seconds")
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--levers", action="store_true", help="also measure the encoder levers (micro-batching, ONNX)")
    p.add_argument("--onnx", action="store_true", help="include the ONNX Runtime int8 encoder in --levers")
    p.add_argument("--lever-duration", type=float, default=5.0)
    p.add_argument("--anchor", action="store_true",
                   help="also time Weaviate's own hybrid call on the same queries (engines): the report's ratio")
    p.add_argument("--settle-max", type=float, default=300.0,
                   help="wait up to this many seconds for the engines to go idle (< 0.15 cores over 5 s) before "
                        "measuring, e.g. after an ingest; 0 = measure at once (default 300)")
    p.add_argument("--out", type=Path, default=Path("benchmarks/load"))
    p.set_defaults(func=cmd_load)

    p = bsub.add_parser("profile", help="py-spy on every Python server under load: CPU-ms per request by stage, "
                                        "process and library; writes profile.json, README.md, raw stacks")
    p.add_argument("--pipelines", type=_names, default=["C", "E"], help="comma-separated (default C,E)")
    p.add_argument("--concurrency", type=_ints, default=[1, 8], help="comma-separated (default 1,8)")
    p.add_argument("--duration", type=float, default=8.0, help="seconds per profiled run (default 8)")
    p.add_argument("--queries", choices=SOURCES, default="mixed")
    p.add_argument("--max-queries", type=int, default=1000)
    p.add_argument("--gateway", default=None, help=f"gateway to drive (default {get_settings().gateway})")
    p.add_argument("--start-mesh", action="store_true", help="start our own mesh and ingest --corpus")
    p.add_argument("--backend", choices=["embedded", "engines"], default="embedded")
    p.add_argument("--corpus", type=Path, action="append", default=[])
    p.add_argument("--rate", type=int, default=100, help="py-spy samples per second (default 100)")
    p.add_argument("--out", type=Path, default=Path("benchmarks/profile"))
    p.set_defaults(func=cmd_profile)

    p = bsub.add_parser("levers", help="encoder levers only (in-process): micro-batching, ONNX int8, nDCG cost")
    p.add_argument("--concurrency", type=_ints, default=[1, 4, 8])
    p.add_argument("--duration", type=float, default=5.0)
    p.add_argument("--queries", choices=SOURCES, default="mixed")
    p.add_argument("--onnx", action="store_true")
    p.add_argument("--out", type=Path, default=Path("benchmarks/load/levers.json"))
    p.set_defaults(func=cmd_levers)


def cmd_load(args: argparse.Namespace) -> int:
    from tools.bench.load import LoadConfig, run_load

    logging.getLogger("chsr").setLevel(logging.INFO)
    cfg = LoadConfig(pipelines=args.pipelines, concurrency=args.concurrency, duration_s=args.duration,
                     queries=args.queries, max_queries=args.max_queries, gateway=args.gateway,
                     start_mesh=args.start_mesh, backend=args.backend, corpora=args.corpus,
                     data_dir=args.data_dir,
                     inprocess=args.inprocess, inprocess_concurrency=args.inprocess_concurrency,
                     cache_hit=args.cache_hit, hit_queries=args.hit_queries, warmup_s=args.warmup,
                     deadline_s=args.deadline, k=args.k, levers=args.levers, onnx=args.onnx,
                     lever_duration_s=args.lever_duration, anchor=args.anchor, settle_max_s=args.settle_max,
                     out=args.out)
    report = run_load(cfg)
    failed = sum(sum(r["errors"].values()) for r in report["runs"])  # type: ignore[union-attr]
    runs = len(report["runs"])  # type: ignore[arg-type]
    sys.stdout.write(f"wrote {args.out}/README.md, report.json and plots ({runs} runs, {failed} failed requests)\n")
    return 0


def cmd_profile(args: argparse.Namespace) -> int:
    from tools.bench.profile import ProfileConfig, run_profile

    logging.getLogger("chsr").setLevel(logging.INFO)
    cfg = ProfileConfig(pipelines=args.pipelines, concurrency=args.concurrency, duration_s=args.duration,
                        queries=args.queries, max_queries=args.max_queries, gateway=args.gateway,
                        start_mesh=args.start_mesh, backend=args.backend, corpora=args.corpus,
                        rate_hz=args.rate, out=args.out)
    report = run_profile(cfg)
    sys.stdout.write(f"wrote {args.out}/README.md and profile.json ({len(report['runs'])} runs)\n")  # type: ignore[arg-type]
    return 0


def cmd_levers(args: argparse.Namespace) -> int:
    from tools.bench.levers import encoder_levers
    from tools.bench.queries import load_queries
    from chsr.config import Settings

    queries, used = load_queries(args.queries, 1000)
    report = encoder_levers(Settings(), queries, args.concurrency, args.duration, args.onnx) | {"queries": used}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    sys.stdout.write(f"wrote {args.out}\n")
    return 0
