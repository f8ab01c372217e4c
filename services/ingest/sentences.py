"""Sentence splitting for chunk windows, in the corpus's languages (en, fr, de, es, zh).

A rule-based splitter is enough here: chunks are cut *between* sentences so that no
window starts mid-sentence (seed 003: "sentence-aware chunking"). Latin scripts end a
sentence at ``. ! ?`` followed by a space and an upper-case letter, digit, quote or
bracket, except after common abbreviations; Chinese ends at ``。！？；`` (after NFKC the
full-width ``！？`` are ASCII, still followed by CJK text).
"""

from __future__ import annotations

import re

_ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "cf", "fig", "figs", "eq", "eqs", "no", "nos", "dr", "mr", "mrs", "ms", "prof",
    "st", "approx", "ca", "p", "pp", "vol", "ch", "sec", "z.b", "bzw", "usw", "d.h", "s", "m", "mme", "sr", "sra",
}
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[¿¡A-ZÀ-ÖØ-Þ0-9])|(?<=[。！？；!?])(?=[^\s。！？；!?\"'”’)）])")


def split_sentences(text: str) -> list[str]:
    text = text.strip()
    if not text:
        return []
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start:match.start()].rstrip()
        last_word = piece.rsplit(None, 1)[-1].rstrip(".").lower() if piece.split() else ""
        if piece.endswith(".") and (last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha())):
            continue
        if piece:
            out.append(piece)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out
