from chsr.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FileStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FILE_STAGE_UNSPECIFIED: _ClassVar[FileStage]
    FILE_STAGE_RECEIVING: _ClassVar[FileStage]
    FILE_STAGE_PARSED: _ClassVar[FileStage]
    FILE_STAGE_STORED: _ClassVar[FileStage]

class FileErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FILE_ERROR_REASON_UNSPECIFIED: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_EMPTY: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_TOO_LARGE: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_UNKNOWN_TYPE: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_ENCRYPTED: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_CORRUPT: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_NO_TEXT_LAYER: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_NO_TEXT: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_BAD_NAME: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_MANIFEST_MISSING_FILE: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_MANIFEST_UNKNOWN_FIELD: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_MANIFEST_INVALID: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_INTERNAL: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_WRITE_FAILED: _ClassVar[FileErrorReason]
    FILE_ERROR_REASON_DUPLICATE_NAME: _ClassVar[FileErrorReason]
FILE_STAGE_UNSPECIFIED: FileStage
FILE_STAGE_RECEIVING: FileStage
FILE_STAGE_PARSED: FileStage
FILE_STAGE_STORED: FileStage
FILE_ERROR_REASON_UNSPECIFIED: FileErrorReason
FILE_ERROR_REASON_EMPTY: FileErrorReason
FILE_ERROR_REASON_TOO_LARGE: FileErrorReason
FILE_ERROR_REASON_UNKNOWN_TYPE: FileErrorReason
FILE_ERROR_REASON_ENCRYPTED: FileErrorReason
FILE_ERROR_REASON_CORRUPT: FileErrorReason
FILE_ERROR_REASON_NO_TEXT_LAYER: FileErrorReason
FILE_ERROR_REASON_NO_TEXT: FileErrorReason
FILE_ERROR_REASON_BAD_NAME: FileErrorReason
FILE_ERROR_REASON_MANIFEST_MISSING_FILE: FileErrorReason
FILE_ERROR_REASON_MANIFEST_UNKNOWN_FIELD: FileErrorReason
FILE_ERROR_REASON_MANIFEST_INVALID: FileErrorReason
FILE_ERROR_REASON_INTERNAL: FileErrorReason
FILE_ERROR_REASON_WRITE_FAILED: FileErrorReason
FILE_ERROR_REASON_DUPLICATE_NAME: FileErrorReason

class IngestOptions(_message.Message):
    __slots__ = ("manifest", "manifest_format", "manifest_name")
    MANIFEST_FIELD_NUMBER: _ClassVar[int]
    MANIFEST_FORMAT_FIELD_NUMBER: _ClassVar[int]
    MANIFEST_NAME_FIELD_NUMBER: _ClassVar[int]
    manifest: str
    manifest_format: str
    manifest_name: str
    def __init__(self, manifest: _Optional[str] = ..., manifest_format: _Optional[str] = ..., manifest_name: _Optional[str] = ...) -> None: ...

class FileHeader(_message.Message):
    __slots__ = ("name", "media_type", "size", "fields")
    class FieldsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    media_type: str
    size: int
    fields: _containers.ScalarMap[str, str]
    def __init__(self, name: _Optional[str] = ..., media_type: _Optional[str] = ..., size: _Optional[int] = ..., fields: _Optional[_Mapping[str, str]] = ...) -> None: ...

class FileEnd(_message.Message):
    __slots__ = ("sha256",)
    SHA256_FIELD_NUMBER: _ClassVar[int]
    sha256: str
    def __init__(self, sha256: _Optional[str] = ...) -> None: ...

class ParseFilesRequest(_message.Message):
    __slots__ = ("options", "header", "data", "end")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    options: IngestOptions
    header: FileHeader
    data: bytes
    end: FileEnd
    def __init__(self, options: _Optional[_Union[IngestOptions, _Mapping]] = ..., header: _Optional[_Union[FileHeader, _Mapping]] = ..., data: _Optional[bytes] = ..., end: _Optional[_Union[FileEnd, _Mapping]] = ...) -> None: ...

class FileProgress(_message.Message):
    __slots__ = ("file", "stage", "bytes", "chunks")
    FILE_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    file: str
    stage: FileStage
    bytes: int
    chunks: int
    def __init__(self, file: _Optional[str] = ..., stage: _Optional[_Union[FileStage, str]] = ..., bytes: _Optional[int] = ..., chunks: _Optional[int] = ...) -> None: ...

class ChunkBatch(_message.Message):
    __slots__ = ("file", "documents")
    FILE_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    file: str
    documents: _containers.RepeatedCompositeFieldContainer[_common_pb2.Document]
    def __init__(self, file: _Optional[str] = ..., documents: _Optional[_Iterable[_Union[_common_pb2.Document, _Mapping]]] = ...) -> None: ...

class FileError(_message.Message):
    __slots__ = ("file", "reason", "detail")
    FILE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    file: str
    reason: FileErrorReason
    detail: str
    def __init__(self, file: _Optional[str] = ..., reason: _Optional[_Union[FileErrorReason, str]] = ..., detail: _Optional[str] = ...) -> None: ...

class FieldProvenance(_message.Message):
    __slots__ = ("field", "value", "source", "evidence")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    field: str
    value: str
    source: str
    evidence: str
    def __init__(self, field: _Optional[str] = ..., value: _Optional[str] = ..., source: _Optional[str] = ..., evidence: _Optional[str] = ...) -> None: ...

class ParsedFile(_message.Message):
    __slots__ = ("file", "error", "chunks", "fields", "unresolved", "warnings", "role", "pages", "title", "parse_ms", "chunk_ms")
    FILE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    UNRESOLVED_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    PAGES_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PARSE_MS_FIELD_NUMBER: _ClassVar[int]
    CHUNK_MS_FIELD_NUMBER: _ClassVar[int]
    file: str
    error: FileError
    chunks: int
    fields: _containers.RepeatedCompositeFieldContainer[FieldProvenance]
    unresolved: _containers.RepeatedScalarFieldContainer[str]
    warnings: _containers.RepeatedScalarFieldContainer[str]
    role: str
    pages: int
    title: str
    parse_ms: float
    chunk_ms: float
    def __init__(self, file: _Optional[str] = ..., error: _Optional[_Union[FileError, _Mapping]] = ..., chunks: _Optional[int] = ..., fields: _Optional[_Iterable[_Union[FieldProvenance, _Mapping]]] = ..., unresolved: _Optional[_Iterable[str]] = ..., warnings: _Optional[_Iterable[str]] = ..., role: _Optional[str] = ..., pages: _Optional[int] = ..., title: _Optional[str] = ..., parse_ms: _Optional[float] = ..., chunk_ms: _Optional[float] = ...) -> None: ...

class ParseFilesResponse(_message.Message):
    __slots__ = ("progress", "chunks", "file")
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    progress: FileProgress
    chunks: ChunkBatch
    file: ParsedFile
    def __init__(self, progress: _Optional[_Union[FileProgress, _Mapping]] = ..., chunks: _Optional[_Union[ChunkBatch, _Mapping]] = ..., file: _Optional[_Union[ParsedFile, _Mapping]] = ...) -> None: ...
