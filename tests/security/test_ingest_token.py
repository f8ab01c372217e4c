"""Ingest and Delete need the bearer token when CHSR_INGEST_TOKEN is set (issue 7, security).

The real gateway handlers (raw-bytes parsing included) run behind the shared
bootstrap, over TLS, with stage addresses that refuse connections: an
unauthorised call must stop at UNAUTHENTICATED before any stage is touched,
an authorised one gets past the check (OK for an empty stream, UNAVAILABLE
for a Delete whose backends are down).
"""

from __future__ import annotations

from typing import Iterator

import grpc
import pytest

from chsr.config import Settings
from chsr.server_bootstrap import start_server
from chsr.tls import channel_credentials
from chsr.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc
from gateway.cache.memory import MemoryCache
from gateway.server import SERVICE_NAME, generic_handler
from gateway.servicer import GatewayServicer
from gateway.stages import StageStubs
from tests.security.pki import make_pki

TOKEN = "s3cret-ingest-token"
NOWHERE = "127.0.0.1:9"  # discard port: nothing listens, connections are refused


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[gateway_pb2_grpc.GatewayServiceStub]:
    pki = make_pki(tmp_path_factory.mktemp("pki-token"))
    settings = Settings(ingest_token=TOKEN, tls_cert=str(pki.server.cert), tls_key=str(pki.server.key),
                        gate_addr=NOWHERE, sparse_addr=NOWHERE, dense_addr=NOWHERE, fusion_addr=NOWHERE,
                        rerank_addr=NOWHERE)
    servicer = GatewayServicer(StageStubs.grpc(settings), MemoryCache(100), settings)

    def register(server: grpc.Server) -> list[str]:
        server.add_generic_rpc_handlers((generic_handler(servicer),))
        return [SERVICE_NAME]

    running = start_server("gateway", register, settings, port=0, metrics_port=0)
    channel = grpc.secure_channel(f"127.0.0.1:{running.port}", channel_credentials(Settings(tls_ca=str(pki.ca))))
    yield gateway_pb2_grpc.GatewayServiceStub(channel)
    channel.close()
    running.stop(0)


def code_of(fn, *args, **kwargs) -> grpc.StatusCode:  # type: ignore[no-untyped-def]
    try:
        fn(*args, timeout=10, **kwargs)
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


BAD_AUTH = [None, (("authorization", "Bearer wrong"),), (("authorization", TOKEN),),
            (("authorization", f"bearer {TOKEN}"),), (("x-token", TOKEN),)]


@pytest.mark.parametrize("metadata", BAD_AUTH)
def test_ingest_without_the_token_is_unauthenticated(stub, metadata) -> None:  # type: ignore[no-untyped-def]
    batch = gateway_pb2.IngestBatch(documents=[common_pb2.Document(id="x", text="y")])
    assert code_of(stub.Ingest, iter([batch]), metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.parametrize("metadata", BAD_AUTH)
def test_delete_without_the_token_is_unauthenticated(stub, metadata) -> None:  # type: ignore[no-untyped-def]
    req = common_pb2.DeleteRequest(doc_ids=["x"])
    assert code_of(stub.Delete, req, metadata=metadata) == grpc.StatusCode.UNAUTHENTICATED


def test_token_lets_ingest_and_delete_through(stub) -> None:  # type: ignore[no-untyped-def]
    auth = (("authorization", f"Bearer {TOKEN}"),)
    assert code_of(stub.Ingest, iter([]), metadata=auth) == grpc.StatusCode.OK
    # past the check, the (unreachable) backends answer
    assert code_of(stub.Delete, common_pb2.DeleteRequest(doc_ids=["x"]), metadata=auth) == grpc.StatusCode.UNAVAILABLE


def test_reads_need_no_token(stub) -> None:  # type: ignore[no-untyped-def]
    assert code_of(stub.ListPipelines, gateway_pb2.ListPipelinesRequest()) == grpc.StatusCode.OK
    code = code_of(stub.Search, gateway_pb2.SearchRequest(query="acceleration", k=3, pipeline="rrf"))
    assert code == grpc.StatusCode.UNAVAILABLE  # both legs unreachable, not UNAUTHENTICATED
