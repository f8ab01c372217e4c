"""Real query texts for load runs ("real queries (SciFact and the curriculum dev cases)").

* ``scifact``: ``<CHSR_SCIFACT_DIR>/queries.jsonl`` (BEIR: ``{"_id", "text"}``);
* ``curriculum``: the ``query`` of ``<CHSR_CURRICULUM_DIR>/cases.dev.jsonl``;
* ``demo``: the bundled ``tools/demo/queries.jsonl`` (always present; the fallback).

``mixed`` interleaves SciFact and curriculum queries. Nothing is copied from
the shared data; it is read in place.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from chsr.config import get_settings
from tools.demo import DEMO_QUERIES

log = logging.getLogger(__name__)
SOURCES = ("demo", "scifact", "curriculum", "mixed")


def _shared(name: str) -> Path:
    return get_settings().dataset_dir(name)


def _jsonl_texts(path: Path, key: str) -> list[str]:
    texts: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                text = json.loads(line).get(key)
                if isinstance(text, str) and text.strip():
                    texts.append(text)
    return texts


def demo_queries() -> list[str]:
    return _jsonl_texts(DEMO_QUERIES, "text")


def load_queries(source: str, limit: int | None = None) -> tuple[list[str], str]:
    """Query texts for ``source`` and the source actually used (``demo`` when the data is missing)."""
    if source not in SOURCES:
        raise ValueError(f"queries: unknown source '{source}'; valid: {', '.join(SOURCES)}")
    scifact = _shared("scifact") / "queries.jsonl"
    curriculum = _shared("curriculum") / "cases.dev.jsonl"
    wanted = {"scifact": [scifact], "curriculum": [curriculum], "mixed": [scifact, curriculum]}.get(source, [])
    missing = [p for p in wanted if not p.exists()]
    if source == "demo" or missing:
        if missing:
            log.warning("query data missing, using the demo queries", extra={"missing": [str(p) for p in missing]})
        texts, used = demo_queries(), "demo"
    elif source == "mixed":
        sci, cur = _jsonl_texts(scifact, "text"), _jsonl_texts(curriculum, "query")
        texts = [q for pair in zip(sci, cur) for q in pair] + sci[len(cur):] + cur[len(sci):]
        used = "mixed"
    else:
        texts, used = _jsonl_texts(wanted[0], "text" if source == "scifact" else "query"), source
    return (texts[:limit] if limit else texts), used
