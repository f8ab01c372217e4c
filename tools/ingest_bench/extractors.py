"""``python -m tools.ingest_bench.extractors DIR``: raw text-extraction speed of the candidate PDF
libraries on the generated PDFs (docs/decisions/ingest-parsers.md). pypdfium2 is timed twice:
plain ``get_text_range`` and our full parser (glyph boxes, layout, blocks)."""

from __future__ import annotations

import sys
import time
from pathlib import Path


def _pypdfium2(data: bytes) -> int:
    import pypdfium2
    with pypdfium2.PdfDocument(data) as pdf:
        for i in range(len(pdf)):
            pdf[i].get_textpage().get_text_range()
        return len(pdf)


def _ours(data: bytes) -> int:
    from services.ingest.parsers.pdf import parse_pdf
    return parse_pdf(data, "x.pdf").page_count or 0


def _pdfplumber(data: bytes) -> int:
    import io
    import pdfplumber
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            page.extract_text()
        return len(pdf.pages)


def _pypdf(data: bytes) -> int:
    import io
    from pypdf import PdfReader
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        page.extract_text()
    return len(reader.pages)


def main(folder: str) -> int:
    files = [p.read_bytes() for p in sorted(Path(folder).glob("*.pdf"))]
    for name, fn in (("pypdfium2 get_text_range", _pypdfium2), ("services.ingest PDF parser", _ours),
                     ("pypdf extract_text", _pypdf), ("pdfplumber extract_text", _pdfplumber)):
        try:
            started = time.perf_counter()
            pages = sum(fn(data) for data in files)
            elapsed = time.perf_counter() - started
            print(f"{name:28s} {pages} pages {elapsed:6.2f} s {pages / elapsed:7.1f} pages/s")
        except ImportError as exc:
            print(f"{name:28s} not installed ({exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
