"""Every write RPC of every server needs the credential when one is configured.

With ``CHSR_INGEST_TOKEN`` set, the gateway's Ingest / IngestWithProgress / Delete and the
retrievers' own Upsert / DeleteDocuments answer UNAUTHENTICATED without
``authorization: Bearer <token>``, before anything is touched; with it they go through.
Reads need no token. Under mTLS with ``CHSR_WRITER_IDENTITIES`` a write also needs a client
certificate whose name is listed. The servers here are the services' own wiring behind the
shared server bootstrap (the interceptor under test), over TLS where it matters.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import grpc
import pytest

from chsr.config import Settings
from chsr.interceptors import WRITE_METHODS
from chsr.server import start_server
from chsr.tls import channel_credentials
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc, ingest_pb2, retriever_pb2, retriever_pb2_grpc
from tests.conftest import REPO_ROOT
from tests.security.pki import make_pki

pytestmark = pytest.mark.security

TOKEN = "s3cret-ingest-token"
NOWHERE = "127.0.0.1:9"  # discard port: nothing listens, connections are refused
AUTH = (("authorization", f"Bearer {TOKEN}"),)
BAD_AUTH = [None, (("authorization", "Bearer wrong"),), (("authorization", TOKEN),),
            (("authorization", f"bearer {TOKEN}"),), (("x-token", TOKEN),)]
DOC = common_pb2.Document(id="auth-doc", text="a document only an authorised writer may add")


def code_of(fn, *args, timeout: float = 30, **kwargs) -> grpc.StatusCode:  # type: ignore[no-untyped-def]
    try:
        result = fn(*args, timeout=timeout, **kwargs)
        if hasattr(result, "__next__"):
            list(result)
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


def test_every_write_rpc_in_the_protos_is_guarded() -> None:
    """A new write RPC cannot slip past the interceptor: any Upsert/Delete*/Ingest* RPC of any
    service in protos/ must be listed in WRITE_METHODS."""
    found = set()
    for proto in (REPO_ROOT / "protos" / "chsr" / "v1").glob("*.proto"):
        text = proto.read_text()
        for service, body in re.findall(r"service (\w+) \{(.*?)\n\}", text, re.S):
            for rpc in re.findall(r"rpc (\w+)\(", body):
                if re.match(r"(Upsert|Delete|Ingest)", rpc):
                    found.add(f"/chsr.v1.{service}/{rpc}")
    assert found and found <= WRITE_METHODS, found - WRITE_METHODS


# ---- the gateway ------------------------------------------------------------------
@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[gateway_pb2_grpc.GatewayServiceStub]:
    from gateway import server

    pki = make_pki(tmp_path_factory.mktemp("pki-token"))
    settings = Settings(ingest_token=TOKEN, tls_cert=str(pki.server.cert), tls_key=str(pki.server.key),
                        gate_addr=NOWHERE, sparse_addr=NOWHERE, dense_addr=NOWHERE, fusion_addr=NOWHERE,
                        rerank_addr=NOWHERE, ingest_addr=NOWHERE)
    register, _ = server.build(settings)
    running = start_server("gateway", register, settings, port=0, metrics_port=0)
    channel = grpc.secure_channel(f"127.0.0.1:{running.port}", channel_credentials(Settings(tls_ca=str(pki.ca))))
    yield gateway_pb2_grpc.GatewayServiceStub(channel)
    channel.close()
    running.stop(0)


@pytest.mark.parametrize("metadata", BAD_AUTH)
def test_gateway_writes_without_the_token_are_unauthenticated(gateway, metadata) -> None:  # type: ignore[no-untyped-def]
    assert code_of(gateway.Ingest, iter([gateway_pb2.IngestRequest(documents=[DOC])]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(gateway.IngestWithProgress, iter([gateway_pb2.IngestWithProgressRequest(documents=[DOC])]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(gateway.Delete, gateway_pb2.DeleteRequest(doc_ids=["x"]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(gateway.IngestFiles, iter([gateway_pb2.IngestFilesRequest(header=ingest_pb2.FileHeader(name="a.md")),
                                              gateway_pb2.IngestFilesRequest(data=b"# A"),
                                              gateway_pb2.IngestFilesRequest(end=ingest_pb2.FileEnd())]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(gateway.DeleteSource, gateway_pb2.DeleteSourceRequest(sources=["a.md"]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED


def test_the_token_lets_gateway_writes_through(gateway) -> None:  # type: ignore[no-untyped-def]
    assert code_of(gateway.Ingest, iter([]), metadata=AUTH) == grpc.StatusCode.OK
    # past the check, the write waits for the (unreachable) stages within its deadline, then answers
    # UNAVAILABLE (gateway/readiness.py); a short deadline keeps that wait short (30 s each used to be 59 s here)
    assert code_of(gateway.Delete, gateway_pb2.DeleteRequest(doc_ids=["x"]), timeout=5,
                   metadata=AUTH) == grpc.StatusCode.UNAVAILABLE
    assert code_of(gateway.DeleteSource, gateway_pb2.DeleteSourceRequest(sources=["a.md"]), timeout=5,
                   metadata=AUTH) == grpc.StatusCode.UNAVAILABLE


def test_gateway_reads_need_no_token(gateway) -> None:  # type: ignore[no-untyped-def]
    assert code_of(gateway.ListPipelines, gateway_pb2.ListPipelinesRequest()) == grpc.StatusCode.OK
    code = code_of(gateway.Search, gateway_pb2.SearchRequest(query="acceleration", k=3, pipeline="rrf"))
    assert code == grpc.StatusCode.UNAVAILABLE  # both legs unreachable, not UNAUTHENTICATED


# ---- the retrievers, called directly (the back door the gateway's check alone left open) -----
@pytest.fixture(scope="module", params=["sparse", "dense"])
def retriever(request, tmp_path_factory: pytest.TempPathFactory) -> Iterator[retriever_pb2_grpc.RetrieverServiceStub]:
    import importlib

    server = importlib.import_module(f"services.{request.param}.server")
    tmp = tmp_path_factory.mktemp(f"auth-{request.param}")
    settings = Settings(ingest_token=TOKEN, data_dir=tmp, cache_dir=tmp / "emb")
    register, on_stop = server.build(settings)
    running = start_server(request.param, register, settings, port=0, metrics_port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    yield retriever_pb2_grpc.RetrieverServiceStub(channel)
    channel.close()
    running.stop(0)
    if on_stop:
        on_stop()


def _count(stub: retriever_pb2_grpc.RetrieverServiceStub) -> int:
    return stub.Stats(retriever_pb2.StatsRequest(), timeout=10).documents


@pytest.mark.parametrize("metadata", BAD_AUTH)
def test_retriever_writes_without_the_token_are_unauthenticated(retriever, metadata) -> None:  # type: ignore[no-untyped-def]
    before = _count(retriever)
    assert code_of(retriever.Upsert, retriever_pb2.UpsertRequest(documents=[DOC]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert code_of(retriever.DeleteDocuments, retriever_pb2.DeleteDocumentsRequest(doc_ids=[DOC.id]),
                   metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED
    assert _count(retriever) == before


def test_the_token_lets_retriever_writes_through_and_reads_need_none(retriever) -> None:  # type: ignore[no-untyped-def]
    assert retriever.Upsert(retriever_pb2.UpsertRequest(documents=[DOC]), timeout=120, metadata=AUTH).indexed == 1
    hits = retriever.Retrieve(retriever_pb2.RetrieveRequest(query="authorised writer", k=3), timeout=30)
    assert [c.doc_id for c in hits.candidates] == [DOC.id]
    deleted = retriever.DeleteDocuments(retriever_pb2.DeleteDocumentsRequest(doc_ids=[DOC.id]), timeout=30, metadata=AUTH)
    assert deleted.deleted == 1 and _count(retriever) == 0


# ---- mTLS: the client certificate's identity -------------------------------------------
@pytest.fixture(scope="module")
def mtls_sparse(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from services.sparse import server

    tmp = tmp_path_factory.mktemp("auth-mtls")
    (tmp / "pki").mkdir()
    pki = make_pki(tmp / "pki")
    settings = Settings(data_dir=tmp, tls_cert=str(pki.server.cert), tls_key=str(pki.server.key), tls_ca=str(pki.ca),
                        writer_identities="gateway, client")
    register, on_stop = server.build(settings)
    running = start_server("sparse", register, settings, port=0, metrics_port=0)
    yield running.port, pki
    running.stop(0)
    on_stop()


def _mtls_stub(port: int, ca: Path, cert: Path, key: Path) -> retriever_pb2_grpc.RetrieverServiceStub:
    creds = channel_credentials(Settings(tls_ca=str(ca), tls_cert=str(cert), tls_key=str(key)))
    return retriever_pb2_grpc.RetrieverServiceStub(grpc.secure_channel(f"127.0.0.1:{port}", creds))


def test_mtls_writes_need_a_listed_identity(mtls_sparse, tmp_path) -> None:  # type: ignore[no-untyped-def]
    port, pki = mtls_sparse
    listed = _mtls_stub(port, pki.ca, pki.client.cert, pki.client.key)  # CN "client" is listed
    assert listed.Upsert(retriever_pb2.UpsertRequest(documents=[DOC]), timeout=60).indexed == 1
    from tests.security.pki import issue_client

    other = issue_client(pki, tmp_path, "intruder")
    unlisted = _mtls_stub(port, pki.ca, other.cert, other.key)
    assert code_of(unlisted.Upsert, retriever_pb2.UpsertRequest(documents=[DOC])) == grpc.StatusCode.PERMISSION_DENIED
    assert code_of(unlisted.Stats, retriever_pb2.StatsRequest()) == grpc.StatusCode.OK  # reads are not guarded
