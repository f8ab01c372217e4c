"""The document generator on a tiny corpus made here: every format parses back to its questions."""

from __future__ import annotations

import json
import random

import pytest

from services.ingest.pipeline import ingest_file
from tools.docgen.__main__ import write_set
from tools.docgen.corpus_items import load_items
from tools.docgen.latex_text import latex_to_text
from tools.docgen.papers import amc_papers

pytestmark = pytest.mark.unit


def _corpus(path):
    lines = []
    for n in range(1, 21):
        meta = {"subject": "mathematics", "level": "grade_10", "year": 2019, "session": "A", "paper": "AMC 10A",
                "question_number": n, "source": "amc", "exam_board": "MAA AMC", "language": "en"}
        lines.append({"_id": f"amc:amc_2019_10a_{n}", "text": f"Problem {n}: what is $\\frac{{{n}}}{{2}}$ of the total count?",
                      "metadata": {**meta, "content_type": "exam_question"}})
        lines.append({"_id": f"amc:amc_2019_10a_{n}:solution", "text": f"The answer is {n} halves, so $x^2 \\le {n}$.",
                      "metadata": {**meta, "content_type": "solution"}})
    path.write_text("\n".join(json.dumps(l) for l in lines), encoding="utf-8")
    return path


def test_latex_becomes_unicode_maths():
    assert latex_to_text(r"$\frac{1}{2} \le x^2 \cdot \pi$") == "(1)/(2) ≤ x² · π"


def test_generated_formats_parse_back(tmp_path, counter, params):
    pytest.importorskip("typst")
    specs = amc_papers(load_items(_corpus(tmp_path / "corpus.jsonl")), random.Random(3), 1)
    assert [s.kind for s in specs] == ["exam", "mark_scheme"]
    records = write_set(specs, tmp_path / "out", ("pdf", "docx", "md", "html"))
    assert len(records) == 8 and records[0]["pages"] >= 2
    for record in records:
        data = (tmp_path / "out" / record["file"]).read_bytes()
        result = ingest_file(record["file"], data, counter=counter, params=params)
        numbers = sorted({c.question_number for c in result.chunks if c.question_number})
        assert numbers == [q["number"] for q in record["questions"]], record["file"]
