"""Alias matching over a query, with span claiming.

The gate's vocabulary is data, so matching is generic: every alias in
``vocabulary.json`` is compiled into a regular expression and a query is scanned
extractor by extractor. An extractor *claims* the spans it consumed so a later
extractor cannot reuse them ("science track" is a Gaokao track, not the subject
science; "第17题" is a question number, not a request for the question text).

Alias syntax (documented in ``vocabulary.json``): plain strings match
case-insensitively as whole words (CJK aliases as substrings); ``=ALIAS`` is
case-sensitive (acronyms such as ``NY``, ``AP``); ``~REGEX`` is a raw regular
expression over the lower-cased query.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

#: Characters that make up a Latin "word" for boundary purposes. CJK characters
#: are deliberately excluded so "2019年" or "AMC 8第2题" still split.
WORD_CHARS = "0-9A-Za-z\u00c0-\u024f"
LEFT = f"(?<![{WORD_CHARS}])"
RIGHT = f"(?![{WORD_CHARS}])"
#: A negation right before a level word or a paper ("nicht Uni", "pas fac", "not college", "不是大学", "not the AMC
#: 12"): what it names is ruled out, not asked for. Searched in the 16 characters before the mention.
NEGATED = re.compile(r"(?:(?<![a-z\u00c0-\u024f])(?:not|nicht|pas|kein|keine|keinen|ni)\s+(?:an?\s+|la\s+|de\s+|the\s+)?"
                     r"|不是|非)$")
_WORDISH = re.compile(f"[{WORD_CHARS}]")
_WORD_CHAR = re.compile(f"[{WORD_CHARS}]").match
MASK = "\u0000"
#: Topic cues at least this long also match as word prefixes (wavelength -> wavelengths).
PREFIX_MIN_CHARS = 5


def lower_preserving(text: str) -> str:
    """Lower-case without changing the length, so spans index both strings."""
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


def _flexible(alias: str) -> str:
    """Escape an alias; spaces match any whitespace/hyphen run, hyphens are optional."""
    tokens = alias.split()
    parts = [r"[\s\-]?".join(re.escape(piece) for piece in token.split("-")) for token in tokens]
    return r"[\s\-]+".join(parts)


def compile_alias(alias: str, *, prefix: bool = False) -> tuple[str, bool]:
    """Return ``(regex_source, case_sensitive)`` for one alias string."""
    if alias.startswith("~"):
        return f"{LEFT}(?:{alias[1:]}){RIGHT}", False
    case_sensitive = alias.startswith("=")
    body = alias[1:] if case_sensitive else alias.lower()
    source = _flexible(body)
    if _WORDISH.match(body[:1]):
        source = LEFT + source
    allow_prefix = prefix and len(body) >= PREFIX_MIN_CHARS
    if _WORDISH.match(body[-1:]) and not allow_prefix:
        source = source + RIGHT
    return source, case_sensitive


@dataclass(frozen=True)
class Hit:
    """One alias match: its span in the prepared text, the matched text and its value."""

    start: int
    end: int
    text: str
    value: Any


class SpanText:
    """The NFKC-normalised query, its lower-cased twin and the claimed spans."""

    def __init__(self, query: str) -> None:
        self.text = unicodedata.normalize("NFKC", query)
        self.low = lower_preserving(self.text)
        self._masked_text = list(self.text)
        self._masked_low = list(self.low)
        self.claims: list[tuple[int, int, str]] = []

    def view(self, case_sensitive: bool = False) -> str:
        """The query with claimed spans masked out (so later matches cannot overlap them)."""
        return "".join(self._masked_text if case_sensitive else self._masked_low)

    def claim(self, start: int, end: int, label: str) -> None:
        for i in range(start, end):
            self._masked_text[i] = MASK
            self._masked_low[i] = MASK
        self.claims.append((start, end, label))

    def remaining(self) -> str:
        """The original text with every claimed span replaced by a space."""
        out = list(self.text)
        for start, end, _ in self.claims:
            for i in range(start, end):
                out[i] = " "
        return "".join(out)


class AliasTable:
    """Many aliases -> values; finds leftmost-longest, non-overlapping matches.

    Aliases are grouped by their first character (one alternation per group,
    longest alias first), so a scan only tries the aliases that can start at a
    position: a thousand cues cost tens of microseconds per query, not tens of
    milliseconds for one big alternation. At a given position the most specific
    alias wins ("答案解析" before "答案", "computer science" before "science").
    """

    def __init__(self, entries: Iterable[tuple[str, Any]], *, prefix: bool = False) -> None:
        self._values: dict[str, Any] = {}
        groups: dict[tuple[bool, str], list[tuple[int, str, str]]] = {}
        for index, (alias, value) in enumerate(entries):
            if not alias:
                continue
            source, case_sensitive = compile_alias(alias, prefix=prefix)
            body = alias.lstrip("=~")
            first = "*" if alias.startswith("~") else (body[0] if case_sensitive else body[0].lower())
            name = f"a{index}"
            self._values[name] = value
            groups.setdefault((case_sensitive, first), []).append((len(body), name, source))
        self._patterns: dict[tuple[bool, str], re.Pattern[str]] = {}
        for key, items in groups.items():
            items.sort(key=lambda item: -item[0])
            self._patterns[key] = re.compile("|".join(f"(?P<{name}>{source})" for _, name, source in items))
        self._raw = {mode: self._patterns.get((mode, "*")) for mode in (False, True)}
        self._modes = tuple(sorted({mode for mode, _ in self._patterns}))

    def find(self, st: SpanText) -> list[Hit]:
        """Non-overlapping hits over the unclaimed text, sorted by position."""
        hits: list[Hit] = []
        for mode in self._modes:
            text = st.view(case_sensitive=mode)
            pos = 0
            while pos < len(text):
                if pos and _WORD_CHAR(text[pos]) and _WORD_CHAR(text[pos - 1]):
                    pos += 1  # inside a Latin word: every Latin alias needs a left boundary
                    continue
                best = None
                for pattern in (self._patterns.get((mode, text[pos])), self._raw[mode]):
                    match = pattern.match(text, pos) if pattern is not None else None
                    if match and match.end() > pos and (best is None or match.end() > best.end()):
                        best = match
                if best is None:
                    pos += 1
                    continue
                hits.append(Hit(pos, best.end(), st.text[pos:best.end()], self._values[best.lastgroup or ""]))
                pos = best.end()
        return _drop_overlaps(hits)


def _drop_overlaps(hits: Sequence[Hit]) -> list[Hit]:
    """Keep the longest hit where case-sensitive and -insensitive matches overlap."""
    kept: list[Hit] = []
    for hit in sorted(hits, key=lambda h: (-(h.end - h.start), h.start)):
        if all(hit.end <= k.start or hit.start >= k.end for k in kept):
            kept.append(hit)
    return sorted(kept, key=lambda h: h.start)


def compile_patterns(specs: Iterable[dict[str, Any]]) -> list[tuple[re.Pattern[str], dict[str, Any]]]:
    """Compile ``{"regex": ..., "case_sensitive"?: bool, ...}`` entries from the vocabulary."""
    out: list[tuple[re.Pattern[str], dict[str, Any]]] = []
    for spec in specs:
        out.append((re.compile(spec["regex"]), spec))
    return out


def find_pattern(st: SpanText, pattern: re.Pattern[str], *, case_sensitive: bool = False) -> list[re.Match[str]]:
    return [m for m in pattern.finditer(st.view(case_sensitive)) if m.end() > m.start()]


_CJK_NUM = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def parse_number(token: str) -> int | None:
    """Arabic digits or a Chinese numeral up to 99 (十一 = 11, 二十三 = 23)."""
    token = token.strip()
    if token.isdigit():
        return int(token)
    if not token or any(ch not in _CJK_NUM and ch != "十" for ch in token):
        return None
    if "十" not in token:
        return _CJK_NUM.get(token) if len(token) == 1 else None
    tens, _, units = token.partition("十")
    value = (_CJK_NUM.get(tens, 0) if tens else 1) * 10
    return value + (_CJK_NUM.get(units, 0) if units else 0)


#: Two-character words a CJK track term can sit across: 物理 before 理数, 数学 / 数据 / 数字 after 文数 or 理数.
_ACROSS_BEFORE = ("物理", "天文", "中文", "英文", "语文", "人文")
_ACROSS_AFTER = ("数学", "数据", "数字", "数量", "数值")


#: Words a CJK subject name begins that name a thing, not the subject: "地理 ... 地上地下生物量" is biomass in a geography
#: item (2013 新课标I geography), not a second subject, biology.
_NOUNS_FROM_NAMES = ("生物量", "生物圈", "生物多样性", "生物群落", "生物钟", "生物燃料")


def glued_cjk(text: str, start: int, end: int) -> bool:
    """Is the two-character CJK hit text[start:end] part of two other words ("物理数学": 物理 + 数学, not 理数;
    "天文数据": 天文 + 数据, not 文数), or the start of a longer word that is not the subject ("生物量", biomass)?"""
    return end - start == 2 and (text[max(0, start - 1):start + 1] in _ACROSS_BEFORE
                                 or text[end - 1:end + 1] in _ACROSS_AFTER
                                 or any(text.startswith(noun, start) for noun in _NOUNS_FROM_NAMES))
