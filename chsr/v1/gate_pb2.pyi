from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GateRequest(_message.Message):
    __slots__ = ("query", "hints", "extract", "strict_scope", "expand_query")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    EXTRACT_FIELD_NUMBER: _ClassVar[int]
    STRICT_SCOPE_FIELD_NUMBER: _ClassVar[int]
    EXPAND_QUERY_FIELD_NUMBER: _ClassVar[int]
    query: str
    hints: _common_pb2.Scope
    extract: bool
    strict_scope: bool
    expand_query: bool
    def __init__(self, query: _Optional[str] = ..., hints: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., extract: _Optional[bool] = ..., strict_scope: _Optional[bool] = ..., expand_query: _Optional[bool] = ...) -> None: ...

class GateResponse(_message.Message):
    __slots__ = ("scope", "confidence", "ladder", "strict_keys", "expanded_query", "topic_terms")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    STRICT_KEYS_FIELD_NUMBER: _ClassVar[int]
    EXPANDED_QUERY_FIELD_NUMBER: _ClassVar[int]
    TOPIC_TERMS_FIELD_NUMBER: _ClassVar[int]
    scope: _common_pb2.Scope
    confidence: _containers.RepeatedCompositeFieldContainer[_common_pb2.FieldConfidence]
    ladder: _containers.RepeatedCompositeFieldContainer[_common_pb2.LadderStep]
    strict_keys: _containers.RepeatedScalarFieldContainer[str]
    expanded_query: str
    topic_terms: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., confidence: _Optional[_Iterable[_Union[_common_pb2.FieldConfidence, _Mapping]]] = ..., ladder: _Optional[_Iterable[_Union[_common_pb2.LadderStep, _Mapping]]] = ..., strict_keys: _Optional[_Iterable[str]] = ..., expanded_query: _Optional[str] = ..., topic_terms: _Optional[_Iterable[str]] = ...) -> None: ...
