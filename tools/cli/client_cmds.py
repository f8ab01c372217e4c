"""Client commands: ingest, search, context, run, index stats/verify/delete-source."""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
from tqdm import tqdm

from chsr.client import GatewayClient, rpc_error_message
from tools.corpus import list_errors, parse_corpus, read_corpus
from chsr.config import get_settings
from tools.runfile import response_to_record, write_trec
from chsr.relaxation import step_name



def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ingest", help="ingest files (PDF, DOCX, Markdown, HTML, text; folders and globs) or BEIR "
                                      "corpus .jsonl files through the gateway (idempotent)")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (recursive) or quoted globs; *.jsonl are BEIR corpora")
    p.add_argument("--manifest", type=Path, help="YAML or CSV mapping file paths/globs to curriculum fields")
    p.add_argument("--root", type=Path, help="name files relative to this folder (default: what each PATH names)")
    p.add_argument("--skip-invalid", action="store_true",
                   help="JSONL: ingest the valid lines and list the skipped ones (default: a bad line refuses the file)")
    p.add_argument("--json", action="store_true", help="print per-file results as JSON lines instead of a table")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--gateway", default=get_settings().gateway)
    p.add_argument("--batch-size", type=int, default=64)
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("context", help="a prompt-ready, cited context for a query under a token budget, "
                                       "with an extractive answer")
    p.add_argument("query")
    p.add_argument("--budget", type=int, default=512, help="token budget of the context (default 512)")
    p.add_argument("--pipeline", "-p", default="", help="default E")
    p.add_argument("--candidates", type=int, default=0, help="search results to draw from (default 20)")
    p.add_argument("--sentences", type=int, default=0, help="sentences in the extractive answer (default 3)")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--json", action="store_true", help="print the response as JSON")
    p.add_argument("--gateway", default=get_settings().gateway)
    for field in ("subject", "level", "year", "session", "paper", "content-type", "question-number", "language"):
        p.add_argument(f"--{field}", action="append", help=f"client scope hint: {field} (repeatable)")
    p.set_defaults(func=cmd_context)

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
    v = isub.add_parser("verify", help="compare the ids and content hashes of every backend (and a corpus, if given)")
    v.add_argument("--corpus", type=Path)
    v.add_argument("--source", default="", help="check one ingested file's chunks only")
    v.add_argument("--gateway", default=get_settings().gateway)
    v.set_defaults(func=cmd_verify)
    d = isub.add_parser("delete-source", help="delete every chunk of ingested files (by source name) everywhere")
    d.add_argument("sources", nargs="+", metavar="SOURCE")
    d.add_argument("--gateway", default=get_settings().gateway)
    d.set_defaults(func=cmd_delete_source)


def _fail(message: str, code: int = 2) -> int:
    sys.stderr.write(f"error: {message}\n")
    return code


READY_WAIT_S = 300.0


def cmd_ingest(args: argparse.Namespace) -> int:
    corpora = [Path(p) for p in args.paths if p.lower().endswith(".jsonl")]
    others = [p for p in args.paths if not p.lower().endswith(".jsonl")]
    with GatewayClient(args.gateway) as client:  # a mesh still starting: wait until every stage answers
        if not client.wait_ready(timeout=2.0):
            sys.stderr.write(f"waiting for the mesh at {client.address} to be ready ...\n")
            if not client.wait_ready(timeout=READY_WAIT_S):
                return _fail(f"the mesh at {client.address} is not ready after {READY_WAIT_S:.0f}s "
                             "(is `chsr up` running?); nothing was sent")
    code = 0
    for corpus in corpora:
        code = max(code, _ingest_corpus(args, corpus))
    if others:
        code = max(code, _ingest_files(args, others))
    return code


def _ingest_corpus(args: argparse.Namespace, corpus: Path) -> int:
    if not corpus.exists():
        return _fail(f"corpus: no such file: {corpus}")
    parsed = parse_corpus(corpus)
    if parsed.errors and not args.skip_invalid:
        return _fail(f"corpus rejected, nothing was sent (--skip-invalid ingests the valid lines):\n"
                     f"{list_errors(parsed.errors)}")
    if parsed.errors:
        sys.stdout.write(f"skipped {len(parsed.errors)} invalid line(s) of {corpus}:\n"
                         + "\n".join(f"  {e}" for e in parsed.errors) + "\n")
    if not parsed.docs:
        return _fail(f"corpus: {corpus} has no valid document")
    bar = tqdm(total=len(parsed.docs), unit="doc", desc="ingest", file=sys.stderr, disable=args.no_progress)
    try:
        summary = GatewayClient(args.gateway).ingest(parsed.docs, args.batch_size, on_batch=bar.update)
    except grpc.RpcError as exc:
        bar.close()
        return _fail(rpc_error_message(exc))
    bar.close()
    sys.stdout.write(f"received {summary.received}, indexed {summary.indexed}, unchanged {summary.unchanged}, "
                     f"generation {summary.generation}" + (f", skipped {len(parsed.errors)}" if parsed.errors else "")
                     + "\n")
    return 0


