"""Hand-built protobuf wire bytes, for payloads the Python message classes refuse to build
(invalid UTF-8 in string fields, out-of-range varints)."""

from __future__ import annotations

import re

import grpc

GATEWAY = "/chsr.v1.GatewayService/"
UNARY_METHODS = ("Search", "Delete", "IndexStats", "VerifyIndex", "ListPipelines")
STREAM_METHODS = ("Ingest",)
FORBIDDEN = {"INTERNAL", "UNKNOWN"}
# Every INVALID_ARGUMENT message starts with the field it is about (issue 7: "every error names the field").
FIELD_RE = re.compile(
    r"^(request|query|k|pipeline|hints(\.[a-z_]+)?|documents\[\d+\]|doc_ids|expected_ids)(?=[\s.:(]|$)")


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative numbers: 10-byte two's complement, as protobuf encodes int32/int64
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def field_bytes(number: int, data: bytes) -> bytes:
    return varint((number << 3) | 2) + varint(len(data)) + data


def call_raw(channel: grpc.Channel, method: str, payload: bytes, timeout_s: float = 20.0) -> tuple[str, str]:
    """Send raw request bytes; return (status code name, details). Responses are not decoded."""
    try:
        if method in STREAM_METHODS:
            channel.stream_unary(GATEWAY + method)(iter([payload]), timeout=timeout_s)
        else:
            channel.unary_unary(GATEWAY + method)(payload, timeout=timeout_s)
    except grpc.RpcError as exc:
        return exc.code().name, exc.details() or ""
    return "OK", ""


def check(code: str, details: str) -> None:
    assert code not in FORBIDDEN, f"{code}: {details}"
    if code == "INVALID_ARGUMENT":
        assert FIELD_RE.match(details), f"INVALID_ARGUMENT does not name a field: {details!r}"
