"""Fixtures for the gate unit tests: the bundled vocabulary, the demo corpus and a tiny synthetic corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.gate.vocabulary import Vocabulary
from tools.demo import DEMO_CORPUS

#: (paper, subject, level, exam_board, year, session, content_type, question_number) - a hand-made corpus
#: that exercises colloquial Gaokao names, grade templates and (paper, year) gaps.
MINI_ROWS = [
    ("Gaokao 新课标II Physics", "physics", "grade_12", "China NCEE (Gaokao)", 2014, None, "exam_question", 15),
    ("Gaokao 全国II Physics", "physics", "grade_12", "China NCEE (Gaokao)", 2010, None, "exam_question", 1),
    ("Gaokao 全国II Physics", "physics", "grade_12", "China NCEE (Gaokao)", 2010, None, "solution", 1),
    ("Gaokao 新课标III Chemistry", "chemistry", "grade_12", "China NCEE (Gaokao)", 2019, None, "exam_question", 5),
    ("Gaokao 新课标I Mathematics I (science track)", "mathematics", "grade_12", "China NCEE (Gaokao)", 2017, None, "exam_question", 17),
    ("Gaokao 新课标I Mathematics I (science track)", "mathematics", "grade_12", "China NCEE (Gaokao)", 2017, None, "mark_scheme", 17),
    ("Gaokao 新课标I Mathematics II (liberal-arts track)", "mathematics", "grade_12", "China NCEE (Gaokao)", 2017, None, "exam_question", 17),
    ("Gaokao 新课标III History", "history", "grade_12", "China NCEE (Gaokao)", 2018, None, "exam_question", 5),
    ("Gaokao 新课标III History", "history", "grade_12", "China NCEE (Gaokao)", 2018, None, "solution", 5),
    ("Gaokao 新课标III History", "history", "grade_12", "China NCEE (Gaokao)", 2018, None, "exam_question", 13),
    ("Gaokao 新课标III History", "history", "grade_12", "China NCEE (Gaokao)", 2018, None, "mark_scheme", 13),
    ("AMC 10A", "mathematics", "grade_10", "MAA AMC", 2019, "A", "exam_question", 7),
    ("AMC 10A", "mathematics", "grade_10", "MAA AMC", 2024, "A", "solution", 5),
    ("AMC 10B", "mathematics", "grade_10", "MAA AMC", 2019, "B", "exam_question", 7),
    ("AMC 8", "mathematics", "grade_8", "MAA AMC", 2006, None, "exam_question", 8),
    ("NYSED Regents Grade 4 Science", "science", "grade_4", "NYSED (New York State Education Department)", 2010, None, "exam_question", 3),
    ("NYSED Regents Grade 8 Science", "science", "grade_8", "NYSED (New York State Education Department)", 2011, None, "exam_question", 42),
    ("NYSED Regents Grade 8 Science", "science", "grade_8", "NYSED (New York State Education Department)", 2015, None, "exam_question", 12),
    ("TIMSS Grade 8 Science", "science", "grade_8", "TIMSS (IEA)", 2011, None, "exam_question", None),
    (None, "physics", "high_school", "OpenStax (Rice University)", None, None, "textbook", None),
    (None, "biology", "high_school", None, None, None, "exam_question", None),
    (None, "economics", "high_school", None, None, None, "exam_question", None),
    (None, "mathematics", "high_school", "CCSSI (NGA Center / CCSSO)", None, None, "syllabus", None),
]


@pytest.fixture(scope="session")
def bundled() -> Vocabulary:
    return Vocabulary.load()


@pytest.fixture(scope="session")
def mini_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mini") / "corpus.jsonl"
    keys = ("paper", "subject", "level", "exam_board", "year", "session", "content_type", "question_number")
    with path.open("w", encoding="utf-8") as out:
        for i, row in enumerate(MINI_ROWS):
            meta = dict(zip(keys, row)) | {"source": "mini", "language": "en"}
            out.write(json.dumps({"_id": f"mini:{i}", "text": f"item {i}", "metadata": meta}, ensure_ascii=False) + "\n")
    return path


@pytest.fixture(scope="session")
def mini(mini_corpus: Path) -> Vocabulary:
    return Vocabulary.load(mini_corpus)


@pytest.fixture(scope="session")
def demo() -> Vocabulary:
    if not DEMO_CORPUS.is_file():
        pytest.skip(f"demo corpus not found at {DEMO_CORPUS}")
    return Vocabulary.load(DEMO_CORPUS)
