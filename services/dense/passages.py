"""Long-document dense encoding: split a document into passages that fit the model window.

Why: all-MiniLM-L6-v2 reads at most ``max_seq_length`` = 256 word-pieces (its
``sentence_bert_config.json``) and silently truncates the rest, and 71% of SciFact abstracts are
longer, so a whole-document vector never sees their tails. MaxP (Dai & Callan, "Deeper
Text Understanding for IR with Contextual Neural Language Modeling", SIGIR 2019) instead scores a
document by its best passage.

Splitting uses the model's own tokenizer: windows of at most ``WINDOW_TOKENS`` body word-pieces that
overlap by ``OVERLAP_TOKENS`` (the 200/50 of the brief), snapped to word boundaries so a passage
re-tokenizes to the same pieces, with the title prepended to every passage. A document that already
fits the window stays one passage whose text is exactly ``Doc.full_text``: its vector is the
whole-document vector, usually already in the embedding cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from chsr.config import PassageMode
from chsr.documents import Doc

WINDOW_TOKENS = 200     # body word-pieces per passage (brief)
OVERLAP_TOKENS = 50     # word-pieces shared by consecutive passages (brief)
MAX_TITLE_TOKENS = 48   # a longer title is cut so the body keeps >= 150 pieces of a 256 window
SPECIAL_TOKENS = 2      # [CLS] ... [SEP]


def storage_key(mode: PassageMode) -> str:
    """What the embedded backend stores with its vectors: the mode and the split parameters,
    so vectors from a different splitting are never mixed silently."""
    if mode is PassageMode.OFF:
        return "off"
    return f"maxp:window={WINDOW_TOKENS},overlap={OVERLAP_TOKENS}"


def parse_passage_mode(value: "str | PassageMode") -> PassageMode:
    """``"MaxP"`` -> PassageMode.MAXP; a ValueError lists the valid values."""
    try:
        return PassageMode(str(value.value if isinstance(value, PassageMode) else value).strip().lower())
    except ValueError:
        raise ValueError(f"dense_passages: unknown {value!r}; valid: {', '.join(m.value for m in PassageMode)}") from None


@dataclass(frozen=True)
class PassageSplitter:
    """Splits documents with a Hugging Face fast tokenizer (the sentence-transformers model's).

    The tokenizer is not safe to call concurrently with the model's own ``encode``; the
    :class:`~services.dense.encoder.Encoder` serialises both under one lock.
    """

    tokenizer: Any
    max_seq_length: int
    window: int = WINDOW_TOKENS
    overlap: int = OVERLAP_TOKENS

    def n_tokens(self, text: str) -> int:
        """Word-pieces the model would see, special tokens included (before its truncation)."""
        return len(self.tokenizer(text, add_special_tokens=True, verbose=False)["input_ids"])

    def split(self, doc: Doc) -> list[str]:
        full = doc.full_text
        if self.n_tokens(full) <= self.max_seq_length:
            return [full]
        title = self._cut(doc.title, MAX_TITLE_TOKENS) if doc.title else ""
        prefix = f"{title}\n" if title else ""
        budget = self.max_seq_length - SPECIAL_TOKENS - (self.n_tokens(title) - SPECIAL_TOKENS if title else 0)
        size = max(1, min(self.window, budget))
        enc = self.tokenizer(doc.text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offsets, words = enc["offset_mapping"], enc.word_ids()
        if not offsets:
            return [full]
        passages = [prefix + doc.text[offsets[s][0]:offsets[e - 1][1]]
                    for s, e in token_windows(words, size, min(self.overlap, size - 1))]
        return [self._fit(p) for p in passages]

    def _cut(self, text: str, max_pieces: int) -> str:
        """``text`` cut after ``max_pieces`` word-pieces, at a word boundary where possible."""
        enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offsets, words = enc["offset_mapping"], enc.word_ids()
        if len(offsets) <= max_pieces:
            return text
        end = _snap_back(words, max_pieces, 0)
        return text[:offsets[end - 1][1]]

    def _fit(self, passage: str) -> str:
        """Guard: a passage that re-tokenizes longer than the window (a word cut mid-way) is shortened."""
        pieces = self.max_seq_length - SPECIAL_TOKENS
        while self.n_tokens(passage) > self.max_seq_length and pieces > 8:
            pieces -= 8
            passage = self._cut(passage, pieces)
        return passage


def token_windows(word_ids: Sequence[int | None], size: int, overlap: int) -> list[tuple[int, int]]:
    """Half-open token spans of at most ``size`` pieces covering every token, consecutive spans sharing
    about ``overlap`` pieces; span ends and starts fall on word starts unless one word exceeds ``size``."""
    n = len(word_ids)
    spans: list[tuple[int, int]] = []
    start = 0
    while True:
        end = n if start + size >= n else _snap_back(word_ids, start + size, start)
        spans.append((start, end))
        if end >= n:
            return spans
        nxt = max(end - overlap, start + 1)
        while nxt < end and word_ids[nxt] is not None and word_ids[nxt] == word_ids[nxt - 1]:
            nxt += 1
        start = nxt


def _snap_back(word_ids: Sequence[int | None], end: int, floor: int) -> int:
    """Largest ``e <= end`` with ``e > floor`` that does not split a word; ``end`` if none exists."""
    e = end
    while e > floor + 1 and word_ids[e] is not None and word_ids[e] == word_ids[e - 1]:
        e -= 1
    return e if e > floor + 1 or word_ids[e] != word_ids[e - 1] else end
