"""TLS and mTLS on a real server started through ``chsr.server.start_server``.

The fusion servicer (no data needed) runs behind the shared bootstrap with
``tls_cert``/``tls_key`` (TLS) or also ``tls_ca`` (mTLS, client certs required);
clients are built with ``chsr.tls.channel_credentials`` / ``chsr.channels``
from a Settings, as the services do.
"""

from __future__ import annotations

from typing import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from chsr.channels import channel_options, get_channel
from chsr.config import Settings
from chsr.server import RunningServer, start_server
from chsr.tls import channel_credentials
from chsr.v1 import fusion_pb2, fusion_pb2_grpc
from services.fusion.servicer import FusionServicer
from tests.security.pki import Pki, make_pki

pytestmark = pytest.mark.security

FUSION = fusion_pb2.DESCRIPTOR.services_by_name["FusionService"].full_name


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(tmp_path_factory.mktemp("pki"))


def serve(settings: Settings) -> RunningServer:
    servicer = FusionServicer()

    def register(server: grpc.Server) -> list[str]:
        fusion_pb2_grpc.add_FusionServiceServicer_to_server(servicer, server)
        return [FUSION]

    return start_server("fusion", register, settings, port=0, metrics_port=0)


@pytest.fixture(scope="module")
def tls_server(pki: Pki) -> Iterator[str]:
    running = serve(Settings(tls_cert=str(pki.server.cert), tls_key=str(pki.server.key)))
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


@pytest.fixture(scope="module")
def mtls_server(pki: Pki) -> Iterator[str]:
    running = serve(Settings(tls_cert=str(pki.server.cert), tls_key=str(pki.server.key), tls_ca=str(pki.ca)))
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


def client_channel(addr: str, settings: Settings | None) -> grpc.Channel:
    creds = channel_credentials(settings) if settings else None
    opts = channel_options(settings or Settings())
    return grpc.secure_channel(addr, creds, opts) if creds else grpc.insecure_channel(addr, opts)


def call(addr: str, settings: Settings | None) -> grpc.StatusCode:
    """Health check plus one real RPC; the status code of the first failure, or OK."""
    with client_channel(addr, settings) as chan:
        try:
            status = health_pb2_grpc.HealthStub(chan).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            assert status == health_pb2.HealthCheckResponse.SERVING
            req = fusion_pb2.FuseRequest(mode="rrf", k=2)
            req.lists.add(name="sparse").candidates.add(doc_id="a", score=1.0, rank=1)
            req.lists.add(name="dense").candidates.add(doc_id="a", score=0.5, rank=1)
            resp = fusion_pb2_grpc.FusionServiceStub(chan).Fuse(req, timeout=5)
            assert [c.doc_id for c in resp.candidates] == ["a"]
        except grpc.RpcError as exc:
            return exc.code()
    return grpc.StatusCode.OK


def test_tls_client_trusting_the_ca_is_served(tls_server: str, pki: Pki) -> None:
    assert call(tls_server, Settings(tls_ca=str(pki.ca))) == grpc.StatusCode.OK


def test_plaintext_client_is_refused_by_tls_server(tls_server: str) -> None:
    assert call(tls_server, None) == grpc.StatusCode.UNAVAILABLE


def test_client_trusting_another_ca_is_refused(tls_server: str, pki: Pki) -> None:
    assert call(tls_server, Settings(tls_ca=str(pki.rogue_ca))) == grpc.StatusCode.UNAVAILABLE


def test_mtls_client_with_cert_is_served(mtls_server: str, pki: Pki) -> None:
    settings = Settings(tls_ca=str(pki.ca), tls_cert=str(pki.client.cert), tls_key=str(pki.client.key))
    assert call(mtls_server, settings) == grpc.StatusCode.OK


def test_mtls_client_without_cert_is_refused(mtls_server: str, pki: Pki) -> None:
    assert call(mtls_server, Settings(tls_ca=str(pki.ca))) == grpc.StatusCode.UNAVAILABLE


def test_mtls_client_with_cert_from_another_ca_is_refused(mtls_server: str, pki: Pki) -> None:
    settings = Settings(tls_ca=str(pki.ca), tls_cert=str(pki.rogue_client.cert), tls_key=str(pki.rogue_client.key))
    assert call(mtls_server, settings) == grpc.StatusCode.UNAVAILABLE


def test_mtls_plaintext_client_is_refused(mtls_server: str) -> None:
    assert call(mtls_server, None) == grpc.StatusCode.UNAVAILABLE


def test_shared_channel_factory_speaks_mtls(mtls_server: str, pki: Pki) -> None:
    """The channels every service uses (chsr.channels.get_channel) pick TLS up from settings."""
    settings = Settings(tls_ca=str(pki.ca), tls_cert=str(pki.client.cert), tls_key=str(pki.client.key))
    chan = get_channel(mtls_server, settings)
    resp = health_pb2_grpc.HealthStub(chan).Check(health_pb2.HealthCheckRequest(service=FUSION), timeout=5)
    assert resp.status == health_pb2.HealthCheckResponse.SERVING
