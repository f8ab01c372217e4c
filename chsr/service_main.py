"""Shared ``main`` for service processes: settings, logging, serve, drain."""

from __future__ import annotations

import logging
from typing import Callable

import grpc

from chsr.config import Settings, get_settings
from chsr.logging_setup import configure_logging
from chsr.server_bootstrap import RunningServer, serve_forever, start_server

Registrar = Callable[[grpc.Server], list[str]]


def run_service(name: str, build: Callable[[Settings], tuple[Registrar, Callable[[], None] | None]]) -> None:
    """``build`` returns (register servicers on a server -> full service names, on_stop)."""
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format, service=name)
    register, on_stop = build(settings)
    running: RunningServer = start_server(name, register, settings)
    logging.getLogger(name).info("serving", extra={"port": running.port, "backend": settings.backend})
    serve_forever(running, on_stop)
