"""Bad input against the running mesh (issue 7, "Bad input"): property-based with hypothesis.

Random unicode and random bytes in query / pipeline / hint strings, invalid
UTF-8 in hand-built protobuf payloads, huge and negative k, unknown pipelines
and scope values, oversized messages, random documents and empty Ingest
streams. Asserted for every case: no INTERNAL or UNKNOWN, and every
INVALID_ARGUMENT message starts with the name of the field it is about.
Oversized messages may be RESOURCE_EXHAUSTED (gRPC's own size limit).
The number of cases and their status codes are in the terminal summary and
``<basetemp>/fuzz-summary.json``.
"""

from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.bench.queries import demo_queries
from chsr.client import GatewayClient
from tools.corpus import read_corpus
from chsr.config import Settings
from chsr.scope import INT_FIELDS, STR_FIELDS
from chsr.v1 import common_pb2, gateway_pb2
from tests.conftest import DEMO_CORPUS
from tests.fuzz.wire import STREAM_METHODS, UNARY_METHODS, call_raw, check, field_bytes, field_varint

pytestmark = [pytest.mark.fuzz, pytest.mark.slow]

FUZZ = settings(max_examples=150, deadline=None, database=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SMALL = settings(FUZZ, max_examples=60)
CHEAP_PIPELINES = ["", "sparse", "dense", "rrf", "B", "C", "D", "E"]  # no cross-encoder: keep cases fast
SCOPE_NUMBERS = {name: number for number, name in enumerate(
    ("subject", "level", "year", "session", "paper", "content_type", "question_number", "exam_board", "language"),
    start=1)}

int32s = st.one_of(st.integers(-5, 120), st.integers(-2**31, 2**31 - 1), st.sampled_from([-2**31, 2**31 - 1]))
strings = st.one_of(st.text(max_size=60), st.text(st.characters(codec="utf-8"), max_size=300),
                    st.sampled_from(["", " ", "\x00", "physics", "grade_10", "\u202e", "🦄" * 40]))
pipelines = st.one_of(st.sampled_from(CHEAP_PIPELINES), st.text(max_size=40))
scopes = st.fixed_dictionaries({}, optional={
    **{name: st.lists(strings, max_size=3) for name in STR_FIELDS},
    **{name: st.lists(int32s, max_size=3) for name in INT_FIELDS},
})
# Plausible-looking but unknown scope values: they pass validation and reach the gate and the engines.
unknown_scopes = st.fixed_dictionaries({}, optional={
    **{name: st.lists(st.text(min_size=1, max_size=40).filter(str.strip), max_size=3) for name in STR_FIELDS},
    "year": st.lists(st.integers(1900, 2100), max_size=3),
    "question_number": st.lists(st.integers(1, 9999), max_size=3),
})
ks = st.one_of(st.integers(1, 20), int32s)  # about half the cases pass validation and run the pipeline
invalid_utf8 = st.binary(min_size=1, max_size=64).filter(lambda b: not _is_utf8(b))


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.fixture(scope="module")
def channel(mesh):  # type: ignore[no-untyped-def]
    chan = grpc.insecure_channel(mesh.gateway)
    yield chan
    chan.close()


def search(channel: grpc.Channel, req: gateway_pb2.SearchRequest) -> tuple[str, str]:
    return call_raw(channel, "Search", req.SerializeToString())


@FUZZ
@given(query=st.one_of(strings, st.sampled_from(demo_queries())), k=ks, pipeline=pipelines,
       hints=st.one_of(st.just({}), scopes), strict=st.booleans(), no_cache=st.booleans())
def test_search_with_random_fields(channel, fuzz_log, query, k, pipeline, hints,  # type: ignore[no-untyped-def]
                                   strict, no_cache):
    req = gateway_pb2.SearchRequest(query=query, k=k, pipeline=pipeline, hints=common_pb2.Scope(**hints),
                                    strict_scope=strict, no_cache=no_cache)
    code, details = search(channel, req)
    fuzz_log("search_random_fields", code)
    check(code, details)


@SMALL
@given(query=st.text(min_size=1, max_size=80).filter(str.strip), hints=unknown_scopes)
def test_unknown_scope_values_are_answered_or_named(channel, fuzz_log, query, hints):  # type: ignore[no-untyped-def]
    req = gateway_pb2.SearchRequest(query=query, k=5, pipeline="C", hints=common_pb2.Scope(**hints), no_cache=True)
    code, details = search(channel, req)
    fuzz_log("unknown_scope_values", code)
    check(code, details)
    assert code in {"OK", "INVALID_ARGUMENT"}, f"{code}: {details}"


@FUZZ
@given(bad=invalid_utf8, where=st.sampled_from(["query", "pipeline", "hints"]),
       hint_field=st.sampled_from(STR_FIELDS))
def test_invalid_utf8_in_any_string_is_invalid_argument(channel, fuzz_log, bad, where,  # type: ignore[no-untyped-def]
                                                        hint_field):
    payload = field_varint(2, 5)
    if where == "query":
        payload += field_bytes(1, bad)
    else:
        payload += field_bytes(1, b"acceleration")
        payload += field_bytes(4, bad) if where == "pipeline" else \
            field_bytes(3, field_bytes(SCOPE_NUMBERS[hint_field], bad))
    code, details = call_raw(channel, "Search", payload)
    fuzz_log("invalid_utf8", code)
    check(code, details)
    assert code == "INVALID_ARGUMENT" and details.startswith("request"), f"{code}: {details}"


@FUZZ
@given(method=st.sampled_from(UNARY_METHODS + STREAM_METHODS), payload=st.binary(max_size=512))
def test_random_bytes_to_every_method(channel, fuzz_log, method, payload):  # type: ignore[no-untyped-def]
    code, details = call_raw(channel, method, payload)
    fuzz_log(f"random_bytes_{method}", code)
    check(code, details)


@pytest.mark.parametrize("k", [0, -1, -2**31, 2**31, 2**32 - 1, 2**63 - 1, 2**64 - 1, 101, 10**9])
def test_huge_and_negative_k_name_k(channel, fuzz_log, k):  # type: ignore[no-untyped-def]
    """Varints beyond int32 are truncated by protobuf; whatever k they become, out of 1..max_k is named."""
    code, details = call_raw(channel, "Search", field_bytes(1, b"speed of light") + field_varint(2, k))
    fuzz_log("extreme_k", code)
    check(code, details)
    truncated = k & 0xFFFFFFFF
    as_int32 = truncated - 2**32 if truncated >= 2**31 else truncated
    if not 1 <= as_int32 <= Settings().max_k:
        assert code == "INVALID_ARGUMENT" and details.startswith("k"), f"k={k}: {code} {details}"


@pytest.mark.parametrize("method", ["Search", "Ingest", "Delete", "VerifyIndex"])
def test_oversized_message_is_resource_exhausted(channel, fuzz_log, method):  # type: ignore[no-untyped-def]
    big = field_bytes(1, b"a" * (Settings().max_message_bytes + 1024))
    code, details = call_raw(channel, method, big, timeout_s=60)
    fuzz_log("oversized", code)
    check(code, details)
    assert code == "RESOURCE_EXHAUSTED", f"{code}: {details}"


def test_long_query_within_size_limit_names_query(channel, fuzz_log):  # type: ignore[no-untyped-def]
    code, details = search(channel, gateway_pb2.SearchRequest(query="energy " * 200_000, k=5))
    fuzz_log("long_query", code)
    assert code == "INVALID_ARGUMENT" and details.startswith("query"), f"{code}: {details}"


@pytest.mark.parametrize("batches", [[], [gateway_pb2.IngestRequest()], [gateway_pb2.IngestRequest()] * 3])
def test_empty_ingest_streams(channel, fuzz_log, batches):  # type: ignore[no-untyped-def]
    try:
        summary = channel.stream_unary("/chsr.v1.GatewayService/Ingest",
                                       request_serializer=gateway_pb2.IngestRequest.SerializeToString,
                                       response_deserializer=gateway_pb2.IngestSummary.FromString)(
            iter(batches), timeout=30)
    except grpc.RpcError as exc:
        fuzz_log("empty_ingest", exc.code().name)
        check(exc.code().name, exc.details() or "")
        assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT
        return
    fuzz_log("empty_ingest", "OK")
    assert summary.received == 0 and summary.indexed == 0


documents = st.builds(
    common_pb2.Document,
    id=st.one_of(st.just(""), st.just("   "), st.text(max_size=20).map(lambda s: "fuzz-" + s), st.text(max_size=600)),
    title=st.text(max_size=40),
    text=st.one_of(st.just(""), st.just(" \t"), st.text(max_size=200)),
    metadata=st.builds(common_pb2.Metadata, subject=st.text(max_size=12), year=int32s, question_number=int32s),
)


@SMALL
@given(docs=st.lists(documents, max_size=4))
def test_random_documents_are_indexed_or_named(channel, mesh, fuzz_log, docs):  # type: ignore[no-untyped-def]
    """Valid random documents are ingested and then deleted again so the shared mesh keeps its corpus."""
    docs = [d for d in docs if not d.id.startswith("demo:")]
    code, details = call_raw(channel, "Ingest", gateway_pb2.IngestRequest(documents=docs).SerializeToString(), 60)
    fuzz_log("random_documents", code)
    check(code, details)
    assert code in {"OK", "INVALID_ARGUMENT"}, f"{code}: {details}"
    if code == "OK" and docs:
        code, details = call_raw(channel, "Delete", gateway_pb2.DeleteRequest(doc_ids=[d.id for d in docs])
                                 .SerializeToString())
        assert code == "OK", f"{code}: {details}"


@SMALL
@given(ids=st.lists(st.text(max_size=30).filter(lambda s: not s.startswith("demo:")), max_size=5))
def test_random_delete_and_verify_ids(channel, fuzz_log, ids):  # type: ignore[no-untyped-def]
    for method, msg in (("Delete", gateway_pb2.DeleteRequest(doc_ids=ids)),
                        ("VerifyIndex", gateway_pb2.VerifyIndexRequest(expected_ids=ids))):
        code, details = call_raw(channel, method, msg.SerializeToString(), 60)
        fuzz_log(f"random_ids_{method}", code)
        check(code, details)
        if method == "Delete" and not ids:
            assert code == "INVALID_ARGUMENT" and details.startswith("doc_ids")


def test_mesh_still_holds_the_demo_corpus_after_fuzzing(mesh):  # type: ignore[no-untyped-def]
    client = GatewayClient(mesh.gateway)
    assert client.verify().consistent, "backends disagree after fuzzing"
    report = client.verify([d.id for d in read_corpus(DEMO_CORPUS)])
    assert all(b.missing_count == 0 for b in report.backends), report
