"""Tokeniser shared by the embedded BM25 index and the gateway's on-topic check.

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
