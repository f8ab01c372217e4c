from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ScopeLabel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCOPE_LABEL_UNSPECIFIED: _ClassVar[ScopeLabel]
    SCOPE_LABEL_GATED: _ClassVar[ScopeLabel]
    SCOPE_LABEL_RANKED: _ClassVar[ScopeLabel]
    SCOPE_LABEL_UNGATED: _ClassVar[ScopeLabel]
SCOPE_LABEL_UNSPECIFIED: ScopeLabel
SCOPE_LABEL_GATED: ScopeLabel
SCOPE_LABEL_RANKED: ScopeLabel
SCOPE_LABEL_UNGATED: ScopeLabel

class CatalogueEntry(_message.Message):
    __slots__ = ("exam_board", "paper", "subject", "level", "year", "session", "content_type", "language", "count", "max_question_number")
    EXAM_BOARD_FIELD_NUMBER: _ClassVar[int]
    PAPER_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MAX_QUESTION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    exam_board: str
    paper: str
    subject: str
    level: str
    year: int
    session: str
    content_type: str
    language: str
    count: int
    max_question_number: int
    def __init__(self, exam_board: _Optional[str] = ..., paper: _Optional[str] = ..., subject: _Optional[str] = ..., level: _Optional[str] = ..., year: _Optional[int] = ..., session: _Optional[str] = ..., content_type: _Optional[str] = ..., language: _Optional[str] = ..., count: _Optional[int] = ..., max_question_number: _Optional[int] = ...) -> None: ...

class UpdateCatalogueRequest(_message.Message):
    __slots__ = ("version", "entries")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    version: str
    entries: _containers.RepeatedCompositeFieldContainer[CatalogueEntry]
    def __init__(self, version: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[CatalogueEntry, _Mapping]]] = ...) -> None: ...

class UpdateCatalogueResponse(_message.Message):
    __slots__ = ("version", "entries", "documents")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    version: str
    entries: int
    documents: int
    def __init__(self, version: _Optional[str] = ..., entries: _Optional[int] = ..., documents: _Optional[int] = ...) -> None: ...

class GateRequest(_message.Message):
    __slots__ = ("query", "hints", "extract", "strict_scope", "expand_query", "probe")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    EXTRACT_FIELD_NUMBER: _ClassVar[int]
    STRICT_SCOPE_FIELD_NUMBER: _ClassVar[int]
    EXPAND_QUERY_FIELD_NUMBER: _ClassVar[int]
    PROBE_FIELD_NUMBER: _ClassVar[int]
    query: str
    hints: _common_pb2.Scope
    extract: bool
    strict_scope: bool
    expand_query: bool
    probe: _containers.RepeatedCompositeFieldContainer[ProbeHit]
    def __init__(self, query: _Optional[str] = ..., hints: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., extract: _Optional[bool] = ..., strict_scope: _Optional[bool] = ..., expand_query: _Optional[bool] = ..., probe: _Optional[_Iterable[_Union[ProbeHit, _Mapping]]] = ...) -> None: ...

class ProbeHit(_message.Message):
    __slots__ = ("leg", "rank", "score", "metadata", "doc_id")
    LEG_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    DOC_ID_FIELD_NUMBER: _ClassVar[int]
    leg: str
    rank: int
    score: float
    metadata: _common_pb2.Metadata
    doc_id: str
    def __init__(self, leg: _Optional[str] = ..., rank: _Optional[int] = ..., score: _Optional[float] = ..., metadata: _Optional[_Union[_common_pb2.Metadata, _Mapping]] = ..., doc_id: _Optional[str] = ...) -> None: ...

class FieldPenalty(_message.Message):
    __slots__ = ("field", "values", "probability")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    field: str
    values: _containers.RepeatedScalarFieldContainer[str]
    probability: float
    def __init__(self, field: _Optional[str] = ..., values: _Optional[_Iterable[str]] = ..., probability: _Optional[float] = ...) -> None: ...

class GateResponse(_message.Message):
    __slots__ = ("scope", "confidence", "ladder", "strict_keys", "expanded_query", "topic_terms", "penalties", "penalty_strength", "label", "notes", "catalogue_version", "query_language")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    STRICT_KEYS_FIELD_NUMBER: _ClassVar[int]
    EXPANDED_QUERY_FIELD_NUMBER: _ClassVar[int]
    TOPIC_TERMS_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    PENALTY_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    CATALOGUE_VERSION_FIELD_NUMBER: _ClassVar[int]
    QUERY_LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    scope: _common_pb2.Scope
    confidence: _containers.RepeatedCompositeFieldContainer[_common_pb2.FieldConfidence]
    ladder: _containers.RepeatedCompositeFieldContainer[_common_pb2.LadderStep]
    strict_keys: _containers.RepeatedScalarFieldContainer[str]
    expanded_query: str
    topic_terms: _containers.RepeatedScalarFieldContainer[str]
    penalties: _containers.RepeatedCompositeFieldContainer[FieldPenalty]
    penalty_strength: float
    label: ScopeLabel
    notes: _containers.RepeatedScalarFieldContainer[str]
    catalogue_version: str
    query_language: _common_pb2.QueryLanguage
    def __init__(self, scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., confidence: _Optional[_Iterable[_Union[_common_pb2.FieldConfidence, _Mapping]]] = ..., ladder: _Optional[_Iterable[_Union[_common_pb2.LadderStep, _Mapping]]] = ..., strict_keys: _Optional[_Iterable[str]] = ..., expanded_query: _Optional[str] = ..., topic_terms: _Optional[_Iterable[str]] = ..., penalties: _Optional[_Iterable[_Union[FieldPenalty, _Mapping]]] = ..., penalty_strength: _Optional[float] = ..., label: _Optional[_Union[ScopeLabel, str]] = ..., notes: _Optional[_Iterable[str]] = ..., catalogue_version: _Optional[str] = ..., query_language: _Optional[_Union[_common_pb2.QueryLanguage, _Mapping]] = ...) -> None: ...
