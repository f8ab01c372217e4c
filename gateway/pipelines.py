"""Named pipelines: each a frozen configuration selectable per request.

Sources: CHSR-RRF ablation A-E (seed 000,
all retrieve K=8 in the benchmark); calibration modes (seed 002); strategy
comparison (seed 003: linear alpha 0.3/0.5/0.7, RRF k=60, Jaccard dedup 0.65,
MMR lambda 0.7, cross-encoder over a 50-candidate pool, adaptive alpha, exact vs ANN).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from chsr.errors import InvalidArgument
from chsr.stages import LEGS


@dataclass(frozen=True)
class PipelineConfig:
    name: str
    description: str
    legs: tuple[str, ...] = LEGS
    gate: str = "hints"              # none | hints (client hints only) | extract (text + hints)
    post_filter: bool = False        # B+: filter after retrieval (wrong on purpose)
    fusion_mode: str = "rrf"
    fusion_params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({"rrf_k": "60"}))
    rerank: tuple[str, ...] = ()     # chain: curriculum, dedup, mmr, cross_encoder
    rerank_params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    rerank_pool: int = 50            # candidates handed to rerank (seed 003: 50)
    expansion: bool = False
    relaxation: bool = False
    depth: int = 0                   # candidates per retrieval leg; 0 = CHSR_CANDIDATE_DEPTH
    exact: bool = True               # dense: exact search; False = ANN (HNSW)
    k_min: int = 3                   # sufficiency threshold of the ladder
    han_dense_weight: float = 1.0    # RRF weight of the dense list for a query written in Chinese only (see E)
    versions: bool = False           # the first result's versions in other languages follow it (gateway.versions)


def _p(**kw: str) -> Mapping[str, str]:
    return MappingProxyType(dict(kw))


_RRF = _p(rrf_k="60")
_CURRICULUM_RERANK = ("curriculum",)
_D_PARAMS = _p(curriculum_dedup="0.75")  # seed 000: content dedup at 0.75 inside the curriculum reranker

_BASE: list[PipelineConfig] = [
    PipelineConfig("sparse", "BM25 only (gated by client hints if given)", legs=("sparse",)),
    PipelineConfig("dense", "MiniLM dense only (gated by client hints if given)", legs=("dense",)),
    PipelineConfig("dense_ann", "dense only, HNSW approximate search", legs=("dense",), exact=False),
    PipelineConfig("rrf", "BM25 + dense, RRF k=60 (gated by client hints if given)"),
    PipelineConfig("rrf_ann", "RRF k=60 with HNSW dense leg", exact=False),
    # CHSR-RRF ablation (seed 000)
    PipelineConfig("A", "dense-only, gated by the extracted scope", legs=("dense",), gate="extract"),
    PipelineConfig("B", "hybrid RRF, ungated", gate="none"),
    PipelineConfig("B+", "hybrid RRF, the gate's filter applied after retrieval", gate="extract", post_filter=True),
    PipelineConfig("C", "gated hybrid RRF", gate="extract"),
    PipelineConfig("D", "C + deterministic curriculum rerank + dedup 0.75", gate="extract",
                   rerank=_CURRICULUM_RERANK, rerank_params=_D_PARAMS),
    # E's dense list counts a tenth in RRF for a query written in Chinese only (chsr.query_language.written_in_han):
    # the English encoder's ranking of such a query is near noise, and at full weight it outvoted BM25's first hit
    # (decision 74: authored Chinese-only queries nDCG@8 0.811 -> 0.863, leakage 0.023 -> 0.021)
    # E puts the first result's versions in other languages right after it (decision 78)
    PipelineConfig("E", "D + curriculum-aware query expansion + relaxation ladder with leakage tracking",
                   gate="extract", rerank=_CURRICULUM_RERANK, rerank_params=_D_PARAMS,
                   expansion=True, relaxation=True, han_dense_weight=0.1, versions=True),
    # Calibration modes (seed 002)
    PipelineConfig("hybrid_fixed", "min-max normalised linear fusion, alpha 0.5", fusion_mode="linear",
                   fusion_params=_p(alpha="0.5", norm="minmax")),
    PipelineConfig("hybrid_calibrated", "CDF-calibrated, entropy-weighted alpha", fusion_mode="entropy",
                   fusion_params=_p(entropy_norm="cdf")),
    PipelineConfig("entropy_raw", "entropy-weighted alpha on raw scores", fusion_mode="entropy",
                   fusion_params=_p(entropy_norm="raw")),
    PipelineConfig("entropy_minmax", "entropy-weighted alpha on min-max scores", fusion_mode="entropy",
                   fusion_params=_p(entropy_norm="minmax")),
    PipelineConfig("entropy_zscore", "entropy-weighted alpha on z-scores", fusion_mode="entropy",
                   fusion_params=_p(entropy_norm="zscore")),
    PipelineConfig("hybrid_calibrated_d10", "CDF entropy alpha with entropies over each list's top 10",
                   fusion_mode="entropy", fusion_params=_p(entropy_norm="cdf", entropy_depth="10")),
    PipelineConfig("entropy_zscore_d10", "z-score entropy alpha over each list's top 10", fusion_mode="entropy",
                   fusion_params=_p(entropy_norm="zscore", entropy_depth="10")),
    PipelineConfig("dbsf", "distribution-based score fusion (mean +- 3 sigma)", fusion_mode="dbsf"),
    PipelineConfig("adaptive", "adaptive alpha from per-query signals", fusion_mode="adaptive"),
    # Strategy comparison (seed 003)
    PipelineConfig("linear_0.3", "linear fusion, alpha 0.3 (sparse weight)", fusion_mode="linear",
                   fusion_params=_p(alpha="0.3", norm="minmax")),
    PipelineConfig("linear_0.5", "linear fusion, alpha 0.5", fusion_mode="linear",
                   fusion_params=_p(alpha="0.5", norm="minmax")),
    PipelineConfig("linear_0.7", "linear fusion, alpha 0.7", fusion_mode="linear",
                   fusion_params=_p(alpha="0.7", norm="minmax")),
    PipelineConfig("linear_zscore", "linear fusion of z-scores, alpha 0.5", fusion_mode="linear",
                   fusion_params=_p(alpha="0.5", norm="zscore")),
    PipelineConfig("rrf_dedup", "RRF + Jaccard dedup 0.65", rerank=("dedup",), rerank_params=_p(dedup_threshold="0.65")),
    PipelineConfig("rrf_dedup_mmr", "RRF + Jaccard dedup 0.65 + MMR lambda 0.7", rerank=("dedup", "mmr"),
                   rerank_params=_p(dedup_threshold="0.65", mmr_lambda="0.7")),
    # Seed 003's further legs: #2 TF-IDF, #9 PPMI + BM25 RRF, #14 knowledge-graph RRF, #13 SPECTER2
    PipelineConfig("tfidf", "TF-IDF cosine, sublinear tf (seed 003 #2)", legs=("tfidf",)),
    PipelineConfig("ppmi", "PPMI distributional retriever alone (window 5, vocabulary 1,500, max context 50)",
                   legs=("ppmi",)),
    PipelineConfig("ppmi_rrf", "PPMI + BM25, RRF k=60 (seed 003 #9)", legs=("sparse", "ppmi")),
    PipelineConfig("kg", "knowledge-graph leg alone: IDF-weighted entity activation, 1-hop, Louvain fallback",
                   legs=("graph",)),
    PipelineConfig("kg_rrf", "BM25 + TF-IDF + knowledge graph, RRF k=60, Jaccard dedup 0.65, MMR 0.7 (seed 003 #14)",
                   legs=("sparse", "tfidf", "graph"), rerank=("dedup", "mmr"),
                   rerank_params=_p(dedup_threshold="0.65", mmr_lambda="0.7")),
    PipelineConfig("kg_rrf_plain", "BM25 + TF-IDF + knowledge graph, RRF k=60 (no dedup / MMR)",
                   legs=("sparse", "tfidf", "graph")),
    # Seed 003 as written: its "hybrid" second signal is TF-IDF, not a neural encoder (#3-8)
    PipelineConfig("rrf_tfidf", "BM25 + TF-IDF, RRF k=60 (seed 003 #6)", legs=("sparse", "tfidf")),
    PipelineConfig("rrf_tfidf_dedup", "BM25 + TF-IDF RRF + Jaccard dedup 0.65 (seed 003 #7)",
                   legs=("sparse", "tfidf"), rerank=("dedup",), rerank_params=_p(dedup_threshold="0.65")),
    PipelineConfig("rrf_tfidf_dedup_mmr", "BM25 + TF-IDF RRF + dedup 0.65 + MMR 0.7 (seed 003 #8)",
                   legs=("sparse", "tfidf"), rerank=("dedup", "mmr"),
                   rerank_params=_p(dedup_threshold="0.65", mmr_lambda="0.7")),
    *[PipelineConfig(f"linear_tfidf_{a}", f"min-max BM25 + TF-IDF blend, TF-IDF weight {a} (seed 003 #3-5)",
                     legs=("sparse", "tfidf"), fusion_mode="linear",
                     fusion_params=_p(alpha=f"{1 - float(a):.1f}", norm="minmax")) for a in ("0.3", "0.5", "0.7")],
    PipelineConfig("specter2", "SPECTER2 scientific bi-encoder (seed 003 #13): unavailable here", legs=("specter2",)),
]


def _with_cross_encoder(base: PipelineConfig, name: str, *, weight: float = 1.0, pool: int = 50) -> PipelineConfig:
    if weight <= 0:
        what = ("cross-encoder blend at weight 0: tuning found no significant gain on held-out train claims, "
                "so the first stage's order is returned and nothing is scored")
    elif weight >= 1.0:
        what = f"cross-encoder over a {pool}-candidate pool"
    else:
        what = f"cross-encoder blended with the first stage (weight {weight}) over a {pool}-candidate pool"
    params = dict(base.rerank_params) | {"pool": str(pool), "ce_weight": str(weight)}
    return replace(base, name=name, description=f"{base.description} + {what}",
                   rerank=("cross_encoder",) + base.rerank, rerank_params=MappingProxyType(params), rerank_pool=pool)


_BY_NAME = {p.name: p for p in _BASE}
#: Cross-encoder blends tuned on SciFact *train* queries the cross-encoder never saw (`ce-scifact-v6`,
#: trained with `--holdout-every 3`, which holds out whole groups of claims that share a judged abstract:
#: 244 held-out train queries; benchmarks/scifact-rerank/tuning.json, `python -m tools.eval.tune_rerank`):
#: per first stage, (pool, weight) maximising their nDCG@10 among the pools whose scoring p95 fits the 350 ms
#: budget on the 2-core reference machine *and* whose gain is significant (paired bootstrap, p < 0.05). None
#: is (best cells: rrf +0.002 p 0.70, hybrid_fixed +0.011 p 0.17, hybrid_calibrated +0.005 p 0.48), so every
#: tuned weight is 0: these modes return their first stage's order until a better cross-encoder is trained
#: and tuned (docs/decisions.md 23).
CE_TUNED: dict[str, tuple[int, float]] = {"rrf": (10, 0.0), "hybrid_fixed": (10, 0.0), "hybrid_calibrated": (10, 0.0)}
_CE = [
    _with_cross_encoder(_BY_NAME["rrf"], "rrf_ce", pool=CE_TUNED["rrf"][0], weight=CE_TUNED["rrf"][1]),
    _with_cross_encoder(_BY_NAME["hybrid_fixed"], "hybrid_fixed_rerank", pool=CE_TUNED["hybrid_fixed"][0],
                        weight=CE_TUNED["hybrid_fixed"][1]),
    _with_cross_encoder(_BY_NAME["hybrid_calibrated"], "hybrid_calibrated_rerank",
                        pool=CE_TUNED["hybrid_calibrated"][0], weight=CE_TUNED["hybrid_calibrated"][1]),
    _with_cross_encoder(_BY_NAME["linear_0.5"], "linear_0.5_ce", pool=CE_TUNED["hybrid_fixed"][0],
                        weight=CE_TUNED["hybrid_fixed"][1]),   # linear_0.5 is hybrid_fixed's fusion: same tuning
    # The cross-encoder alone (no blend), as seeds 002/003 ran it, for comparison
    _with_cross_encoder(_BY_NAME["hybrid_fixed"], "hybrid_fixed_ce_alone"),
    _with_cross_encoder(_BY_NAME["rrf_tfidf"], "rrf_tfidf_ce_alone"),   # seed 003 #10 over its BM25 + TF-IDF pool
]
PIPELINES: dict[str, PipelineConfig] = {p.name: p for p in _BASE + _CE}


def get_pipeline(name: str, candidate_depth: int) -> PipelineConfig:
    """The named pipeline with its leg depth resolved (``CHSR_CANDIDATE_DEPTH`` unless it sets one)."""
    try:
        pipeline = PIPELINES[name]
    except KeyError:
        raise InvalidArgument("pipeline", f"unknown '{name}'; valid: {', '.join(PIPELINES)}") from None
    return pipeline if pipeline.depth else replace(pipeline, depth=candidate_depth)
