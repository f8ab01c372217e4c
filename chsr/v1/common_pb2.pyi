from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RelaxationStep(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RELAXATION_STEP_UNSPECIFIED: _ClassVar[RelaxationStep]
    W0_EXACT: _ClassVar[RelaxationStep]
    W1_DROP_TOPIC: _ClassVar[RelaxationStep]
    W2_DROP_LEVEL: _ClassVar[RelaxationStep]
    W3_UNFILTERED_LEXICAL: _ClassVar[RelaxationStep]
RELAXATION_STEP_UNSPECIFIED: RelaxationStep
W0_EXACT: RelaxationStep
W1_DROP_TOPIC: RelaxationStep
W2_DROP_LEVEL: RelaxationStep
W3_UNFILTERED_LEXICAL: RelaxationStep

class Metadata(_message.Message):
    __slots__ = ("subject", "level", "year", "session", "paper", "content_type", "question_number", "source", "exam_board", "language")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    PAPER_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    QUESTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    EXAM_BOARD_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    subject: str
    level: str
    year: int
    session: str
    paper: str
    content_type: str
    question_number: int
    source: str
    exam_board: str
    language: str
    def __init__(self, subject: _Optional[str] = ..., level: _Optional[str] = ..., year: _Optional[int] = ..., session: _Optional[str] = ..., paper: _Optional[str] = ..., content_type: _Optional[str] = ..., question_number: _Optional[int] = ..., source: _Optional[str] = ..., exam_board: _Optional[str] = ..., language: _Optional[str] = ...) -> None: ...

class Document(_message.Message):
    __slots__ = ("id", "title", "text", "metadata")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    text: str
    metadata: Metadata
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ..., metadata: _Optional[_Union[Metadata, _Mapping]] = ...) -> None: ...

class Scope(_message.Message):
    __slots__ = ("subject", "level", "year", "session", "paper", "content_type", "question_number", "exam_board", "language")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    PAPER_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    QUESTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    EXAM_BOARD_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    subject: _containers.RepeatedScalarFieldContainer[str]
    level: _containers.RepeatedScalarFieldContainer[str]
    year: _containers.RepeatedScalarFieldContainer[int]
    session: _containers.RepeatedScalarFieldContainer[str]
    paper: _containers.RepeatedScalarFieldContainer[str]
    content_type: _containers.RepeatedScalarFieldContainer[str]
    question_number: _containers.RepeatedScalarFieldContainer[int]
    exam_board: _containers.RepeatedScalarFieldContainer[str]
    language: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, subject: _Optional[_Iterable[str]] = ..., level: _Optional[_Iterable[str]] = ..., year: _Optional[_Iterable[int]] = ..., session: _Optional[_Iterable[str]] = ..., paper: _Optional[_Iterable[str]] = ..., content_type: _Optional[_Iterable[str]] = ..., question_number: _Optional[_Iterable[int]] = ..., exam_board: _Optional[_Iterable[str]] = ..., language: _Optional[_Iterable[str]] = ...) -> None: ...

class FieldConfidence(_message.Message):
    __slots__ = ("field", "confidence", "evidence")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    field: str
    confidence: float
    evidence: str
    def __init__(self, field: _Optional[str] = ..., confidence: _Optional[float] = ..., evidence: _Optional[str] = ...) -> None: ...

class LadderStep(_message.Message):
    __slots__ = ("step", "filter", "description", "lexical_only")
    STEP_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    LEXICAL_ONLY_FIELD_NUMBER: _ClassVar[int]
    step: RelaxationStep
    filter: Scope
    description: str
    lexical_only: bool
    def __init__(self, step: _Optional[_Union[RelaxationStep, str]] = ..., filter: _Optional[_Union[Scope, _Mapping]] = ..., description: _Optional[str] = ..., lexical_only: _Optional[bool] = ...) -> None: ...

class Candidate(_message.Message):
    __slots__ = ("doc_id", "score", "rank", "document", "features")
    class FeaturesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    doc_id: str
    score: float
    rank: int
    document: Document
    features: _containers.ScalarMap[str, float]
    def __init__(self, doc_id: _Optional[str] = ..., score: _Optional[float] = ..., rank: _Optional[int] = ..., document: _Optional[_Union[Document, _Mapping]] = ..., features: _Optional[_Mapping[str, float]] = ...) -> None: ...

class StageTiming(_message.Message):
    __slots__ = ("stage", "ms")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    MS_FIELD_NUMBER: _ClassVar[int]
    stage: str
    ms: float
    def __init__(self, stage: _Optional[str] = ..., ms: _Optional[float] = ...) -> None: ...

class RelaxationAttempt(_message.Message):
    __slots__ = ("step", "filter", "admissible", "on_topic", "accepted", "reason")
    STEP_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    ADMISSIBLE_FIELD_NUMBER: _ClassVar[int]
    ON_TOPIC_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    step: RelaxationStep
    filter: Scope
    admissible: int
    on_topic: int
    accepted: bool
    reason: str
    def __init__(self, step: _Optional[_Union[RelaxationStep, str]] = ..., filter: _Optional[_Union[Scope, _Mapping]] = ..., admissible: _Optional[int] = ..., on_topic: _Optional[int] = ..., accepted: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class RetrieveRequest(_message.Message):
    __slots__ = ("query", "filter", "k", "include_documents", "post_filter", "exact")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    POST_FILTER_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    query: str
    filter: Scope
    k: int
    include_documents: bool
    post_filter: bool
    exact: bool
    def __init__(self, query: _Optional[str] = ..., filter: _Optional[_Union[Scope, _Mapping]] = ..., k: _Optional[int] = ..., include_documents: _Optional[bool] = ..., post_filter: _Optional[bool] = ..., exact: _Optional[bool] = ...) -> None: ...

class RetrieveResponse(_message.Message):
    __slots__ = ("candidates", "backend", "generation", "took_ms")
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    TOOK_MS_FIELD_NUMBER: _ClassVar[int]
    candidates: _containers.RepeatedCompositeFieldContainer[Candidate]
    backend: str
    generation: int
    took_ms: float
    def __init__(self, candidates: _Optional[_Iterable[_Union[Candidate, _Mapping]]] = ..., backend: _Optional[str] = ..., generation: _Optional[int] = ..., took_ms: _Optional[float] = ...) -> None: ...

class UpsertRequest(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[Document, _Mapping]]] = ...) -> None: ...

class ItemError(_message.Message):
    __slots__ = ("doc_id", "field", "message")
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    doc_id: str
    field: str
    message: str
    def __init__(self, doc_id: _Optional[str] = ..., field: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class UpsertResponse(_message.Message):
    __slots__ = ("indexed", "unchanged", "errors", "generation")
    INDEXED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    indexed: int
    unchanged: int
    errors: _containers.RepeatedCompositeFieldContainer[ItemError]
    generation: int
    def __init__(self, indexed: _Optional[int] = ..., unchanged: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[ItemError, _Mapping]]] = ..., generation: _Optional[int] = ...) -> None: ...

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

class StatsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StatsResponse(_message.Message):
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

class ListIdsRequest(_message.Message):
    __slots__ = ("page_size",)
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    def __init__(self, page_size: _Optional[int] = ...) -> None: ...

class IdPage(_message.Message):
    __slots__ = ("doc_ids",)
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GetDocumentsRequest(_message.Message):
    __slots__ = ("doc_ids",)
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GetDocumentsResponse(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[Document, _Mapping]]] = ...) -> None: ...
