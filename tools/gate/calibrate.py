"""Fit the evidence model's per-field logistic calibration on the generated set (issue 14, item 2).

    python -m tools.gate.evaluate --fit ...     (the evaluation harness calls fit_params)

One row per (query, field, candidate value): the features of ``evidence_features.features``
and the label "this value is in the gold scope" (a field the gold leaves open labels every
candidate 0: constraining it is not what was asked). Out-of-fold probabilities (GroupKFold by
``split_group``, so an item and its twins never sit on both sides) measure calibration
honestly; the final model is refitted on every row. The filter threshold of a field is the
lowest probability at which the out-of-fold precision of filtering reaches ``precision``
(a wrong filter hides the answer and leaks everything, a missed one only ranks).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from services.gate.evidence import EvidenceParams, FieldModel
from services.gate.evidence_features import FEATURES, MODEL_FIELDS, candidates, features, gather
from tools.gate.probe_index import ProbeIndex
from tools.gate.probe_run import QueryRun

THRESHOLD_GRID = tuple(round(x, 2) for x in np.arange(0.5, 0.991, 0.01))
RANK_THRESHOLD = 0.3


@dataclass
class FieldRows:
    X: np.ndarray
    y: np.ndarray
    groups: np.ndarray
    case_index: np.ndarray
    values: list[Any]


def gold_values(case: dict, name: str) -> set:
    value = (case.get("scope") or {}).get(name)
    if value is None:
        return set()
    return set(value) if isinstance(value, list) else {value}


def training_rows(runs: Sequence[QueryRun], index: ProbeIndex, params: EvidenceParams) -> dict[str, FieldRows]:
    out: dict[str, list] = {name: [] for name in MODEL_FIELDS}
    for i, run in enumerate(runs):
        ev = gather(run.hits(index, params.depth), depth=params.depth, sparse_power=params.sparse_power,
                    dense_temperature=params.dense_temperature)
        for name in MODEL_FIELDS:
            gold = gold_values(run.case, name)
            for value in candidates(name, run.stated, ev):
                out[name].append((features(name, value, run.stated, ev), float(value in gold), run.case["split_group"], i, value))
    rows = {}
    for name, items in out.items():
        rows[name] = FieldRows(np.array([r[0] for r in items], float), np.array([r[1] for r in items]),
                               np.array([r[2] for r in items]), np.array([r[3] for r in items]), [r[4] for r in items])
    return rows


def _model() -> LogisticRegression:
    return LogisticRegression(C=1.0, max_iter=2000)


def out_of_fold(rows: FieldRows, folds: int = 5) -> np.ndarray:
    """Out-of-fold probabilities; a constant label gets its rate (nothing to learn)."""
    p = np.zeros(len(rows.y))
    if len(set(rows.y)) < 2:
        return np.full(len(rows.y), rows.y.mean() if len(rows.y) else 0.0)
    for train, test in GroupKFold(n_splits=folds).split(rows.X, rows.y, rows.groups):
        if len(set(rows.y[train])) < 2:
            p[test] = rows.y[train].mean()
            continue
        p[test] = _model().fit(rows.X[train], rows.y[train]).predict_proba(rows.X[test])[:, 1]
    return p


def filter_threshold(p: np.ndarray, y: np.ndarray, precision: float) -> float:
    for t in THRESHOLD_GRID:
        chosen = p >= t
        if chosen.sum() >= 5 and y[chosen].mean() >= precision:
            return t
    return 0.99


def fit_params(rows: dict[str, FieldRows], base: EvidenceParams, precision: float = 0.95) -> tuple[EvidenceParams, dict[str, np.ndarray]]:
    models, oof = {}, {}
    for name, r in rows.items():
        oof[name] = out_of_fold(r)
        if len(set(r.y)) < 2:
            coef, intercept = (0.0,) * len(FEATURES), (-10.0 if r.y.mean() < 0.5 else 10.0)
        else:
            m = _model().fit(r.X, r.y)
            coef, intercept = tuple(float(c) for c in m.coef_[0]), float(m.intercept_[0])
        models[name] = FieldModel(coef, intercept, filter_threshold(oof[name], r.y, precision), RANK_THRESHOLD)
    return replace(base, models=models), oof


def expected_calibration_error(p: np.ndarray, y: np.ndarray, bins: int = 10) -> tuple[float, list[tuple[float, float, int]]]:
    """ECE over equal-width bins, and the (mean p, observed rate, count) of every non-empty bin."""
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(p, edges[1:-1]), 0, bins - 1)
    ece, table = 0.0, []
    for b in range(bins):
        sel = idx == b
        if sel.any():
            conf, acc = float(p[sel].mean()), float(y[sel].mean())
            ece += sel.sum() / len(p) * abs(conf - acc)
            table.append((conf, acc, int(sel.sum())))
    return ece, table
