"""Unicode normalisation of extracted text: NFKC, except where NFKC destroys mathematics.

Why: NFKC unfolds ligatures (``ﬁ`` -> ``fi``), full-width forms (``１．`` -> ``1.``,
common in Chinese papers) and no-break spaces, which makes question markers and
words match; but it also maps ``x²`` to ``x2``, ``ℝ`` to ``R`` and ``½`` to ``1⁄2``, which
changes the meaning of a formula (issue 11: "ligatures and Unicode normalised, maths
symbols kept"). So every character is NFKC-normalised on its own unless its
compatibility decomposition is a superscript, subscript, font variant (mathematical
alphanumerics, double-struck letters) or vulgar fraction, or it is a maths symbol
(Unicode category ``Sm``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_KEEP_TAGS = ("<super>", "<sub>", "<font>", "<fraction>")
#: Soft hyphen, zero-width characters, BOM, and PDFium's markers for a hyphen it removed at a line end.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
HYPHEN_MARKERS = "\u00ad\ufffe\x02"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"[ \u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_TABS = re.compile(r" *\t[\t ]*")


@lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    if unicodedata.category(ch) == "Sm":
        return ch
    decomposition = unicodedata.decomposition(ch)
    if decomposition.startswith(_KEEP_TAGS):
        return ch
    return unicodedata.normalize("NFKC", ch)


def normalise_text(text: str) -> str:
    """NFKC with maths kept, invisible characters dropped, runs of spaces collapsed.

    Newlines and tabs are kept (one each): a tab after a bare question number (``1<TAB>Explain``)
    is what tells it from a number that merely starts a line.
    """
    if not text:
        return ""
    if not text.isascii():
        text = text.translate(_INVISIBLE)
        text = "".join(_char(ch) if ord(ch) > 127 else ch for ch in text)
        text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub("", text)
    return _TABS.sub("\t", _SPACES.sub(" ", text)).strip()


def is_cjk(ch: str) -> bool:
    """CJK ideographs, kana, hangul and CJK punctuation: joined without a space at a line break."""
    code = ord(ch)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF)


def join_lines(lines: list[str], known_words: set[str] | None = None) -> str:
    """Join the lines of one paragraph: hyphenation undone, CJK joined without spaces.

    A line ending in a hyphen (or a soft-hyphen marker) after a letter, followed by a
    line that starts with a lower-case letter, is a typesetter's hyphenation: the
    halves are joined ("exam-" + "ple" -> "example") unless the hyphenated compound
    itself is attested elsewhere in the document (``known_words`` holds the document's
    words; "well-known" seen whole keeps its hyphen) — the lexicon check GROBID and
    similar extractors use, here with the document as the lexicon.
    """
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        out = _join_pair(out, line, known_words)
    return out


def _join_pair(left: str, right: str, known_words: set[str] | None) -> str:
    tail = left[-1]
    if tail in HYPHEN_MARKERS or (tail in "-\u2010" and len(left) > 1 and left[-2].isalpha()):
        stem = left[:-1]
        if right[0].islower():
            head = re.match(r"\w+", right)
            first = stem.rsplit(None, 1)[-1] if stem.split() else stem
            compound = f"{first}-{head.group(0) if head else ''}".lower()
            if known_words is not None and compound in known_words and tail not in HYPHEN_MARKERS[:1]:
                return f"{stem}-{right}"
            return stem + right
        return stem + ("" if tail == "\u00ad" else "-") + right
    if is_cjk(tail) and is_cjk(right[0]):
        return left + right
    return f"{left} {right}"


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


def hyphenated_words(text: str) -> set[str]:
    """Hyphenated compounds written whole somewhere in ``text`` (for :func:`join_lines`)."""
    return {m.group(0).lower() for m in _WORD.finditer(text)}
