"""What the new legs cost: index build, memory and query time of TF-IDF, PPMI and the knowledge graph.

For each corpus (SciFact, the curriculum corpus): the sparse server's in-server models over the
embedded store and over Elasticsearch (the snapshot scan the engines path adds, docs/decisions.md),
and the graph server's extraction, graph build and Louvain pass. In-process (no gRPC), one thread,
so the figures are the algorithms' own; ``benchmarks/legs-cost`` has the report.

    python -m tools.bench.legs_cost --out benchmarks/legs-cost [--es-url http://127.0.0.1:19200]
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chsr.config import get_settings
from chsr.documents import Doc
from chsr.scope import Scope
from services.graph.extract import extract, query_entities
from services.graph.graph_index import GraphIndex
from services.sparse.leg import SparseLeg
from tools.eval.report import machine_info, write_json

log = logging.getLogger(__name__)


def read_docs(path: Path) -> list[Doc]:
    return [Doc.from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_queries(path: Path, n: int) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append(obj.get("text") or obj.get("query"))
        if len(out) >= n:
            break
    return out


def _ms(samples: Sequence[float]) -> dict[str, float]:
    a = np.asarray(samples) * 1000
    return {"p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95))}


def lexical(leg: SparseLeg, queries: Sequence[str]) -> dict[str, Any]:
    started = time.perf_counter()
    snap = leg.lexical.current()
    out: dict[str, Any] = {"snapshot_s": time.perf_counter() - started, "documents": len(snap.docs)}
    for model in ("tfidf", "ppmi"):
        t0 = time.perf_counter()
        index = snap.model(model)
        out[f"{model}_build_s"] = time.perf_counter() - t0
        if model == "tfidf":
            out["tfidf_terms"] = len(index.vocabulary)  # type: ignore[union-attr]
            out["tfidf_mb"] = index.matrix.data.nbytes / 2**20 * 2  # type: ignore[union-attr]  (data + indices)
        else:
            out["ppmi_mb"] = index.doc_vectors.nbytes / 2**20  # type: ignore[union-attr]
        times = []
        for q in queries:
            t0 = time.perf_counter()
            leg.search(q, Scope(), 100, exact=True, with_docs=False, model=model)
            times.append(time.perf_counter() - t0)
        out[f"{model}_query_ms"] = _ms(times)
    return out


def graph(docs: Sequence[Doc], queries: Sequence[str]) -> dict[str, Any]:
    t0 = time.perf_counter()
    extractions = [extract(d.full_text) for d in docs]
    extract_s = time.perf_counter() - t0
    g = GraphIndex.build(extractions)
    t0 = time.perf_counter()
    g.communities()
    louvain_s = time.perf_counter() - t0
    times = []
    for q in queries:
        t0 = time.perf_counter()
        g.scores(query_entities(q, g.entities))
        times.append(time.perf_counter() - t0)
    community = g.communities()
    return {"documents": len(docs), "extract_s": extract_s, "extract_ms_per_doc": extract_s * 1000 / len(docs),
            "build_s": g.build_seconds, "louvain_s": louvain_s, "entities": len(g.entities),
            "entities_df2": int((g.df >= 2).sum()), "edges": g.n_edges, "relations": g.relations,
            "mentions": int(g.incidence.nnz), "communities": int(community.max() + 1),
            "query_ms": _ms(times)}


def run(corpora: dict[str, tuple[Path, Path]], es_url: str | None, n_queries: int) -> dict[str, Any]:
    from services.sparse.backends.embedded import EmbeddedSparseBackend

    out: dict[str, Any] = {"machine": machine_info(), "corpora": {}}
    for name, (corpus, queries_path) in corpora.items():
        docs, queries = read_docs(corpus), read_queries(queries_path, n_queries)
        entry: dict[str, Any] = {"graph": graph(docs, queries)}
        log.info("%s graph: %s", name, entry["graph"])
        with tempfile.TemporaryDirectory() as tmp:
            backend = EmbeddedSparseBackend(Path(tmp))
            backend.upsert(docs)
            entry["embedded"] = lexical(SparseLeg(backend), queries)
            backend.close()
        if es_url:
            from services.sparse.backends.elasticsearch import ElasticsearchSparseBackend

            es = ElasticsearchSparseBackend(es_url, f"chsr-legs-cost-{name}", request_timeout_s=60)
            try:
                es.upsert(docs)
                entry["elasticsearch"] = lexical(SparseLeg(es), queries)
            finally:
                es.drop()
                es.close()
        log.info("%s lexical: %s", name, {k: v for k, v in entry.items() if k != "graph"})
        out["corpora"][name] = entry
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("benchmarks/legs-cost"))
    ap.add_argument("--es-url", default=None, help="also measure the engines path on this Elasticsearch")
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    settings = get_settings()
    sf, cur = settings.dataset_dir("scifact"), settings.dataset_dir("curriculum")
    result = run({"scifact": (sf / "corpus.jsonl", sf / "queries.jsonl"),
                  "curriculum": (cur / "corpus.jsonl", cur / "cases.dev.jsonl")}, args.es_url, args.queries)
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(args.out / "results.json", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
