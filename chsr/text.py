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
_LATIN_WORD = re.compile(f"[^\\W_{_CJK_RANGES}]+", re.UNICODE)
_CJK_RUN = re.compile(f"[{_CJK_RANGES}]+")
_ASCII_WORD = re.compile("[a-z0-9]+")  # _LATIN_WORD on lower-cased ASCII text

# Short English list (bm25s' "en" list); other languages keep their words (they are rare in our corpora
# and stop words in one language are content words in another).
STOPWORDS = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then there these
they this to was will with what which who whom whose why how when where do does did can could should would
""".split())


#: The name of :func:`tokenize`'s output, stored beside indexed terms (the embedded BM25 reports it, and
#: Elasticsearch keeps it on every document next to its ``terms``). Change it whenever ``tokenize`` changes:
#: a document indexed under another name has its terms rewritten on its next upsert.
TOKENIZER = "snowball-en+cjk-bigrams"


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


#: word -> its stem (or "" for a stop word), shared by every caller; emptied when it outgrows this
#: bound. A word's stem never changes, so the memo only saves the stemmer call (the gateway's on-topic
#: check stems every word of every answer).
_STEM_MEMO: dict[str, str] = {}
STEM_MEMO_MAX = 200_000


def _stem(word: str) -> str:
    """``word`` (lower-case, Latin script) stemmed; "" for a stop word."""
    stemmed = _STEM_MEMO.get(word)
    if stemmed is None:
        if len(_STEM_MEMO) >= STEM_MEMO_MAX:
            _STEM_MEMO.clear()
        stemmed = _STEM_MEMO[word] = "" if word in STOPWORDS else _stemmer().stemWord(word)
    return stemmed


def _cjk_tokens(run: str) -> list[str]:
    """A CJK run's character unigrams and bigrams."""
    return [*run, *(run[i:i + 2] for i in range(len(run) - 1))]


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (Han, kana or hangul)."""
    return _CJK.search(text) is not None


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    for match in _WORD.finditer(text.lower()):
        word = match.group(0)
        if _CJK.match(word):
            tokens.extend(_cjk_tokens(word))
        elif stemmed := _stem(word):
            tokens.append(stemmed)
    return tokens


def token_set(text: str) -> set[str]:
    """``set(tokenize(text))``, computed once per distinct word (the on-topic check's form). ASCII text
    (most of it) has no CJK run and its words are ``[a-z0-9]+`` once lower-cased: a cheaper scan."""
    lowered = text.lower()
    ascii_only = lowered.isascii()
    tokens = {_stem(word) for word in set((_ASCII_WORD if ascii_only else _LATIN_WORD).findall(lowered))}
    tokens.discard("")
    if not ascii_only:
        for run in _CJK_RUN.findall(lowered):
            tokens.update(_cjk_tokens(run))
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
