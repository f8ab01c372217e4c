"""Names of the retrieval legs and of the timed stages of a search.

Stage names are the ``stage`` label of ``chsr_stage_latency_seconds``, the keys of
``SearchResponse.timings`` and the columns of every latency report; each leg is a stage.
"""

LEGS = ("sparse", "dense")   # the retrieval legs, in the order fusion lists them
LEXICAL_LEG = "sparse"       # runs alone at W3; asked first for stored documents
SEARCH_STAGES = ("gate", *LEGS, "fusion", "fetch", "rerank")  # in the order a request runs them
TIMING_STAGES = (*SEARCH_STAGES, "total")  # what a search response reports
ALL_STAGES = ("cache", *TIMING_STAGES)     # plus the cache look-up, timed alone on a hit
