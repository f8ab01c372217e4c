"""TLS / mTLS credentials for servers and clients from settings."""

from __future__ import annotations

from pathlib import Path

import grpc

from chsr.config import Settings


def _read(path: str) -> bytes:
    return Path(path).read_bytes()


def server_credentials(settings: Settings) -> grpc.ServerCredentials | None:
    """TLS when cert+key are set; mTLS (client certs required) when a CA is set too."""
    if not settings.tls_cert:
        return None
    pair = [(_read(settings.tls_key), _read(settings.tls_cert))]
    if settings.tls_ca:
        return grpc.ssl_server_credentials(pair, root_certificates=_read(settings.tls_ca), require_client_auth=True)
    return grpc.ssl_server_credentials(pair)


def channel_credentials(settings: Settings) -> grpc.ChannelCredentials | None:
    """Client side: trust ``tls_ca``; present ``tls_cert``/``tls_key`` for mTLS."""
    if not settings.tls_ca:
        return None
    if settings.tls_cert and settings.tls_key:
        return grpc.ssl_channel_credentials(
            root_certificates=_read(settings.tls_ca),
            private_key=_read(settings.tls_key), certificate_chain=_read(settings.tls_cert),
        )
    return grpc.ssl_channel_credentials(root_certificates=_read(settings.tls_ca))
