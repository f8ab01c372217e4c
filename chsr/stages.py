"""Names of the timed stages of a search: the ``stage`` label of ``chsr_stage_latency_seconds``,
the keys of ``SearchResponse.timings`` and the columns of every latency report."""

SEARCH_STAGES = ("gate", "sparse", "dense", "fusion", "fetch", "rerank")  # in the order a request runs them
TIMING_STAGES = (*SEARCH_STAGES, "total")  # what a search response reports
ALL_STAGES = ("cache", *TIMING_STAGES)     # plus the cache look-up, timed alone on a hit
