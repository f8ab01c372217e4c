"""gRPC wiring for the gate server (scope inference + admissibility filter + ladder)."""

from __future__ import annotations

from chsr import dictionary, glossary
from chsr.config import Settings
from chsr.server import run_service
from services.gate.servicer import GateServicer, register_gate
from services.gate.vocabulary import Vocabulary


def build(settings: Settings):  # type: ignore[no-untyped-def]
    # CHSR_VOCABULARY_PATH: a corpus-derived vocabulary (.json) or a corpus (.jsonl) indexed at
    # start-up; empty: the bundled vocabulary only.
    servicer = GateServicer(Vocabulary.load(settings.vocabulary_path or None), max_query_chars=settings.max_query_chars)
    glossary.load()  # query expansion's Chinese words for English descriptions of Chinese items
    # English words for a query whose scope holds nothing in the language it is written in (services.gate.translation)
    dictionary.configure(settings.dictionary_dir, settings.cache_dir)
    dictionary.load_in_background()

    def register(server) -> list[str]:  # type: ignore[no-untyped-def]
        return [register_gate(server, servicer)]

    return register, None


def main() -> None:
    run_service("gate", build)


if __name__ == "__main__":
    main()
