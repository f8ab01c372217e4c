"""``python -m tools.docgen --corpus CORPUS.jsonl --out DIR``: write the document set and its ground truth.

Outputs (never committed; put DIR under a cache or tmp folder):
``DIR/{pdf,docx,md,html}/<doc_id>.<ext>`` and ``DIR/ground_truth.jsonl`` (one line per file:
its path, format, page count for PDFs, and the document's ground truth from ``DocSpec``).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from pathlib import Path

from tools.docgen.books import textbook_chapters
from tools.docgen.corpus_items import load_items
from tools.docgen.papers import amc_papers, arc_papers, gaokao_papers, worksheets
from tools.docgen.render_office import html_text, markdown_text, write_docx, write_text
from tools.docgen.render_typst import write_pdf
from tools.docgen.specs import DocSpec

log = logging.getLogger("docgen")
FORMATS = ("pdf", "docx", "md", "html")


def build_specs(corpus: Path, seed: int, scale: int = 1) -> list[DocSpec]:
    items = load_items(corpus)
    rng = random.Random(seed)
    return (amc_papers(items, rng, 4 * scale) + gaokao_papers(items, rng, 4 * scale) + arc_papers(items, rng, 4 * scale)
            + textbook_chapters(items, rng, 3 * scale) + worksheets(items, rng, 3 * scale))


def write_set(specs: list[DocSpec], out: Path, formats: tuple[str, ...]) -> list[dict]:
    records = []
    for fmt in formats:
        (out / fmt).mkdir(parents=True, exist_ok=True)
    for spec in specs:
        for fmt in formats:
            path = out / fmt / f"{spec.doc_id}.{fmt}"
            if fmt == "pdf":
                write_pdf(spec, path)
            elif fmt == "docx":
                write_docx(spec, path)
            elif fmt == "md":
                write_text(path, markdown_text(spec))
            else:
                write_text(path, html_text(spec))
            record = {"file": str(path.relative_to(out)), "format": fmt, **spec.ground_truth()}
            if fmt == "pdf":
                import pypdfium2

                with pypdfium2.PdfDocument(str(path)) as pdf:
                    record["pages"] = len(pdf)
            records.append(record)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.docgen", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="curriculum corpus.jsonl (read by path)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (a cache/tmp dir, not the repo)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--scale", type=int, default=1, help="multiply the number of documents of each kind")
    parser.add_argument("--formats", default=",".join(FORMATS))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    formats = tuple(f for f in args.formats.split(",") if f)
    unknown = set(formats) - set(FORMATS)
    if unknown:
        parser.error(f"unknown format(s) {sorted(unknown)}; valid: {', '.join(FORMATS)}")
    started = time.perf_counter()
    specs = build_specs(args.corpus, args.seed, args.scale)
    records = write_set(specs, args.out, formats)
    with (args.out / "ground_truth.jsonl").open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    pages = sum(r.get("pages", 0) for r in records)
    print(f"{len(specs)} documents, {len(records)} files, {pages} PDF pages in {time.perf_counter() - started:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
