"""The project's own small demo corpus (written for this project), shipped as package data.

``chsr up --demo`` ingests it, the gate indexes its papers, and the tests use it.
"""

from pathlib import Path

DEMO_DIR = Path(__file__).resolve().parent
DEMO_CORPUS = DEMO_DIR / "corpus.jsonl"
DEMO_QUERIES = DEMO_DIR / "queries.jsonl"
DEMO_QRELS = DEMO_DIR / "qrels.tsv"
DEMO_CASES = DEMO_DIR / "cases.jsonl"
