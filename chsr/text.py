"""Tokeniser shared by the embedded BM25 index and the gateway's on-topic check; the sentence
splitter shared by ingest's chunk windows and the gateway's context builder.

Latin-script words: lower-cased, stop words removed, Snowball-English stemmed
(PyStemmer). CJK text has no spaces, so each CJK run becomes character unigrams
plus bigrams instead of one giant token or nothing ("a tokenizer
that does not drop CJK text").
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_CJK_RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(f"[{_CJK_RANGES}]+|[^\\W_{_CJK_RANGES}]+", re.UNICODE)
_CJK = re.compile(f"[{_CJK_RANGES}]")

# Short English list (bm25s' "en" list); other languages keep their words (they are rare in our corpora
# and stop words in one language are content words in another).
STOPWORDS = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then there these
they this to was will with what which who whom whose why how when where do does did can could should would
""".split())


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    stem = _stemmer().stemWord
    for match in _WORD.finditer(text.lower()):
        word = match.group(0)
        if _CJK.match(word):
            tokens.extend(word)
            tokens.extend(word[i:i + 2] for i in range(len(word) - 1))
        elif word not in STOPWORDS:
            tokens.append(stem(word))
    return tokens


# ---- sentences -------------------------------------------------------------------
# Rule-based, in the corpus's languages (en, fr, de, es, zh): chunks are cut *between* sentences
# so no window starts mid-sentence (seed 003: "sentence-aware chunking"). Latin scripts end a
# sentence at ``. ! ?`` followed by a space and an upper-case letter, digit, quote or bracket,
# except after common abbreviations; Chinese ends at ``。！？；`` (after NFKC the full-width
# ``！？`` are ASCII, still followed by CJK text).

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
