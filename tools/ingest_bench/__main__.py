"""``python -m tools.ingest_bench --docs DIR [--json OUT]``: score the ingest logic on a generated set.

Runs every file of ``DIR/ground_truth.jsonl`` (``python -m tools.docgen``) through
``services.ingest.pipeline.ingest_file`` in this process, with the gate's scope extractor
as ``read_scope`` (corpus-derived vocabulary, as the gate runs over the curriculum corpus;
``--bundled-vocabulary`` for the hand-written vocabulary only), and reports boundary
P/R/F1, metadata accuracy per field, parse throughput (pages/s, PDF) and chunking
throughput (chunks/s). Single process, so the figures are per core.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import defaultdict
from pathlib import Path

from services.ingest.chunking import ChunkingParams
from services.ingest.metadata import ScopeReading
from services.ingest.parsers.dispatch import parse_bytes
from services.ingest.pipeline import ingest_file
from services.ingest.tokens import ModelTokenCounter
from tools.ingest_bench.scoring import BoundaryCounts, score_boundaries, score_metadata

DEFAULT_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "curriculum" / "corpus.jsonl"


def gate_reader(corpus: Path | None):  # type: ignore[no-untyped-def]
    """``read_scope`` built on the gate's extractor (a test/benchmark convenience; the service calls the gate)."""
    from services.gate.extract import extract_scope
    from services.gate.vocabulary import Vocabulary

    vocab = (Vocabulary.from_corpus(corpus) if corpus else Vocabulary.load()).warm_up()

    def read(text: str) -> dict:
        e = extract_scope(text, vocab)
        return {k: ScopeReading(v, e.confidence.get(k, (None, ""))[0], e.confidence.get(k, (None, ""))[1])
                for k, v in e.scope.items()}
    return read


def run(docs: Path, corpus: Path | None) -> dict:
    truth = [json.loads(l) for l in (docs / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines() if l]
    counter = ModelTokenCounter.from_model_dir()
    params = ChunkingParams(max_tokens=counter.max_tokens, tokenizer=counter.name)
    reader = gate_reader(corpus)
    boundaries: dict[str, BoundaryCounts] = defaultdict(BoundaryCounts)
    fields: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    field_misses: list[str] = []
    parse_time: dict[str, float] = defaultdict(float)
    pages = 0
    chunk_time = 0.0
    chunks = 0
    errors = []
    for record in truth:
        data = (docs / record["file"]).read_bytes()
        started = time.perf_counter()
        parsed = parse_bytes(data, record["file"])
        parse_time[record["format"]] += time.perf_counter() - started
        pages += parsed.page_count or 0 if record["format"] == "pdf" else 0
        result = ingest_file(record["file"], data, counter=counter, params=params, read_scope=reader)
        if not result.ok:
            errors.append(str(result.error))
            continue
        chunk_time += result.timings["chunk_s"]
        chunks += len(result.chunks)
        if record["questions"]:
            counts = score_boundaries(result, record)
            boundaries[record["format"]].add(counts)
            boundaries[record["kind"]].add(counts)
            boundaries["all"].add(counts)
        for name, (ok, got, want) in score_metadata(result, record).items():
            fields[name][0] += ok
            fields[name][1] += 1
            if not ok:
                field_misses.append(f"{record['file']}: {name} = {got!r}, cover states {want!r}")
    return {
        "files": len(truth), "errors": errors, "pdf_pages": pages,
        "parse_seconds": dict(parse_time), "pdf_pages_per_s": pages / parse_time["pdf"] if parse_time["pdf"] else None,
        "chunks": chunks, "chunk_seconds": chunk_time, "chunks_per_s": chunks / chunk_time if chunk_time else None,
        "boundaries": {k: {"predicted": v.predicted, "correct": v.correct, "expected": v.expected,
                           "precision": v.prf()[0], "recall": v.prf()[1], "f1": v.prf()[2]} for k, v in boundaries.items()},
        "boundary_misses": boundaries["all"].misses,
        "metadata": {k: {"correct": c, "total": t, "accuracy": c / t} for k, (c, t) in sorted(fields.items())},
        "metadata_misses": field_misses,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ingest_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus for the gate's vocabulary")
    parser.add_argument("--bundled-vocabulary", action="store_true", help="gate with the bundled vocabulary only")
    parser.add_argument("--json", type=Path, help="write the full report here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    report = run(args.docs, None if args.bundled_vocabulary else args.corpus)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    b = report["boundaries"].get("all", {})
    print(f"files {report['files']}, errors {len(report['errors'])}; boundaries P {b.get('precision', 0):.3f} "
          f"R {b.get('recall', 0):.3f} F1 {b.get('f1', 0):.3f}; PDF {report['pdf_pages_per_s'] or 0:.1f} pages/s; "
          f"chunking {report['chunks_per_s'] or 0:.0f} chunks/s")
    for name, m in report["metadata"].items():
        print(f"  {name:14s} {m['accuracy']:.3f} ({m['correct']}/{m['total']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
