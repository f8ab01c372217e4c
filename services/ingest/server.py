"""gRPC wiring for the ingest server: files -> curriculum-labelled, cited chunks (stores nothing).

The gate is reached over gRPC (``CHSR_GATE_ADDR``) to read cover pages; the tokenizer is the
dense encoder's own (``CHSR_MODEL_PATH`` or the bundled MiniLM), read without torch.
"""

from __future__ import annotations

from chsr.channels import get_channel
from chsr.config import Settings
from chsr.server import run_service
from chsr.v1 import gate_pb2_grpc
from services.ingest.chunking import ChunkingParams
from services.ingest.gate_reader import GateScopeReader
from services.ingest.servicer import IngestServicer, register_ingest
from services.ingest.tokens import ModelTokenCounter


def build_servicer(settings: Settings) -> IngestServicer:
    counter = ModelTokenCounter.from_model_dir(settings.model_path or None)
    params = ChunkingParams(max_tokens=counter.max_tokens, tokenizer=counter.name)
    gate = gate_pb2_grpc.GateServiceStub(get_channel(settings.gate_addr, settings))
    return IngestServicer(counter, params, GateScopeReader(gate, settings.max_query_chars),
                          max_file_bytes=settings.ingest_max_bytes, max_message_bytes=settings.max_message_bytes)


def build(settings: Settings):  # type: ignore[no-untyped-def]
    servicer = build_servicer(settings)

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_ingest(server, servicer)]

    return register, None


def main() -> None:
    run_service("ingest", build)


if __name__ == "__main__":
    main()
