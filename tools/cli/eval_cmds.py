"""`chsr eval beir` and `chsr eval cerb`: benchmarks through the gateway.

The benchmark modules (ranx, matplotlib) are imported when a command runs, so a
missing optional dependency cannot hide the whole `eval` command group.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import grpc

from chsr.client import rpc_error_message
from chsr.config import get_settings

log = logging.getLogger(__name__)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="benchmarks through the gateway: BEIR, CERB curriculum")
    esub = p.add_subparsers(dest="eval_cmd", required=True)

    b = esub.add_parser("beir", help="run a BEIR split through the gateway per pipeline; write a report dir")
    b.add_argument("data_dir", type=Path, help="BEIR folder: queries.jsonl, qrels/<split>.tsv")
    b.add_argument("--split", default="test", help="qrels split to report on (tune on train only)")
    b.add_argument("--pipelines", required=True, help="comma-separated pipeline names")
    b.add_argument("--baseline", default="rrf", help="pipeline the paired bootstrap compares against (added if absent)")
    b.add_argument("--k", "-k", type=int, default=100, help="results per query (R@100 needs 100)")
    b.add_argument("--gateway", default=get_settings().gateway)
    b.add_argument("--out", type=Path, default=Path("benchmarks/scifact"))
    b.add_argument("--concurrency", type=int, default=2, help="requests in flight (2: the 2-core reference machine)")
    b.add_argument("--max-queries", type=int, help="keep the first N queries of the split (smoke runs)")
    b.add_argument("--pairs", default="", help="extra paired bootstraps, pipeline:reference,... (e.g. rrf_ce:rrf)")
    b.add_argument("--h1-pipeline", help="pipeline whose entropies/quality form the README's H1 table "
                                         "(default: the first entropy-fusion pipeline run)")
    b.set_defaults(func=cmd_beir)

    c = esub.add_parser("cerb", help="run CERB-style cases through the gateway per variant; write a report dir")
    c.add_argument("--corpus", type=Path, required=True, help="the corpus.jsonl the mesh indexed (chunk metadata)")
    c.add_argument("--cases", type=Path, required=True, help="cases jsonl (curriculum README schema)")
    c.add_argument("--pipelines", default="A,B,B+,C,D,E", help="variants in ablation order (bootstrap: consecutive)")
    c.add_argument("--k", "-k", type=int, default=8, help="results per query (seed 000: K = 8)")
    c.add_argument("--hints", choices=("none", "gold"), default="none",
                   help="gold: send the gold subject + level as client hints")
    c.add_argument("--gateway", default=get_settings().gateway)
    c.add_argument("--out", type=Path, default=Path("benchmarks/cerb-dev"))
    c.add_argument("--concurrency", type=int, default=1)
    c.add_argument("--max-cases", type=int, help="keep the first N cases (smoke runs)")
    c.set_defaults(func=cmd_cerb)

    s = esub.add_parser("strategies", help="seed 003's fifteen strategies through the gateway (MRR, R@1/3/5, "
                                            "nDCG@5, entity/relation coverage); writes <out>/<dataset>.json")
    s.add_argument("dataset", choices=("scifact", "curriculum"))
    s.add_argument("data_dir", type=Path, help="the BEIR folder (scifact) or the curriculum folder")
    s.add_argument("--targets", type=Path, default=Path("benchmarks/strategies/targets.jsonl"))
    s.add_argument("--gateway", default=get_settings().gateway)
    s.add_argument("--out", type=Path, default=Path("benchmarks/strategies"))
    s.add_argument("--concurrency", type=int, default=1)
    s.set_defaults(func=cmd_strategies)


def _pipelines(value: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(p.strip() for p in value.split(",") if p.strip()))
    if not names:
        raise ValueError("pipelines: give at least one name")
    return names


def _fail(message: str, code: int = 2) -> int:
    sys.stderr.write(f"error: {message}\n")
    return code


def _check_pipelines(gateway: str, names: tuple[str, ...]) -> None:
    """Ask the gateway which pipelines it serves so a typo fails before any query runs."""
    from chsr.client import GatewayClient

    served = {p.name for p in GatewayClient(gateway).pipelines().pipelines}
    unknown = [n for n in names if n not in served]
    if unknown:
        raise ValueError(f"pipelines: unknown {unknown}; the gateway serves: {', '.join(sorted(served))}")


def cmd_beir(args: argparse.Namespace) -> int:
    from tools.eval.beir import BeirConfig, run_beir
    from tools.eval.beir_report import write_beir_report

    try:
        cfg = BeirConfig(args.data_dir, args.split, _pipelines(args.pipelines), args.baseline, args.k, args.gateway,
                         args.out, args.concurrency, args.max_queries, args.h1_pipeline,
                         tuple(tuple(p.split(":", 1)) for p in args.pairs.split(",") if ":" in p))  # type: ignore[misc]
        _check_pipelines(args.gateway, cfg.pipelines + (cfg.baseline,))
        results, runs = run_beir(cfg)
    except grpc.RpcError as exc:
        return _fail(rpc_error_message(exc))
    except (OSError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    write_beir_report(args.out, results, runs)
    failed = sum(results["errors"].values())
    summary = ", ".join(f"{p} nDCG@10 {results['metrics'][p]['ndcg@10']:.4f}" for p in results["pipelines"])
    sys.stdout.write(f"wrote {args.out}/README.md: {summary}" + (f" ({failed} failed requests)" if failed else "")
                     + "\n")
    return 1 if failed else 0


def cmd_strategies(args: argparse.Namespace) -> int:
    from chsr.client import GatewayClient
    from tools.eval import strategies as st
    from tools.eval.strategies_report import save

    try:
        data = st.load_scifact(args.data_dir) if args.dataset == "scifact" else st.load_curriculum(args.data_dir)
        targets = st.load_targets(args.targets, args.dataset) if args.targets.exists() else {}
        result = st.evaluate(GatewayClient(args.gateway), data, targets, concurrency=args.concurrency)
    except grpc.RpcError as exc:
        return _fail(rpc_error_message(exc))
    except (OSError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    save(args.out, result)
    summary = ", ".join(f"#{r['number']} MRR {r['mrr@10']:.3f}" for r in result["rows"] if r["available"])
    sys.stdout.write(f"wrote {args.out}/{args.dataset}.json: {summary}\n")
    return 0


def cmd_cerb(args: argparse.Namespace) -> int:
    from tools.eval.cerb import CerbConfig, run_cerb
    from tools.eval.cerb_report import write_cerb_report

    try:
        cfg = CerbConfig(args.corpus, args.cases, _pipelines(args.pipelines), args.k, args.hints, args.gateway,
                         args.out, args.concurrency, args.max_cases)
        _check_pipelines(args.gateway, cfg.pipelines)
        results, rows, runs = run_cerb(cfg)
    except grpc.RpcError as exc:
        return _fail(rpc_error_message(exc))
    except (OSError, ValueError, RuntimeError) as exc:
        return _fail(str(exc))
    write_cerb_report(args.out, results, rows, runs)
    failed = sum(s["errors"] for s in results["summary"].values())
    summary = ", ".join(f"{p} tuple-leakage {s['tuple_leakage']:.3f} ESS {s['ess'] or 0:.3f}"
                        for p, s in results["summary"].items())
    sys.stdout.write(f"wrote {args.out}/README.md: {summary}" + (f" ({failed} failed requests)" if failed else "")
                     + "\n")
    return 1 if failed else 0
