from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SearchRequest(_message.Message):
    __slots__ = ("query", "k", "hints", "pipeline", "strict_scope", "no_cache")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    STRICT_SCOPE_FIELD_NUMBER: _ClassVar[int]
    NO_CACHE_FIELD_NUMBER: _ClassVar[int]
    query: str
    k: int
    hints: _common_pb2.Scope
    pipeline: str
    strict_scope: bool
    no_cache: bool
    def __init__(self, query: _Optional[str] = ..., k: _Optional[int] = ..., hints: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., pipeline: _Optional[str] = ..., strict_scope: _Optional[bool] = ..., no_cache: _Optional[bool] = ...) -> None: ...

class SearchResult(_message.Message):
    __slots__ = ("doc_id", "title", "text", "score", "metadata", "relaxation", "violations", "rank")
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    RELAXATION_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    doc_id: str
    title: str
    text: str
    score: float
    metadata: _common_pb2.Metadata
    relaxation: _common_pb2.RelaxationStep
    violations: _containers.RepeatedScalarFieldContainer[str]
    rank: int
    def __init__(self, doc_id: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ..., score: _Optional[float] = ..., metadata: _Optional[_Union[_common_pb2.Metadata, _Mapping]] = ..., relaxation: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., violations: _Optional[_Iterable[str]] = ..., rank: _Optional[int] = ...) -> None: ...

class LadderStepOutcome(_message.Message):
    __slots__ = ("step", "filter", "admissible", "on_topic", "accepted", "reason")
    STEP_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    ADMISSIBLE_FIELD_NUMBER: _ClassVar[int]
    ON_TOPIC_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    step: _common_pb2.RelaxationStep
    filter: _common_pb2.Scope
    admissible: int
    on_topic: int
    accepted: bool
    reason: str
    def __init__(self, step: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., filter: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., admissible: _Optional[int] = ..., on_topic: _Optional[int] = ..., accepted: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("results", "scope", "confidence", "relaxation_trace", "timings", "cache_hit", "degraded", "pipeline", "fusion_telemetry", "index_generation", "final_step", "expanded_query", "rerank_telemetry")
    class FusionTelemetryEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class RerankTelemetryEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    RELAXATION_TRACE_FIELD_NUMBER: _ClassVar[int]
    TIMINGS_FIELD_NUMBER: _ClassVar[int]
    CACHE_HIT_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    FUSION_TELEMETRY_FIELD_NUMBER: _ClassVar[int]
    INDEX_GENERATION_FIELD_NUMBER: _ClassVar[int]
    FINAL_STEP_FIELD_NUMBER: _ClassVar[int]
    EXPANDED_QUERY_FIELD_NUMBER: _ClassVar[int]
    RERANK_TELEMETRY_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SearchResult]
    scope: _common_pb2.Scope
    confidence: _containers.RepeatedCompositeFieldContainer[_common_pb2.FieldConfidence]
    relaxation_trace: _containers.RepeatedCompositeFieldContainer[LadderStepOutcome]
    timings: _containers.RepeatedCompositeFieldContainer[_common_pb2.StageTiming]
    cache_hit: bool
    degraded: _containers.RepeatedScalarFieldContainer[str]
    pipeline: str
    fusion_telemetry: _containers.ScalarMap[str, float]
    index_generation: int
    final_step: _common_pb2.RelaxationStep
    expanded_query: str
    rerank_telemetry: _containers.ScalarMap[str, float]
    def __init__(self, results: _Optional[_Iterable[_Union[SearchResult, _Mapping]]] = ..., scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., confidence: _Optional[_Iterable[_Union[_common_pb2.FieldConfidence, _Mapping]]] = ..., relaxation_trace: _Optional[_Iterable[_Union[LadderStepOutcome, _Mapping]]] = ..., timings: _Optional[_Iterable[_Union[_common_pb2.StageTiming, _Mapping]]] = ..., cache_hit: _Optional[bool] = ..., degraded: _Optional[_Iterable[str]] = ..., pipeline: _Optional[str] = ..., fusion_telemetry: _Optional[_Mapping[str, float]] = ..., index_generation: _Optional[int] = ..., final_step: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., expanded_query: _Optional[str] = ..., rerank_telemetry: _Optional[_Mapping[str, float]] = ...) -> None: ...

class IngestRequest(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[_common_pb2.Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[_common_pb2.Document, _Mapping]]] = ...) -> None: ...

class IngestSummary(_message.Message):
    __slots__ = ("received", "indexed", "unchanged", "errors", "generation", "per_backend_indexed")
    class PerBackendIndexedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    INDEXED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    PER_BACKEND_INDEXED_FIELD_NUMBER: _ClassVar[int]
    received: int
    indexed: int
    unchanged: int
    errors: _containers.RepeatedCompositeFieldContainer[_common_pb2.ItemError]
    generation: int
    per_backend_indexed: _containers.ScalarMap[str, int]
    def __init__(self, received: _Optional[int] = ..., indexed: _Optional[int] = ..., unchanged: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[_common_pb2.ItemError, _Mapping]]] = ..., generation: _Optional[int] = ..., per_backend_indexed: _Optional[_Mapping[str, int]] = ...) -> None: ...

