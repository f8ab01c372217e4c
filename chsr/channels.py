"""Client channels: reused, keepalive on, retries declared in the service config.

Retries apply only to idempotent reads (searches, stats, look-ups; never a write) with
exponential backoff and jitter, the gRPC way (grpc/grpc examples/python).
"""

from __future__ import annotations

import json
import threading

import grpc

from chsr.config import Settings
from chsr.tls import channel_credentials

_READ_METHODS = [
    {"service": "chsr.v1.GateService"},
    {"service": "chsr.v1.FusionService"},
    {"service": "chsr.v1.RerankService"},
    {"service": "chsr.v1.RetrieverService", "method": "Retrieve"},
    {"service": "chsr.v1.RetrieverService", "method": "Stats"},
    {"service": "chsr.v1.RetrieverService", "method": "GetDocuments"},
    {"service": "chsr.v1.EncoderService"},
    {"service": "chsr.v1.GatewayService", "method": "Search"},
    {"service": "chsr.v1.GatewayService", "method": "IndexStats"},
    {"service": "chsr.v1.GatewayService", "method": "VerifyIndex"},
    {"service": "chsr.v1.GatewayService", "method": "ListPipelines"},
    {"service": "chsr.v1.GatewayService", "method": "GetContext"},
]

SERVICE_CONFIG = json.dumps({
    # Spread calls over every address a name resolves to (headless Services in Kubernetes).
    "loadBalancingConfig": [{"round_robin": {}}],
    "methodConfig": [{
        "name": _READ_METHODS,
        "retryPolicy": {
            "maxAttempts": 3,
            "initialBackoff": "0.02s",
            "maxBackoff": "0.2s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }],
})

_lock = threading.Lock()
_channels: dict[tuple[str, bool], grpc.Channel] = {}


def channel_options(settings: Settings) -> list[tuple[str, object]]:
    return [
        ("grpc.service_config", SERVICE_CONFIG),
        ("grpc.enable_retries", 1),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_timeout_ms", 5_000),
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", settings.max_message_bytes),
        # Reconnect quickly after a peer restart (normal within 5 s).
        ("grpc.initial_reconnect_backoff_ms", 100),
        ("grpc.max_reconnect_backoff_ms", 1000),
    ]


def get_channel(address: str, settings: Settings) -> grpc.Channel:
    """One shared channel per address for the life of the process."""
    creds = channel_credentials(settings)
    key = (address, creds is not None)
    with _lock:
        chan = _channels.get(key)
        if chan is None:
            opts = channel_options(settings)
            chan = grpc.secure_channel(address, creds, opts) if creds else grpc.insecure_channel(address, opts)
            _channels[key] = chan
        return chan


def close_channels() -> None:
    with _lock:
        for chan in _channels.values():
            chan.close()
        _channels.clear()
