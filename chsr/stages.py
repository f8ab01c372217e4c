"""Names of the retrieval legs and of the timed stages of a search.

Stage names are the ``stage`` label of ``chsr_stage_latency_seconds``, the keys of
``SearchResponse.timings`` and the columns of every latency report; each leg is a stage.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class LegSpec:
    """A retrieval leg: which server answers it and with which of its scoring models
    (``RetrieveRequest.model``). Several legs may share a server (and its copy of the corpus)."""

    name: str
    server: str
    model: str


#: Every leg the mesh knows, by name (the name pipelines, timings and degraded flags use).
KNOWN_LEGS: dict[str, LegSpec] = {
    "sparse": LegSpec("sparse", "sparse", "bm25"),
    "dense": LegSpec("dense", "dense", "minilm"),
}
LEGS = ("sparse", "dense")   # the default legs, in the order fusion lists them
LEXICAL_LEG = "sparse"       # runs alone at W3; its server is asked first for stored documents
#: The servers that each hold a full copy of the corpus: every write goes to each of them once.
RETRIEVAL_SERVERS = ("sparse", "dense")
SEARCH_STAGES = ("probe", "gate", *LEGS, "fusion", "fetch", "rerank")  # in the order a request runs them
TIMING_STAGES = (*SEARCH_STAGES, "total")  # what a search response reports
ALL_STAGES = ("cache", *TIMING_STAGES)     # plus the cache look-up, timed alone on a hit
