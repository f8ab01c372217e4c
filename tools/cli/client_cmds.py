"""Client commands: ingest, search, run, index stats/verify."""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
from tqdm import tqdm

from chsr.client import GatewayClient, rpc_error_message
from tools.corpus import CorpusError, read_corpus
from chsr.config import get_settings
from tools.runfile import response_to_record, write_trec
from chsr.relaxation import step_name



def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ingest", help="ingest a BEIR corpus.jsonl through the gateway (idempotent by _id)")
    p.add_argument("corpus", type=Path)
    p.add_argument("--gateway", default=get_settings().gateway)
    p.add_argument("--batch-size", type=int, default=64)
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("search", help="search through the gateway and print results with stage timings")
    p.add_argument("query")
    p.add_argument("--gateway", default=get_settings().gateway)
    p.add_argument("--pipeline", "-p", default="")
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--strict", action="store_true")
    p.add_argument("--json", action="store_true", help="print the response as JSON")
    for field in ("subject", "level", "year", "session", "paper", "content-type", "question-number", "language"):
        p.add_argument(f"--{field}", action="append", help=f"client scope hint: {field} (repeatable)")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("run", help="run a BEIR queries.jsonl through the gateway; write a run file")
    p.add_argument("queries", type=Path)
    p.add_argument("--pipeline", "-p", default="")
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--trec", type=Path)
    p.add_argument("--ids-from", type=Path, help="qrels TSV: keep only the query ids it lists")
    p.add_argument("--gateway", default=get_settings().gateway)
    p.add_argument("--concurrency", type=int, default=2)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("index", help="index administration")
    isub = p.add_subparsers(dest="index_cmd", required=True)
    s = isub.add_parser("stats", help="document counts and generation per backend")
    s.add_argument("--gateway", default=get_settings().gateway)
    s.set_defaults(func=cmd_stats)
    v = isub.add_parser("verify", help="compare the id sets of every backend (and a corpus, if given)")
    v.add_argument("--corpus", type=Path)
    v.add_argument("--gateway", default=get_settings().gateway)
    v.set_defaults(func=cmd_verify)


def _fail(message: str, code: int = 2) -> int:
    sys.stderr.write(f"error: {message}\n")
    return code


def cmd_ingest(args: argparse.Namespace) -> int:
    if not args.corpus.exists():
        return _fail(f"corpus: no such file: {args.corpus}")
    try:
        docs = read_corpus(args.corpus)
    except CorpusError as exc:
        return _fail(f"corpus rejected, nothing was sent:\n{exc}")
    bar = tqdm(total=len(docs), unit="doc", desc="ingest", file=sys.stderr)
    try:
        summary = GatewayClient(args.gateway).ingest(docs, args.batch_size, on_batch=bar.update)
    except grpc.RpcError as exc:
        bar.close()
        return _fail(rpc_error_message(exc))
    bar.close()
    sys.stdout.write(f"received {summary.received}, indexed {summary.indexed}, unchanged {summary.unchanged}, "
                     f"generation {summary.generation}\n")
    return 0


def _hints(args: argparse.Namespace) -> dict:
    hints: dict = {}
    for field in ("subject", "level", "year", "session", "paper", "content_type", "question_number", "language"):
        values = getattr(args, field, None)
        if values:
            hints[field] = [int(v) for v in values] if field in ("year", "question_number") else values
    return hints


def cmd_search(args: argparse.Namespace) -> int:
    try:
        resp = GatewayClient(args.gateway).search(args.query, args.k, args.pipeline, _hints(args), args.strict)
    except (grpc.RpcError, ValueError) as exc:
        return _fail(rpc_error_message(exc) if isinstance(exc, grpc.RpcError) else str(exc))
    if args.json:
        from google.protobuf.json_format import MessageToJson
        sys.stdout.write(MessageToJson(resp) + "\n")
        return 0
    out = [f"pipeline {resp.pipeline}  final step {step_name(resp.final_step)}  cache_hit {resp.cache_hit}"
           + (f"  degraded {list(resp.degraded)}" if resp.degraded else "")]
    for r in resp.results:
        flags = f" violates {list(r.violations)}" if r.violations else ""
        out.append(f"{r.rank:>3}. {r.score:8.4f}  {r.doc_id}  [{step_name(r.relaxation)}]{flags}")
        out.append(f"      {(r.title + ': ' if r.title else '') + r.text[:140]}")
    out.append("timings (ms): " + "  ".join(f"{t.stage}={t.ms:.1f}" for t in resp.timings))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _load_queries(path: Path, ids_from: Path | None) -> list[dict]:
    keep: set[str] | None = None
    if ids_from:
        keep = set()
        for line in ids_from.read_text().splitlines()[1:]:
            if line.strip():
                keep.add(line.split("\t")[0])
    queries = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        obj = json.loads(line)
        if "_id" not in obj or "text" not in obj:
            raise ValueError(f"{path}:{line_no}: query needs '_id' and 'text'")
        if keep is None or str(obj["_id"]) in keep:
            queries.append(obj)
    return queries


def cmd_run(args: argparse.Namespace) -> int:
    try:
        queries = _load_queries(args.queries, args.ids_from)
    except (ValueError, json.JSONDecodeError) as exc:
        return _fail(str(exc))
    client = GatewayClient(args.gateway)

    def one(q: dict) -> dict:
        try:
            resp = client.search(q["text"], args.k, args.pipeline, q.get("scope"), timeout=60)
            return response_to_record(str(q["_id"]), resp)
        except grpc.RpcError as exc:
            return {"query_id": str(q["_id"]), "results": [], "error": rpc_error_message(exc)}

    with ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        records = list(tqdm(pool.map(one, queries), total=len(queries), desc="run", unit="q", file=sys.stderr))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    if args.trec:
        write_trec(records, args.trec, args.pipeline or "default")
    failed = sum(1 for r in records if "error" in r)
    sys.stdout.write(f"wrote {len(records)} queries to {args.out} ({failed} failed)\n")
    return 1 if failed else 0


def cmd_stats(args: argparse.Namespace) -> int:
    resp = GatewayClient(args.gateway).stats()
    for b in resp.backends:
        sys.stdout.write(f"{b.backend}: {b.documents} documents, generation {b.generation} {dict(b.details)}\n")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    expected = [d.id for d in read_corpus(args.corpus)] if args.corpus else []
    resp = GatewayClient(args.gateway).verify(expected)
    for b in resp.backends:
        sys.stdout.write(f"{b.backend}: {b.count} ids, missing {b.missing_count}, extra {b.extra_count}"
                         + (f" e.g. missing {list(b.missing[:5])}" if b.missing_count else "") + "\n")
    sys.stdout.write("consistent\n" if resp.consistent else "INCONSISTENT\n")
    return 0 if resp.consistent else 1
