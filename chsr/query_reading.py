"""The query as the gate reads it and the retrieval legs search it.

Two readings, in this order: traditional Chinese as the simplified characters the corpus is written in
(``chsr.chinese``), then numbers spelled out as a year, a paper or an item number as digits (``chsr.numerals``).
The request keeps what the client sent; only the text that is read and searched changes.
"""

from __future__ import annotations

from chsr.chinese import simplified
from chsr.numerals import digits


def read_query(text: str) -> str:
    """``text`` in the characters and digits the corpus and the gate's vocabulary are written in."""
    return digits(simplified(text))
