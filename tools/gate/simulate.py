"""Gated retrieval, simulated in-process the way the gateway runs it (issue 14, item 3).

Per query and pipeline: for each ladder rung, both legs with the rung's filter pushed down
(the embedded backends' masks, depth 100), RRF k=60, K=8; the gateway's sufficiency rule
(accept a rung with an on-topic result, else widen; a pure look-up never widens) and its
labels. Pipelines:

* ``B``      ungated RRF;
* ``C_old``  the current gate's W0 scope (``run_gate``), no relaxation — pipeline C today;
* ``L_old``  the current gate with its relaxation ladder (pipeline E without rerank/expansion);
* ``C_new``  the evidence decision: confident fields filter, uncertain fields rank
  (``penalty_factor``) and the best match then settles them (``gateway.preference.settle_by_top``),
  nothing confident -> ungated;
* ``L_new``  ``C_new`` with the relaxation ladder over its filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from chsr.documents import Doc
from chsr.scope import Scope
from gateway.ontopic import is_on_topic, topic_stems
from gateway.preference import settle
from services.fusion.rrf import rrf
from services.gate.evidence import EvidenceDecision, penalty_factor
from services.gate.evidence_ladder import evidence_ladder
from services.gate.inference import known_values
from services.gate.ladder import LadderStep
from services.gate.vocabulary import Vocabulary
from tools.gate.probe_index import ProbeIndex
from tools.gate.probe_run import DEPTH, QueryRun

K = 8
Result = list[dict]


@dataclass
class Simulator:
    index: ProbeIndex
    vocab: Vocabulary
    k: int = K

    @property
    def known(self) -> dict[str, frozenset]:
        """The corpus values the evidence rules check against, as the gate builds them."""
        return known_values(self.vocab)

    def _legs(self, run: QueryRun, flt: Scope, lexical_only: bool = False) -> dict[str, list[tuple[str, float]]]:
        if flt.is_empty():
            lists = {"sparse": run.sparse}
            if not lexical_only and run.dense:
                lists["dense"] = run.dense
            return lists
        cache = run.extra.setdefault("filtered", {})
        key = (flt.cache_key(), lexical_only)
        if key not in cache:
            lists = {"sparse": self.index.search_sparse(run.case["query"], flt, DEPTH)}
            if not lexical_only and run.vector is not None:
                lists["dense"] = self.index.search_dense(run.vector, flt, DEPTH)
            cache[key] = lists
        return cache[key]

    def _fuse(self, lists: dict[str, list[tuple[str, float]]], rescale: Callable[[Doc], float] | None = None,
              limit: int | None = None) -> list[str]:
        lists = {n: l for n, l in lists.items() if l}
        if not lists:
            return []
        if len(lists) == 1:
            scores = {d: s for d, s in next(iter(lists.values()))}
        else:
            scores = rrf({n: [d for d, _ in l] for n, l in lists.items()}, k=60)
        if rescale is not None:
            scores = {d: s * rescale(self.index.by_id[d]) for d, s in scores.items()}
        ranked = sorted(scores, key=lambda d: (-scores[d], d))
        return ranked[: limit or self.k]

    def ungated(self, run: QueryRun) -> Result:
        return [{"doc_id": d, "relaxation": "W0"} for d in self._fuse(self._legs(run, Scope()))]

    def gated(self, run: QueryRun, flt: Scope, decision: EvidenceDecision | None = None) -> Result:
        rescale = (lambda doc: penalty_factor(doc.metadata, decision)) if decision and decision.penalties else None
        return [{"doc_id": d, "relaxation": "W0"} for d in self._settle(self._fuse(self._legs(run, flt), rescale), decision)]

    def _settle(self, ids: list[str], decision: EvidenceDecision | None) -> list[str]:
        """The gateway's ``settle_by_top`` on ids: results that differ from the first on a ranked field go."""
        if decision is None:
            return ids
        return settle(decision.penalties, ids, lambda d, name: self.index.by_id[d].metadata.get(name))[0]

    def laddered(self, run: QueryRun, ladder: list[LadderStep], strict: list[str],
                 decision: EvidenceDecision | None = None) -> Result:
        rungs = [r for r in ladder if not r.lexical_only] if strict else list(ladder)
        if not run.topic_terms:
            rungs = rungs[:1]  # a pure look-up: an empty exact scope is the honest answer
        stems = topic_stems(run.topic_terms)
        rescale = (lambda doc: penalty_factor(doc.metadata, decision)) if decision and decision.penalties else None
        chosen: list[str] = []
        label = "W0"
        for i, rung in enumerate(rungs):
            ids = self._fuse(self._legs(run, rung.filter, rung.lexical_only), rescale)
            on_topic = sum(is_on_topic(self.index.by_id[d].full_text, stems) for d in ids)
            chosen, label = ids, rung.label
            if on_topic > 0 or (i == len(rungs) - 1 and not rung.on_topic_only):
                chosen = self._settle(ids, decision)
                break
        else:  # the last rung answers only on topic (another year's numbered question) and found nothing
            chosen, label = [], "W0"
        return [{"doc_id": d, "relaxation": label} for d in chosen]

    def new_ladder(self, decision: EvidenceDecision) -> list[LadderStep]:
        return evidence_ladder(decision, self.vocab)
