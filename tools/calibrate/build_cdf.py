"""Offline construction of the per-retriever CDF calibrators (seed 002).

The index builder scores every *train or pseudo* query against the whole corpus
(or a deep top-N) and passes the score arrays here; the files land next to the
index as ``cdf_<retriever>.npz`` stamped with the index ``generation`` so a
re-index invalidates them together.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from services.fusion.calibration import DEFAULT_POINTS, build_cdf, calibrator_path

log = logging.getLogger(__name__)


def build_calibrators(score_lists_by_retriever: Mapping[str, Sequence[np.ndarray]], out_dir: Path | str,
                      generation: int, *, models: Mapping[str, str] | None = None, source: str = "train",
                      n_points: int = DEFAULT_POINTS) -> dict[str, Path]:
    """Write ``cdf_<name>.npz`` for each retriever; returns the written paths.

    ``score_lists_by_retriever`` maps a retriever name ("sparse", "dense") to one score
    array per reference query. ``source`` names the query set and may not be "test".
    """
    written: dict[str, Path] = {}
    for name, arrays in score_lists_by_retriever.items():
        pooled = np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in arrays]) if arrays else np.array([])
        cal = build_cdf(pooled, n_points, name=name, generation=generation,
                        model=(models or {}).get(name, ""), source=source)
        written[name] = cal.save(calibrator_path(out_dir, name))
        log.info("wrote %s from %d queries, %d scores (generation %d)", written[name], len(arrays),
                 cal.n_scores, generation)
    return written
