"""Prometheus metrics shared by the mesh (names: docs/ARCHITECTURE.md).

All latencies are in seconds with buckets that resolve 1 ms to 2 s. Labels are
bounded enumerations (stage, pipeline, step, code, backend, reason): never
query text or ids.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

LATENCY_BUCKETS = (
    0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075,
    0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 5.0,
)

STAGE_LATENCY = Histogram(
    "chsr_stage_latency_seconds", "Latency of one stage of a search request, seen by the gateway.",
    ["stage", "pipeline"], buckets=LATENCY_BUCKETS,
)
GRPC_HANDLING = Histogram(
    "chsr_grpc_server_handling_seconds", "Server-side handling time of a gRPC method.",
    ["service", "method"], buckets=LATENCY_BUCKETS,
)
GRPC_HANDLED = Counter(
    "chsr_grpc_server_handled_total", "gRPC calls completed, by status code.", ["service", "method", "code"],
)
REQUESTS = Counter("chsr_requests_total", "Gateway searches by pipeline and status code.", ["pipeline", "code"])
RELAXATION_STEPS = Counter(
    "chsr_relaxation_steps_total", "Ladder steps attempted by the gateway.", ["pipeline", "step"],
)
QUERY_VECTORS = Counter("chsr_dense_query_vectors_total",
                        "Query vectors the dense leg searched with, by where they came from: encoded, cached (its LRU) "
                        "or carried (sent back by the gateway from an earlier call of the same request).", ["source"])
RESULTS = Counter("chsr_results_total", "Results returned, by the ladder step that produced them.", ["pipeline", "step"])
LEAKAGE_FLAGGED = Counter(
    "chsr_leakage_flagged_results_total", "Returned results that violate the W0 scope (flagged).", ["pipeline"],
)
CACHE_EVENTS = Counter("chsr_cache_events_total", "Gateway result-cache events.", ["event"])
BACKEND_ERRORS = Counter("chsr_backend_errors_total", "Errors talking to a backend or stage.", ["backend", "reason"])
DEGRADED = Counter("chsr_degraded_answers_total", "Answers served in a degraded mode, by reason.", ["reason"])
INFLIGHT = Gauge("chsr_inflight_requests", "gRPC requests being handled.", ["service"])
INGESTED = Counter("chsr_ingest_documents_total", "Documents processed by ingest.", ["backend", "outcome"])
BACKEND_UP = Gauge("chsr_backend_up", "1 when the backend answered its last health probe.", ["backend"])
