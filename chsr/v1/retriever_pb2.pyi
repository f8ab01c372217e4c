from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RetrieveRequest(_message.Message):
    __slots__ = ("query", "filter", "k", "include_documents", "post_filter", "exact", "model", "include_metadata", "query_vector", "return_query_vector")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    POST_FILTER_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_METADATA_FIELD_NUMBER: _ClassVar[int]
    QUERY_VECTOR_FIELD_NUMBER: _ClassVar[int]
    RETURN_QUERY_VECTOR_FIELD_NUMBER: _ClassVar[int]
    query: str
    filter: _common_pb2.Scope
    k: int
    include_documents: bool
    post_filter: bool
    exact: bool
    model: str
    include_metadata: bool
    query_vector: _containers.RepeatedScalarFieldContainer[float]
    return_query_vector: bool
    def __init__(self, query: _Optional[str] = ..., filter: _Optional[_Union[_common_pb2.Scope, _Mapping]] = ..., k: _Optional[int] = ..., include_documents: _Optional[bool] = ..., post_filter: _Optional[bool] = ..., exact: _Optional[bool] = ..., model: _Optional[str] = ..., include_metadata: _Optional[bool] = ..., query_vector: _Optional[_Iterable[float]] = ..., return_query_vector: _Optional[bool] = ...) -> None: ...

class RetrieveResponse(_message.Message):
    __slots__ = ("candidates", "backend", "generation", "took_ms", "query_vector")
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    TOOK_MS_FIELD_NUMBER: _ClassVar[int]
    QUERY_VECTOR_FIELD_NUMBER: _ClassVar[int]
    candidates: _containers.RepeatedCompositeFieldContainer[_common_pb2.Candidate]
    backend: str
    generation: int
    took_ms: float
    query_vector: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, candidates: _Optional[_Iterable[_Union[_common_pb2.Candidate, _Mapping]]] = ..., backend: _Optional[str] = ..., generation: _Optional[int] = ..., took_ms: _Optional[float] = ..., query_vector: _Optional[_Iterable[float]] = ...) -> None: ...

class UpsertRequest(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[_common_pb2.Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[_common_pb2.Document, _Mapping]]] = ...) -> None: ...

class UpsertResponse(_message.Message):
    __slots__ = ("indexed", "unchanged", "errors", "generation")
    INDEXED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    indexed: int
    unchanged: int
    errors: _containers.RepeatedCompositeFieldContainer[_common_pb2.ItemError]
    generation: int
    def __init__(self, indexed: _Optional[int] = ..., unchanged: _Optional[int] = ..., errors: _Optional[_Iterable[_Union[_common_pb2.ItemError, _Mapping]]] = ..., generation: _Optional[int] = ...) -> None: ...

class DeleteDocumentsRequest(_message.Message):
    __slots__ = ("doc_ids",)
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteDocumentsResponse(_message.Message):
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
    __slots__ = ("page_size", "source", "include_details")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_DETAILS_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    source: str
    include_details: bool
    def __init__(self, page_size: _Optional[int] = ..., source: _Optional[str] = ..., include_details: _Optional[bool] = ...) -> None: ...

class ListIdsResponse(_message.Message):
    __slots__ = ("doc_ids", "content_hashes", "sources")
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASHES_FIELD_NUMBER: _ClassVar[int]
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    content_hashes: _containers.RepeatedScalarFieldContainer[str]
    sources: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ..., content_hashes: _Optional[_Iterable[str]] = ..., sources: _Optional[_Iterable[str]] = ...) -> None: ...

class GetDocumentsRequest(_message.Message):
    __slots__ = ("doc_ids",)
    DOC_IDS_FIELD_NUMBER: _ClassVar[int]
    doc_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, doc_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class GetDocumentsResponse(_message.Message):
    __slots__ = ("documents",)
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[_common_pb2.Document]
    def __init__(self, documents: _Optional[_Iterable[_Union[_common_pb2.Document, _Mapping]]] = ...) -> None: ...
