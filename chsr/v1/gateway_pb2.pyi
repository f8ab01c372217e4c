from chsr.v1 import common_pb2 as _common_pb2
from chsr.v1 import gate_pb2 as _gate_pb2
from chsr.v1 import ingest_pb2 as _ingest_pb2
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
    __slots__ = ("doc_id", "title", "text", "score", "metadata", "relaxation", "violations", "rank", "citation", "notes")
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    RELAXATION_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    CITATION_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    doc_id: str
    title: str
    text: str
    score: float
    metadata: _common_pb2.Metadata
    relaxation: _common_pb2.RelaxationStep
    violations: _containers.RepeatedScalarFieldContainer[str]
    rank: int
    citation: _common_pb2.Citation
    notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_id: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ..., score: _Optional[float] = ..., metadata: _Optional[_Union[_common_pb2.Metadata, _Mapping]] = ..., relaxation: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., violations: _Optional[_Iterable[str]] = ..., rank: _Optional[int] = ..., citation: _Optional[_Union[_common_pb2.Citation, _Mapping]] = ..., notes: _Optional[_Iterable[str]] = ...) -> None: ...

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
    __slots__ = ("results", "scope", "confidence", "relaxation_trace", "timings", "cache_hit", "degraded", "pipeline", "fusion_telemetry", "index_generation", "final_step", "expanded_query", "rerank_telemetry", "scope_label", "scope_notes", "penalties", "query_language")
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
    SCOPE_LABEL_FIELD_NUMBER: _ClassVar[int]
    SCOPE_NOTES_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    QUERY_LANGUAGE_FIELD_NUMBER: _ClassVar[int]
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
    scope_label: _gate_pb2.ScopeLabel
    scope_notes: _containers.RepeatedScalarFieldContainer[str]
    penalties: _containers.RepeatedCompositeFieldContainer[_gate_pb2.FieldPenalty]
    query_language: _common_pb2.QueryLanguage
    def __init__(self, results: _Optional[_Iterable[_Union[SearchResult, _Mapping]]] = ..., scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., confidence: _Optional[_Iterable[_Union[_common_pb2.FieldConfidence, _Mapping]]] = ..., relaxation_trace: _Optional[_Iterable[_Union[LadderStepOutcome, _Mapping]]] = ..., timings: _Optional[_Iterable[_Union[_common_pb2.StageTiming, _Mapping]]] = ..., cache_hit: _Optional[bool] = ..., degraded: _Optional[_Iterable[str]] = ..., pipeline: _Optional[str] = ..., fusion_telemetry: _Optional[_Mapping[str, float]] = ..., index_generation: _Optional[int] = ..., final_step: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., expanded_query: _Optional[str] = ..., rerank_telemetry: _Optional[_Mapping[str, float]] = ..., scope_label: _Optional[_Union[_gate_pb2.ScopeLabel, str]] = ..., scope_notes: _Optional[_Iterable[str]] = ..., penalties: _Optional[_Iterable[_Union[_gate_pb2.FieldPenalty, _Mapping]]] = ..., query_language: _Optional[_Union[_common_pb2.QueryLanguage, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("expected_ids", "source")
    EXPECTED_IDS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    expected_ids: _containers.RepeatedScalarFieldContainer[str]
    source: str
    def __init__(self, expected_ids: _Optional[_Iterable[str]] = ..., source: _Optional[str] = ...) -> None: ...

class BackendIdReport(_message.Message):
    __slots__ = ("backend", "count", "missing", "extra", "missing_count", "extra_count", "differing", "differing_count")
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    EXTRA_FIELD_NUMBER: _ClassVar[int]
    MISSING_COUNT_FIELD_NUMBER: _ClassVar[int]
    EXTRA_COUNT_FIELD_NUMBER: _ClassVar[int]
    DIFFERING_FIELD_NUMBER: _ClassVar[int]
    DIFFERING_COUNT_FIELD_NUMBER: _ClassVar[int]
    backend: str
    count: int
    missing: _containers.RepeatedScalarFieldContainer[str]
    extra: _containers.RepeatedScalarFieldContainer[str]
    missing_count: int
    extra_count: int
    differing: _containers.RepeatedScalarFieldContainer[str]
    differing_count: int
    def __init__(self, backend: _Optional[str] = ..., count: _Optional[int] = ..., missing: _Optional[_Iterable[str]] = ..., extra: _Optional[_Iterable[str]] = ..., missing_count: _Optional[int] = ..., extra_count: _Optional[int] = ..., differing: _Optional[_Iterable[str]] = ..., differing_count: _Optional[int] = ...) -> None: ...

class VerifyIndexResponse(_message.Message):
    __slots__ = ("consistent", "backends", "inconsistent_sources", "inconsistent_source_count")
    CONSISTENT_FIELD_NUMBER: _ClassVar[int]
    BACKENDS_FIELD_NUMBER: _ClassVar[int]
    INCONSISTENT_SOURCES_FIELD_NUMBER: _ClassVar[int]
    INCONSISTENT_SOURCE_COUNT_FIELD_NUMBER: _ClassVar[int]
    consistent: bool
    backends: _containers.RepeatedCompositeFieldContainer[BackendIdReport]
    inconsistent_sources: _containers.RepeatedScalarFieldContainer[str]
    inconsistent_source_count: int
    def __init__(self, consistent: _Optional[bool] = ..., backends: _Optional[_Iterable[_Union[BackendIdReport, _Mapping]]] = ..., inconsistent_sources: _Optional[_Iterable[str]] = ..., inconsistent_source_count: _Optional[int] = ...) -> None: ...

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

class IngestFilesRequest(_message.Message):
    __slots__ = ("options", "header", "data", "end")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    options: _ingest_pb2.IngestOptions
    header: _ingest_pb2.FileHeader
    data: bytes
    end: _ingest_pb2.FileEnd
    def __init__(self, options: _Optional[_Union[_ingest_pb2.IngestOptions, _Mapping]] = ..., header: _Optional[_Union[_ingest_pb2.FileHeader, _Mapping]] = ..., data: _Optional[bytes] = ..., end: _Optional[_Union[_ingest_pb2.FileEnd, _Mapping]] = ...) -> None: ...

class FileResult(_message.Message):
    __slots__ = ("file", "error", "chunks", "written", "unchanged", "deleted", "fields", "unresolved", "warnings", "role", "pages", "title", "chunk_ids")
    FILE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    WRITTEN_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    UNRESOLVED_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    PAGES_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CHUNK_IDS_FIELD_NUMBER: _ClassVar[int]
    file: str
    error: _ingest_pb2.FileError
    chunks: int
    written: int
    unchanged: int
    deleted: int
    fields: _containers.RepeatedCompositeFieldContainer[_ingest_pb2.FieldProvenance]
    unresolved: _containers.RepeatedScalarFieldContainer[str]
    warnings: _containers.RepeatedScalarFieldContainer[str]
    role: str
    pages: int
    title: str
    chunk_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, file: _Optional[str] = ..., error: _Optional[_Union[_ingest_pb2.FileError, _Mapping]] = ..., chunks: _Optional[int] = ..., written: _Optional[int] = ..., unchanged: _Optional[int] = ..., deleted: _Optional[int] = ..., fields: _Optional[_Iterable[_Union[_ingest_pb2.FieldProvenance, _Mapping]]] = ..., unresolved: _Optional[_Iterable[str]] = ..., warnings: _Optional[_Iterable[str]] = ..., role: _Optional[str] = ..., pages: _Optional[int] = ..., title: _Optional[str] = ..., chunk_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class IngestFilesSummary(_message.Message):
    __slots__ = ("files", "failed", "chunks", "written", "unchanged", "deleted", "generation")
    FILES_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    WRITTEN_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    files: int
    failed: int
    chunks: int
    written: int
    unchanged: int
    deleted: int
    generation: int
    def __init__(self, files: _Optional[int] = ..., failed: _Optional[int] = ..., chunks: _Optional[int] = ..., written: _Optional[int] = ..., unchanged: _Optional[int] = ..., deleted: _Optional[int] = ..., generation: _Optional[int] = ...) -> None: ...

class IngestFilesResponse(_message.Message):
    __slots__ = ("progress", "file", "summary")
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    progress: _ingest_pb2.FileProgress
    file: FileResult
    summary: IngestFilesSummary
    def __init__(self, progress: _Optional[_Union[_ingest_pb2.FileProgress, _Mapping]] = ..., file: _Optional[_Union[FileResult, _Mapping]] = ..., summary: _Optional[_Union[IngestFilesSummary, _Mapping]] = ...) -> None: ...

class DeleteSourceRequest(_message.Message):
    __slots__ = ("sources",)
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    sources: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, sources: _Optional[_Iterable[str]] = ...) -> None: ...

class SourceDeletion(_message.Message):
    __slots__ = ("source", "deleted")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    source: str
    deleted: int
    def __init__(self, source: _Optional[str] = ..., deleted: _Optional[int] = ...) -> None: ...

class DeleteSourceResponse(_message.Message):
    __slots__ = ("sources", "generation")
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    sources: _containers.RepeatedCompositeFieldContainer[SourceDeletion]
    generation: int
    def __init__(self, sources: _Optional[_Iterable[_Union[SourceDeletion, _Mapping]]] = ..., generation: _Optional[int] = ...) -> None: ...

class GetContextRequest(_message.Message):
    __slots__ = ("query", "budget_tokens", "hints", "pipeline", "strict_scope", "candidates", "answer_sentences")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    STRICT_SCOPE_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    ANSWER_SENTENCES_FIELD_NUMBER: _ClassVar[int]
    query: str
    budget_tokens: int
    hints: _common_pb2.Scope
    pipeline: str
    strict_scope: bool
    candidates: int
    answer_sentences: int
    def __init__(self, query: _Optional[str] = ..., budget_tokens: _Optional[int] = ..., hints: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., pipeline: _Optional[str] = ..., strict_scope: _Optional[bool] = ..., candidates: _Optional[int] = ..., answer_sentences: _Optional[int] = ...) -> None: ...

class ContextPassage(_message.Message):
    __slots__ = ("index", "doc_id", "text", "citation", "metadata", "label", "relaxation", "violations", "scope_note", "tokens", "truncated", "score")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CITATION_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    RELAXATION_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    SCOPE_NOTE_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    index: int
    doc_id: str
    text: str
    citation: _common_pb2.Citation
    metadata: _common_pb2.Metadata
    label: str
    relaxation: _common_pb2.RelaxationStep
    violations: _containers.RepeatedScalarFieldContainer[str]
    scope_note: str
    tokens: int
    truncated: bool
    score: float
    def __init__(self, index: _Optional[int] = ..., doc_id: _Optional[str] = ..., text: _Optional[str] = ..., citation: _Optional[_Union[_common_pb2.Citation, _Mapping]] = ..., metadata: _Optional[_Union[_common_pb2.Metadata, _Mapping]] = ..., label: _Optional[str] = ..., relaxation: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., violations: _Optional[_Iterable[str]] = ..., scope_note: _Optional[str] = ..., tokens: _Optional[int] = ..., truncated: _Optional[bool] = ..., score: _Optional[float] = ...) -> None: ...

class AnswerSentence(_message.Message):
    __slots__ = ("text", "passage", "citation", "score")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PASSAGE_FIELD_NUMBER: _ClassVar[int]
    CITATION_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    text: str
    passage: int
    citation: _common_pb2.Citation
    score: float
    def __init__(self, text: _Optional[str] = ..., passage: _Optional[int] = ..., citation: _Optional[_Union[_common_pb2.Citation, _Mapping]] = ..., score: _Optional[float] = ...) -> None: ...

class GetContextResponse(_message.Message):
    __slots__ = ("context", "passages", "answer", "tokens", "budget_tokens", "duplicates_removed", "left_out", "pipeline", "scope", "final_step", "degraded", "relaxation_trace")
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    PASSAGES_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_TOKENS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATES_REMOVED_FIELD_NUMBER: _ClassVar[int]
    LEFT_OUT_FIELD_NUMBER: _ClassVar[int]
    PIPELINE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    FINAL_STEP_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_FIELD_NUMBER: _ClassVar[int]
    RELAXATION_TRACE_FIELD_NUMBER: _ClassVar[int]
    context: str
    passages: _containers.RepeatedCompositeFieldContainer[ContextPassage]
    answer: _containers.RepeatedCompositeFieldContainer[AnswerSentence]
    tokens: int
    budget_tokens: int
    duplicates_removed: int
    left_out: int
    pipeline: str
    scope: _common_pb2.Scope
    final_step: _common_pb2.RelaxationStep
    degraded: _containers.RepeatedScalarFieldContainer[str]
    relaxation_trace: _containers.RepeatedCompositeFieldContainer[LadderStepOutcome]
    def __init__(self, context: _Optional[str] = ..., passages: _Optional[_Iterable[_Union[ContextPassage, _Mapping]]] = ..., answer: _Optional[_Iterable[_Union[AnswerSentence, _Mapping]]] = ..., tokens: _Optional[int] = ..., budget_tokens: _Optional[int] = ..., duplicates_removed: _Optional[int] = ..., left_out: _Optional[int] = ..., pipeline: _Optional[str] = ..., scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., final_step: _Optional[_Union[_common_pb2.RelaxationStep, str]] = ..., degraded: _Optional[_Iterable[str]] = ..., relaxation_trace: _Optional[_Iterable[_Union[LadderStepOutcome, _Mapping]]] = ...) -> None: ...
