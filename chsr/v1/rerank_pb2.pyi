from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RerankRequest(_message.Message):
    __slots__ = ("query", "candidates", "scope", "mode", "k", "params")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    QUERY_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    query: str
    candidates: _containers.RepeatedCompositeFieldContainer[_common_pb2.Candidate]
    scope: _common_pb2.Scope
    mode: str
    k: int
    params: _containers.ScalarMap[str, str]
    def __init__(self, query: _Optional[str] = ..., candidates: _Optional[_Iterable[_Union[_common_pb2.Candidate, _Mapping]]] = ..., scope: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., mode: _Optional[str] = ..., k: _Optional[int] = ..., params: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RerankResponse(_message.Message):
    __slots__ = ("candidates", "removed_duplicates", "telemetry")
    class TelemetryEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    REMOVED_DUPLICATES_FIELD_NUMBER: _ClassVar[int]
    TELEMETRY_FIELD_NUMBER: _ClassVar[int]
    candidates: _containers.RepeatedCompositeFieldContainer[_common_pb2.Candidate]
    removed_duplicates: int
    telemetry: _containers.ScalarMap[str, float]
    def __init__(self, candidates: _Optional[_Iterable[_Union[_common_pb2.Candidate, _Mapping]]] = ..., removed_duplicates: _Optional[int] = ..., telemetry: _Optional[_Mapping[str, float]] = ...) -> None: ...
