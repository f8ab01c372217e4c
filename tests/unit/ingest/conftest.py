"""Fixtures for the ingest unit tests: the real MiniLM tokenizer, Typst-built PDFs, a gate reader."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from services.ingest.chunking import ChunkingParams
from services.ingest.metadata import ScopeReading
from services.ingest.tokens import ModelTokenCounter


@pytest.fixture(scope="session")
def counter() -> ModelTokenCounter:
    return ModelTokenCounter.from_model_dir()


@pytest.fixture(scope="session")
def params(counter) -> ChunkingParams:
    return ChunkingParams(max_tokens=counter.max_tokens, tokenizer=counter.name)


@pytest.fixture(scope="session")
def typst_pdf(tmp_path_factory):
    """``typst_pdf(source) -> bytes``: compile a Typst document (the generator's typesetter)."""
    typst = pytest.importorskip("typst")
    folder = tmp_path_factory.mktemp("typst")
    counter = {"n": 0}

    def build(source: str) -> bytes:
        counter["n"] += 1
        path = folder / f"doc{counter['n']}.typ"
        path.write_text(source, encoding="utf-8")
        out = path.with_suffix(".pdf")
        typst.compile(str(path), output=str(out))
        return out.read_bytes()
    return build


@pytest.fixture(scope="session")
def gate_reader():
    """``read_scope`` built on the gate's extractor with its bundled vocabulary (tests may import it)."""
    from services.gate.extract import extract_scope
    from services.gate.vocabulary import Vocabulary

    vocab = Vocabulary.load()

    def read(text: str) -> dict:
        e = extract_scope(text, vocab)
        return {k: ScopeReading(v, e.confidence.get(k, (None, ""))[0]) for k, v in e.scope.items()}
    return read


def docx_bytes(build) -> bytes:  # type: ignore[no-untyped-def]
    """A DOCX made with python-docx: ``build(document)`` adds the content."""
    import docx

    document = docx.Document()
    build(document)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def typ_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


HERE = Path(__file__).parent
