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
    RELAXATION_STEP_W0_EXACT: _ClassVar[RelaxationStep]
    RELAXATION_STEP_W1_DROP_TOPIC: _ClassVar[RelaxationStep]
    RELAXATION_STEP_W2_DROP_LEVEL: _ClassVar[RelaxationStep]
    RELAXATION_STEP_W3_UNFILTERED_LEXICAL: _ClassVar[RelaxationStep]
RELAXATION_STEP_UNSPECIFIED: RelaxationStep
RELAXATION_STEP_W0_EXACT: RelaxationStep
RELAXATION_STEP_W1_DROP_TOPIC: RelaxationStep
RELAXATION_STEP_W2_DROP_LEVEL: RelaxationStep
RELAXATION_STEP_W3_UNFILTERED_LEXICAL: RelaxationStep

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
    __slots__ = ("id", "title", "text", "metadata", "citation", "chunking")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    CITATION_FIELD_NUMBER: _ClassVar[int]
    CHUNKING_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    text: str
    metadata: Metadata
    citation: Citation
    chunking: str
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., text: _Optional[str] = ..., metadata: _Optional[_Union[Metadata, _Mapping]] = ..., citation: _Optional[_Union[Citation, _Mapping]] = ..., chunking: _Optional[str] = ...) -> None: ...

class Citation(_message.Message):
    __slots__ = ("source", "title", "page_start", "page_end", "heading_path", "question_number")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PAGE_START_FIELD_NUMBER: _ClassVar[int]
    PAGE_END_FIELD_NUMBER: _ClassVar[int]
    HEADING_PATH_FIELD_NUMBER: _ClassVar[int]
    QUESTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    source: str
    title: str
    page_start: int
    page_end: int
    heading_path: _containers.RepeatedScalarFieldContainer[str]
    question_number: int
    def __init__(self, source: _Optional[str] = ..., title: _Optional[str] = ..., page_start: _Optional[int] = ..., page_end: _Optional[int] = ..., heading_path: _Optional[_Iterable[str]] = ..., question_number: _Optional[int] = ...) -> None: ...

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
    __slots__ = ("field", "confidence", "evidence", "source", "conflict", "action")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CONFLICT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    field: str
    confidence: float
    evidence: str
    source: str
    conflict: str
    action: str
    def __init__(self, field: _Optional[str] = ..., confidence: _Optional[float] = ..., evidence: _Optional[str] = ..., source: _Optional[str] = ..., conflict: _Optional[str] = ..., action: _Optional[str] = ...) -> None: ...

class QueryLanguage(_message.Message):
    __slots__ = ("code", "confidence", "requested", "evidence")
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    code: str
    confidence: float
    requested: bool
    evidence: str
    def __init__(self, code: _Optional[str] = ..., confidence: _Optional[float] = ..., requested: _Optional[bool] = ..., evidence: _Optional[str] = ...) -> None: ...

class LadderStep(_message.Message):
    __slots__ = ("step", "filter", "description", "lexical_only", "on_topic_only")
    STEP_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    LEXICAL_ONLY_FIELD_NUMBER: _ClassVar[int]
    ON_TOPIC_ONLY_FIELD_NUMBER: _ClassVar[int]
    step: RelaxationStep
    filter: Scope
    description: str
    lexical_only: bool
    on_topic_only: bool
    def __init__(self, step: _Optional[_Union[RelaxationStep, str]] = ..., filter: _Optional[_Union[Scope, _Mapping]] = ..., description: _Optional[str] = ..., lexical_only: _Optional[bool] = ..., on_topic_only: _Optional[bool] = ...) -> None: ...

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

class ItemError(_message.Message):
    __slots__ = ("doc_id", "field", "message")
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    doc_id: str
    field: str
    message: str
    def __init__(self, doc_id: _Optional[str] = ..., field: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...