def _ingest_files(args: argparse.Namespace, paths: list[str]) -> int:
    from services.ingest.errors import IngestFileError
    from services.ingest.manifest import load_manifest
    from tools.cli.ingest_files import FileBars, PathError, expand, results_of, summary_table

    try:
        files, skipped = expand(paths, args.root)
    except PathError as exc:
        return _fail(str(exc))
    manifest = fmt = ""
    if args.manifest:
        try:
            load_manifest(str(args.manifest))  # refuse an unreadable manifest before sending anything
        except IngestFileError as exc:
            return _fail(f"manifest: {exc.detail}")
        manifest = args.manifest.read_text(encoding="utf-8")
        fmt = "csv" if args.manifest.suffix.lower() == ".csv" else "yaml"
    if skipped:
        sys.stderr.write(f"ignored {len(skipped)} file(s) with other extensions, e.g. {skipped[0]}\n")
    if not files:
        return _fail("no files to ingest")
    bars = FileBars({f.name: f.path.stat().st_size for f in files}, enabled=not args.no_progress)
    client = GatewayClient(args.gateway)
    try:
        results, summary = results_of(client.ingest_files([(f.name, f.path) for f in files], manifest=manifest,
                                                          manifest_format=fmt, manifest_name=str(args.manifest or "")),
                                      bars)
    except grpc.RpcError as exc:
        return _fail(rpc_error_message(exc))
    if args.json:
        from google.protobuf.json_format import MessageToDict
        for r in results:
            sys.stdout.write(json.dumps(MessageToDict(r), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(summary_table(results, summary) + "\n")
    return 1 if any(r.HasField("error") for r in results) else 0


def cmd_context(args: argparse.Namespace) -> int:
    try:
        resp = GatewayClient(args.gateway).context(args.query, args.budget, args.pipeline, _hints(args), args.strict,
                                                   args.candidates, args.sentences)
    except (grpc.RpcError, ValueError) as exc:
        return _fail(rpc_error_message(exc) if isinstance(exc, grpc.RpcError) else str(exc))
    if args.json:
        from google.protobuf.json_format import MessageToJson
        sys.stdout.write(MessageToJson(resp) + "\n")
        return 0
    out = [resp.context or "(no passages)", "",
           f"-- {len(resp.passages)} passages, {resp.tokens}/{resp.budget_tokens} tokens, pipeline {resp.pipeline}, "
           f"step {step_name(resp.final_step)}; {resp.duplicates_removed} duplicates removed, {resp.left_out} left out"
           + (f"; degraded {list(resp.degraded)}" if resp.degraded else "")]
    if resp.answer:
        out += ["", "Answer (extractive):"] + [f"  [{a.passage}] {a.text}" for a in resp.answer]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def cmd_delete_source(args: argparse.Namespace) -> int:
    try:
        resp = GatewayClient(args.gateway).delete_sources(args.sources)
    except grpc.RpcError as exc:
        return _fail(rpc_error_message(exc))
    for s in resp.sources:
        sys.stdout.write(f"{s.source}: {s.deleted} chunks deleted\n")
    sys.stdout.write(f"generation {resp.generation}\n")
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
    language = f"  language {resp.query_language.code}" if resp.HasField("query_language") else ""
    out = [f"pipeline {resp.pipeline}  final step {step_name(resp.final_step)}  cache_hit {resp.cache_hit}{language}"
           + (f"  degraded {list(resp.degraded)}" if resp.degraded else "")]
    for r in resp.results:
        flags = f" violates {list(r.violations)}" if r.violations else ""
        notes = f"  ({'; '.join(r.notes)})" if r.notes else ""
        out.append(f"{r.rank:>3}. {r.score:8.4f}  {r.doc_id}  [{step_name(r.relaxation)}]{flags}{notes}")
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
    resp = GatewayClient(args.gateway).verify(expected, source=args.source)
    for b in resp.backends:
        sys.stdout.write(f"{b.backend}: {b.count} ids, missing {b.missing_count}, extra {b.extra_count}, "
                         f"differing {b.differing_count}"
                         + (f" e.g. missing {list(b.missing[:5])}" if b.missing_count else "")
                         + (f" e.g. differing {list(b.differing[:5])}" if b.differing_count else "") + "\n")
    if resp.inconsistent_source_count:
        sys.stdout.write(f"inconsistent sources ({resp.inconsistent_source_count}): "
                         f"{', '.join(resp.inconsistent_sources[:20])}\n")
    sys.stdout.write("consistent\n" if resp.consistent else "INCONSISTENT\n")
    return 0 if resp.consistent else 1