class IngestResponse(_message.Message):
    __slots__ = ("summary",)
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    summary: IngestSummary
    def __init__(self, summary: _Optional[_Union[IngestSummary, _Mapping]] = ...) -> None: ...

class IngestWithProgressRequest(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[_common_pb2.Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[_common_pb2.Document, _Mapping]]] = ...) -> None: ...

class IngestWithProgressResponse(_message.Message):
    __slots__ = ("batches", "received", "indexed", "unchanged", "summary")
    BATCHES_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    INDEXED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    batches: int
    received: int
    indexed: int
    unchanged: int
    summary: IngestSummary
    def __init__(self, batches: _Optional[int] = ..., received: _Optional[int] = ..., indexed: _Optional[int] = ..., unchanged: _Optional[int] = ..., summary: _Optional[_Union[IngestSummary, _Mapping]] = ...) -> None: ...

class DeleteRequest(_message.Message):
    __slots__ = ("doc_ids",)
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteResponse(_message.Message):
    __slots__ = ("deleted", "generation")
    DELETED_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    deleted: int
    generation: int
    def __init__(self, deleted: _Optional[int] = ..., generation: _Optional[int] = ...) -> None: ...

class IndexStatsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BackendStats(_message.Message):
    __slots__ = ("backend", "documents", "generation", "details")
    class DetailsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    backend: str
    documents: int
    generation: int
    details: _containers.ScalarMap[str, str]
    def __init__(self, backend: _Optional[str] = ..., documents: _Optional[int] = ..., generation: _Optional[int] = ..., details: _Optional[_Mapping[str, str]] = ...) -> None: ...

class IndexStatsResponse(_message.Message):
    __slots__ = ("backends", "generation")
    BACKENDS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    backends: _containers.RepeatedCompositeFieldContainer[BackendStats]
    generation: int
    def __init__(self, backends: _Optional[_Iterable[_Union[BackendStats, _Mapping]]] = ..., generation: _Optional[int] = ...) -> None: ...

class VerifyIndexRequest(_message.Message):
    __slots__ = ("expected_ids",)
    EXPECTED_IDS_FIELD_NUMBER: _ClassVar[int]
    expected_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, expected_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class BackendIdReport(_message.Message):
    __slots__ = ("backend", "count", "missing", "extra", "missing_count", "extra_count")
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    EXTRA_FIELD_NUMBER: _ClassVar[int]
    MISSING_COUNT_FIELD_NUMBER: _ClassVar[int]
    EXTRA_COUNT_FIELD_NUMBER: _ClassVar[int]
    backend: str
    count: int
    missing: _containers.RepeatedScalarFieldContainer[str]
    extra: _containers.RepeatedScalarFieldContainer[str]
    missing_count: int
    extra_count: int
    def __init__(self, backend: _Optional[str] = ..., count: _Optional[int] = ..., missing: _Optional[_Iterable[str]] = ..., extra: _Optional[_Iterable[str]] = ..., missing_count: _Optional[int] = ..., extra_count: _Optional[int] = ...) -> None: ...

class VerifyIndexResponse(_message.Message):
    __slots__ = ("consistent", "backends")
    CONSISTENT_FIELD_NUMBER: _ClassVar[int]
    BACKENDS_FIELD_NUMBER: _ClassVar[int]
    consistent: bool
    backends: _containers.RepeatedCompositeFieldContainer[BackendIdReport]
    def __init__(self, consistent: _Optional[bool] = ..., backends: _Optional[_Iterable[_Union[BackendIdReport, _Mapping]]] = ...) -> None: ...

class ListPipelinesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PipelineInfo(_message.Message):
    __slots__ = ("name", "description", "legs", "available", "unavailable_reason")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    LEGS_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    UNAVAILABLE_REASON_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    legs: _containers.RepeatedScalarFieldContainer[str]
    available: bool
    unavailable_reason: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., legs: _Optional[_Iterable[str]] = ..., available: _Optional[bool] = ..., unavailable_reason: _Optional[str] = ...) -> None: ...

class ListPipelinesResponse(_message.Message):
    __slots__ = ("pipelines", "default_pipeline")
    PIPELINES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_PIPELINE_FIELD_NUMBER: _ClassVar[int]
    pipelines: _containers.RepeatedCompositeFieldContainer[PipelineInfo]
    default_pipeline: str
    def __init__(self, pipelines: _Optional[_Iterable[_Union[PipelineInfo, _Mapping]]] = ..., default_pipeline: _Optional[str] = ...) -> None: ...
