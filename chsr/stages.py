"""Names of the retrieval legs and of the timed stages of a search.

Stage names are the ``stage`` label of ``chsr_stage_latency_seconds``, the keys of
``SearchResponse.timings`` and the columns of every latency report; each leg is a stage.
A leg is a server and one of its scoring models (``RetrieveRequest.model``); which legs a
mesh runs is configuration (``CHSR_LEGS``), and the retrieval servers that hold the corpus
and get every write are the servers of those legs (:func:`retrieval_servers`).
"""

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class LegSpec:
    """A retrieval leg: which server answers it and with which of its scoring models
    (``RetrieveRequest.model``). Several legs may share a server (and its copy of the corpus)."""

    name: str
    server: str
    model: str


#: Every leg the mesh knows, by name (the name pipelines, timings and degraded flags use).
#: Seed 003: #1 BM25, #11 MiniLM, #2 TF-IDF, #9 PPMI (sparse server), #14 knowledge graph (graph server).
KNOWN_LEGS: dict[str, LegSpec] = {
    "sparse": LegSpec("sparse", "sparse", "bm25"),
    "dense": LegSpec("dense", "dense", "minilm"),
    "tfidf": LegSpec("tfidf", "sparse", "tfidf"),
    "ppmi": LegSpec("ppmi", "sparse", "ppmi"),
    "graph": LegSpec("graph", "graph", "kg"),
}
#: Legs a user can name but this mesh cannot serve, with the reason (shown by ListPipelines).
UNAVAILABLE_LEGS: dict[str, str] = {
    "specter2": ("SPECTER2 (allenai/specter2_base with the specter2_adhoc_query adapter, seed 003 #13) is not "
                 "available: its weights cannot be downloaded on this machine and no other model is served "
                 "under its name"),
}
LEGS = ("sparse", "dense")   # the legs a pipeline fuses when it names none, in the order fusion lists them
LEXICAL_LEG = "sparse"       # runs alone at W3; its server is asked first for stored documents
#: Every retrieval server the mesh knows (each holds a full copy of the corpus when enabled).
ALL_RETRIEVAL_SERVERS = ("sparse", "dense", "graph")
#: The legs enabled by default (``CHSR_LEGS``): every known leg.
DEFAULT_ENABLED_LEGS = tuple(KNOWN_LEGS)
#: The servers of the default legs: every write goes to each of them once.
RETRIEVAL_SERVERS = ("sparse", "dense", "graph")
SEARCH_STAGES = ("probe", "gate", *KNOWN_LEGS, "fusion", "fetch", "rerank")  # in the order a request runs them
TIMING_STAGES = (*SEARCH_STAGES, "total")  # what a search response reports
ALL_STAGES = ("cache", *TIMING_STAGES)     # plus the cache look-up, timed alone on a hit


def retrieval_servers(legs: Iterable[str]) -> tuple[str, ...]:
    """The servers that answer ``legs``, in :data:`ALL_RETRIEVAL_SERVERS` order (each once)."""
    used = {KNOWN_LEGS[leg].server for leg in legs if leg in KNOWN_LEGS}
    return tuple(s for s in ALL_RETRIEVAL_SERVERS if s in used)
