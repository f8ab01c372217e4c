"""``python -m tools.ingest_bench.mesh --docs DIR [--backend embedded|engines] [--json OUT]``: files through the mesh.

Issue 11's mesh figures, on a generated set (``python -m tools.docgen``):

1. **end-to-end ingest throughput**: every file of the set through ``chsr``'s own client
   (``GatewayClient.ingest_files``: gateway -> ingest server -> gate -> every retrieval
   backend, embeddings included), wall clock, in files/s and chunks/s; then the same files
   again (unchanged: parsed, nothing written);
2. **metadata accuracy** per field as the mesh resolved it (the gate read over gRPC), against
   what each cover states;
3. **retrieval of the right chunk** (nDCG@8, recall@8, MRR@8, pipeline E, k = 8): the set is cut
   to one format per document (round robin pdf, docx, md, html; the other three copies are
   removed with ``DeleteSource``, which is timed), then
   * *quote* queries: 10 consecutive words (20 characters for Chinese) of a question's stem;
     the right chunk is the one of that file and question whose text contains the quote;
   * *paraphrase* queries: the human-written curriculum dev cases (``cases.dev.jsonl``) whose
     relevant corpus item is a question or textbook section of the set; the right chunks are that
     question's (or section's) chunks in the file that holds it, graded as the case grades them.

The mesh is started here (``tools.cli.up_cmd.Supervisor``) with the gate's vocabulary built from
the curriculum corpus, as the gate runs over it, and an empty embedding cache (``--warm-cache``
reuses ``CHSR_CACHE_DIR``: the dense server caches embeddings by content hash, so a second run over
the same set skips the encoder). Engines: Elasticsearch, Weaviate and Redis
must run (``deploy/local/engines.sh start all``); the run uses its own index and collection and
drops them.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import re
import sys
import tempfile
import time
import unicodedata
import urllib.request
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

import grpc

from chsr.client import GatewayClient
from chsr.documents import Doc
from chsr.v1 import gateway_pb2, retriever_pb2, retriever_pb2_grpc
from tools.bench.mesh import free_port_block
from tools.cli.up_cmd import MeshLayout, Supervisor
from tools.eval.metrics import ndcg_reference
from tools.ingest_bench.__main__ import DEFAULT_CORPUS

log = logging.getLogger("ingest_bench.mesh")
FORMATS = ("pdf", "docx", "md", "html")
K = 8
QUOTE_WORDS = 10
QUOTE_CHARS_CJK = 20
_CJK = re.compile(r"[\u3400-\u9fff]")


def fold(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


# ---- the mesh ------------------------------------------------------------------------------
def start(backend: str, corpus: Path, root: Path, run: str, warm_cache: bool) -> tuple[Supervisor, MeshLayout, dict[str, str]]:
    base = free_port_block(16)
    layout = MeshLayout("127.0.0.1", base, base + 8)
    env = {"CHSR_VOCABULARY_PATH": str(corpus), "OMP_WAIT_POLICY": "PASSIVE"}
    if not warm_cache:  # the dense server caches embeddings by content hash: a cold run embeds every chunk
        env["CHSR_CACHE_DIR"] = str(root / "embeddings")
    if backend == "engines":
        env |= {"CHSR_ES_INDEX": f"chsr-ingest-bench-{run}", "CHSR_WEAVIATE_COLLECTION": f"ChsrIngestBench{run}",
                "CHSR_REDIS_URL": "redis://127.0.0.1:16379/6"}
    sup = Supervisor(layout, backend, str(root / "data"), root / "logs", restart=False, extra_env=env)
    sup.start_all(timeout_s=600)
    return sup, layout, env


def drop_engines(env: dict[str, str]) -> None:
    index, coll = env.get("CHSR_ES_INDEX"), env.get("CHSR_WEAVIATE_COLLECTION")
    if not index:
        return
    for url in (f"http://127.0.0.1:19200/{index}", f"http://127.0.0.1:19200/{index}-meta",
                f"http://127.0.0.1:18080/v1/schema/{coll}", f"http://127.0.0.1:18080/v1/schema/{coll}Meta"):
        try:
            urllib.request.urlopen(urllib.request.Request(url, method="DELETE"), timeout=30).close()
        except OSError:
            pass


def ingest(client: GatewayClient, docs: Path, files: list[str]) -> tuple[list[gateway_pb2.FileResult], float]:
    started = time.perf_counter()
    results = [e.file for e in client.ingest_files([(f, docs / f) for f in files], timeout=7200)
               if e.WhichOneof("event") == "file"]
    return results, time.perf_counter() - started


def chunks_of(layout: MeshLayout, sources: list[str]) -> dict[str, list[Doc]]:
    """source -> its stored chunks (asked of the sparse server, as any tool may)."""
    stub = retriever_pb2_grpc.RetrieverServiceStub(grpc.insecure_channel(layout.addr("sparse")))
    out: dict[str, list[Doc]] = {}
    for source in sources:
        ids = [i for page in stub.ListIds(retriever_pb2.ListIdsRequest(source=source), timeout=120)
               for i in page.doc_ids]
        docs: list[Doc] = []
        for start in range(0, len(ids), 1000):
            resp = stub.GetDocuments(retriever_pb2.GetDocumentsRequest(doc_ids=ids[start:start + 1000]), timeout=120)
            docs += [Doc.from_proto(d) for d in resp.documents]
        out[source] = docs
    return out


# ---- scoring ---------------------------------------------------------------------------------
def metadata_accuracy(results: list[gateway_pb2.FileResult], truth: dict[str, dict]) -> tuple[dict, list[str]]:
    fields: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    for r in results:
        record = truth.get(r.file)
        if record is None or r.HasField("error"):
            continue
        got = {f.field: f.value for f in r.fields}
        stated = dict(record["cover_fields"]) | {"language": record["language"]}
        for name, want in stated.items():
            ok = got.get(name) == (str(want) if want is not None else None)
            fields[name][0] += ok
            fields[name][1] += 1
            if not ok:
                misses.append(f"{r.file}: {name} = {got.get(name)!r}, cover states {want!r}")
    return {k: {"correct": c, "total": t, "accuracy": c / t} for k, (c, t) in sorted(fields.items())}, misses


def quote_of(stem: str, rng: random.Random) -> str | None:
    if _CJK.search(stem):
        text = re.sub(r"\s+", "", stem)
        if len(text) < QUOTE_CHARS_CJK + 4:
            return None
        start = rng.randrange(0, max(1, min(len(text) - QUOTE_CHARS_CJK, 40)))
        return text[start:start + QUOTE_CHARS_CJK]
    words = [w for w in stem.split()]
    windows = [i for i in range(0, max(0, len(words) - QUOTE_WORDS) + 1)
               if not any("\\" in w or "$" in w for w in words[i:i + QUOTE_WORDS])]
    if len(words) < QUOTE_WORDS or not windows:
        return None
    start = rng.choice(windows[:max(1, len(windows) // 2 + 1)])
    return " ".join(words[start:start + QUOTE_WORDS])


def quote_queries(kept: list[dict], chunks: dict[str, list[Doc]], seed: int) -> tuple[list[dict], int]:
    """(queries with their relevant chunk ids, how many fell back to every chunk of the question)."""
    rng = random.Random(seed)
    queries, fallback = [], 0
    for record in kept:
        if record["kind"] not in ("exam", "worksheet"):
            continue
        docs = chunks.get(record["file"], [])
        for q in record["questions"]:
            quote = quote_of(q["stem"], rng)
            if quote is None:
                continue
            of_question = [d for d in docs if d.metadata.get("question_number") == q["number"]]
            holding = [d.id for d in of_question if fold(quote) in fold(d.text)]
            if not holding:
                fallback += 1
                holding = [d.id for d in of_question]
            queries.append({"id": f"quote:{record['file']}#{q['number']}", "text": quote,
                            "relevant": {i: 1 for i in holding}, "file": record["file"], "question": q["number"]})
    return queries, fallback


def paraphrase_queries(kept: list[dict], chunks: dict[str, list[Doc]], cases_path: Path) -> list[dict]:
    where: dict[str, list[str]] = defaultdict(list)  # corpus id -> chunk ids holding it
    for record in kept:
        docs = chunks.get(record["file"], [])
        if record["kind"] in ("exam", "worksheet"):
            for q in record["questions"]:
                where[q["corpus_id"]] += [d.id for d in docs if d.metadata.get("question_number") == q["number"]]
        elif record["kind"] == "textbook":
            for s in record["sections"]:
                ids = [d.id for d in docs if d.citation and s["heading"] in d.citation.heading_path]
                for cid in s["corpus_ids"]:
                    where[cid] += ids
    queries = []
    for line in cases_path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        relevant = {i: grade for cid, grade in case["relevant"].items() for i in where.get(cid, [])}
        if relevant:
            queries.append({"id": f"case:{case['case_id']}", "text": case["query"], "relevant": relevant,
                            "slice": case.get("slice", "")})
    return queries


def miss_kind(q: dict, top: gateway_pb2.SearchResult | None) -> str:
    """Why a query's right chunk is not ranked: nothing came back, the top hit is another chunk of
    the same file, the same text in another file (AMC 10 and 12 papers share questions; solutions
    quote their question), or something else."""
    if top is None:
        return "no_results"
    if q.get("file") and top.citation.source == q["file"]:
        return "same_file_other_chunk"
    quote = fold(q["text"])
    if q.get("file") and quote and quote in fold(top.text):
        return "same_text_other_file"
    return "other"


def evaluate(client: GatewayClient, queries: list[dict], pipeline: str) -> dict[str, Any]:
    per_query, latencies = [], []
    for q in queries:
        started = time.perf_counter()
        resp = client.search(q["text"], k=K, pipeline=pipeline, no_cache=True, timeout=60)
        latencies.append((time.perf_counter() - started) * 1000)
        ranked = [r.doc_id for r in resp.results]
        rels = q["relevant"]
        first = next((i + 1 for i, d in enumerate(ranked) if rels.get(d, 0) > 0), None)
        top = resp.results[0] if resp.results else None
        per_query.append({"id": q["id"], "query": q["text"], "ndcg@8": ndcg_reference(rels, ranked, K),
                          "recall@8": len({d for d in ranked if rels.get(d, 0) > 0}) / len(rels),
                          "rr@8": 1 / first if first else 0.0, "top": ranked[:1],
                          "top_source": top.citation.source if top else None, "final_step": resp.final_step,
                          "miss": None if first else miss_kind(q, top)})
    n = len(per_query) or 1
    latencies.sort()
    kinds: dict[str, int] = defaultdict(int)
    for p in per_query:
        if p["miss"]:
            kinds[p["miss"]] += 1
    return {"queries": len(per_query), "pipeline": pipeline,
            **{m: sum(p[m] for p in per_query) / n for m in ("ndcg@8", "recall@8", "rr@8")},
            "hit@1": sum(p["rr@8"] == 1.0 for p in per_query) / n,
            "p50_ms": latencies[len(latencies) // 2] if latencies else None, "miss_kinds": dict(kinds),
            "misses": [p for p in per_query if p["rr@8"] == 0.0], "per_query": per_query}


# ---- the run ---------------------------------------------------------------------------------
def run(docs: Path, backend: str, corpus: Path, cases: Path, seed: int, pipelines: list[str],
        warm_cache: bool = False) -> dict[str, Any]:
    truth = {r["file"]: r for r in map(json.loads, (docs / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines())}
    files = list(truth)
    root = Path(tempfile.mkdtemp(prefix="chsr-ingest-bench-"))
    run_id = uuid.uuid4().hex[:8]
    sup, layout, env = start(backend, corpus, root, run_id, warm_cache)
    report: dict[str, Any] = {"docs": str(docs), "backend": backend, "files": len(files), "pipelines": pipelines,
                              "embedding_cache": "warm" if warm_cache else "cold", "load_before": os.getloadavg()}
    try:
        client = GatewayClient(layout.addr("gateway"), timeout=60)
        results, seconds = ingest(client, docs, files)
        report["load_after_ingest"] = os.getloadavg()
        chunks = sum(r.chunks for r in results if not r.HasField("error"))
        report["ingest"] = {"seconds": seconds, "files_per_s": len(files) / seconds, "chunks": chunks,
                            "chunks_per_s": chunks / seconds, "written": sum(r.written for r in results),
                            "failed": [f"{r.file}: {r.error.detail}" for r in results if r.HasField("error")],
                            "pdf_pages": sum(r.pages for r in results)}
        again, seconds_again = ingest(client, docs, files)
        report["reingest_unchanged"] = {"seconds": seconds_again, "files_per_s": len(files) / seconds_again,
                                        "written": sum(r.written for r in again)}
        report["metadata"], report["metadata_misses"] = metadata_accuracy(results, truth)
        by_doc: dict[str, list[dict]] = defaultdict(list)
        for record in truth.values():
            by_doc[record["doc_id"]].append(record)
        kept, dropped = [], []
        for n, (_, records) in enumerate(sorted(by_doc.items())):
            want = FORMATS[n % len(FORMATS)]
            for record in records:
                (kept if record["format"] == want else dropped).append(record)
        started = time.perf_counter()
        deleted = client.delete_sources([r["file"] for r in dropped], timeout=3600)
        report["delete_sources"] = {"sources": len(dropped), "chunks": sum(s.deleted for s in deleted.sources),
                                    "seconds": time.perf_counter() - started}
        report["verify_consistent"] = client.verify().consistent
        stored = chunks_of(layout, [r["file"] for r in kept])
        quotes, fallback = quote_queries(kept, stored, seed)
        paraphrases = paraphrase_queries(kept, stored, cases)
        report["retrieval"] = {"index_chunks": sum(len(v) for v in stored.values()),
                               "kept_formats": {f: sum(r["format"] == f for r in kept) for f in FORMATS},
                               "fallback_relevance": fallback}
        for name in pipelines:
            report["retrieval"][name] = {"quote": evaluate(client, quotes, name),
                                         "paraphrase": evaluate(client, paraphrases, name)}
    finally:
        sup.stop_all()
        drop_engines(env)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ingest_bench.mesh", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True)
    parser.add_argument("--backend", choices=("embedded", "engines"), default="embedded")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the gate's vocabulary (curriculum corpus)")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CORPUS.parent / "cases.dev.jsonl")
    parser.add_argument("--pipelines", default="E,rrf", help="comma-separated; E is the issue's, rrf an ungated reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm-cache", action="store_true", help="reuse CHSR_CACHE_DIR's embeddings (default: cold)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    report = run(args.docs, args.backend, args.corpus, args.cases, args.seed, args.pipelines.split(","),
                 args.warm_cache)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    i, r = report["ingest"], report["retrieval"]
    sys.stdout.write(f"{args.backend}: {report['files']} files in {i['seconds']:.1f} s = {i['files_per_s']:.2f} files/s, "
                     f"{i['chunks']} chunks = {i['chunks_per_s']:.1f} chunks/s; unchanged again "
                     f"{report['reingest_unchanged']['files_per_s']:.2f} files/s "
                     f"(written {report['reingest_unchanged']['written']}); failed {len(i['failed'])}\n")
    for name in report["pipelines"]:
        for kind in ("quote", "paraphrase"):
            e = r[name][kind]
            sys.stdout.write(f"  {name} {kind}: {e['queries']} queries, nDCG@8 {e['ndcg@8']:.3f}, R@8 {e['recall@8']:.3f}, "
                             f"MRR@8 {e['rr@8']:.3f}, hit@1 {e['hit@1']:.3f}, misses {e['miss_kinds']}\n")
    for name, m in report["metadata"].items():
        sys.stdout.write(f"  {name:14s} {m['accuracy']:.3f} ({m['correct']}/{m['total']})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
