"""Run the probe (unfiltered top-N per leg), the old gate and the stated extraction for a case set.

Everything the calibration and the evaluation need per query, computed once: the unfiltered
sparse and dense lists (depth 100, the pipelines' depth; the probe uses their first
``depth`` hits, B uses them whole), the new stated extraction, and the old gate's W0 scope,
ladder, strict keys and topic terms (``services.gate.logic.run_gate``, what C and E use today).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chsr.scope import Scope
from services.gate.evidence import EvidenceHit
from services.gate.evidence_features import StatedQuery, stated_from_extraction
from services.gate.extract import extract_scope
from services.gate.ladder import LadderStep
from services.gate.logic import run_gate
from services.gate.vocabulary import Vocabulary
from tools.gate.probe_index import ProbeIndex

log = logging.getLogger(__name__)
DEPTH = 100


@dataclass
class QueryRun:
    case: dict
    sparse: list[tuple[str, float]]
    dense: list[tuple[str, float]]
    stated: StatedQuery
    old_scope: Scope
    old_ladder: list[LadderStep]
    old_strict: list[str]
    topic_terms: list[str]
    extract_ms: float = 0.0
    vector: Any = None
    extra: dict = field(default_factory=dict)

    def hits(self, index: ProbeIndex, depth: int) -> list[EvidenceHit]:
        out = [EvidenceHit(index.by_id[d].metadata, s, "sparse", r) for r, (d, s) in enumerate(self.sparse[:depth], 1)]
        out += [EvidenceHit(index.by_id[d].metadata, s, "dense", r) for r, (d, s) in enumerate(self.dense[:depth], 1)]
        return out


def load_cases(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_probe(cases: Sequence[dict], index: ProbeIndex, vectors: np.ndarray | None, vocab: Vocabulary,
              query_key: str = "query") -> list[QueryRun]:
    runs: list[QueryRun] = []
    started = time.perf_counter()
    for i, case in enumerate(cases):
        query = case[query_key]
        vec = vectors[i] if vectors is not None else None
        t0 = time.perf_counter()
        extraction = extract_scope(query, vocab)
        extract_ms = (time.perf_counter() - t0) * 1000
        old = run_gate(query, vocab=vocab)
        runs.append(QueryRun(
            case=case, sparse=index.search_sparse(query, Scope(), DEPTH), dense=index.search_dense(vec, Scope(), DEPTH),
            stated=stated_from_extraction(extraction, old.topic_terms), old_scope=old.scope, old_ladder=old.ladder,
            old_strict=old.strict_keys, topic_terms=old.topic_terms, extract_ms=extract_ms, vector=vec,
        ))
        if (i + 1) % 1000 == 0:
            log.info("probe %d/%d (%.0f s)", i + 1, len(cases), time.perf_counter() - started)
    return runs
