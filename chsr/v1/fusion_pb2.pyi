from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RankedList(_message.Message):
    __slots__ = ("name", "candidates", "weight")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    name: str
    candidates: _containers.RepeatedCompositeFieldContainer[_common_pb2.Candidate]
    weight: float
    def __init__(self, name: _Optional[str] = ..., candidates: _Optional[_Iterable[_Union[_common_pb2.Candidate, _Mapping]]] = ..., weight: _Optional[float] = ...) -> None: ...

class FuseRequest(_message.Message):
    __slots__ = ("lists", "mode", "k", "params", "query")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LISTS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    lists: _containers.RepeatedCompositeFieldContainer[RankedList]
    mode: str
    k: int
    params: _containers.ScalarMap[str, str]
    query: str
    def __init__(self, lists: _Optional[_Iterable[_Union[RankedList, _Mapping]]] = ..., mode: _Optional[str] = ..., k: _Optional[int] = ..., params: _Optional[_Mapping[str, str]] = ..., query: _Optional[str] = ...) -> None: ...

class FuseResponse(_message.Message):
    __slots__ = ("candidates", "telemetry", "normaliser")
    class TelemetryEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    TELEMETRY_FIELD_NUMBER: _ClassVar[int]
    NORMALISER_FIELD_NUMBER: _ClassVar[int]
    candidates: _containers.RepeatedCompositeFieldContainer[_common_pb2.Candidate]
    telemetry: _containers.ScalarMap[str, float]
    normaliser: str
    def __init__(self, candidates: _Optional[_Iterable[_Union[_common_pb2.Candidate, _Mapping]]] = ..., telemetry: _Optional[_Mapping[str, float]] = ..., normaliser: _Optional[str] = ...) -> None: ...
