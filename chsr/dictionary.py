"""English words for a French, German or Spanish query's words: the FreeDict dictionaries, read word by word.

Why: a French query for English material ("Common Core maths, niveau 5e : quel standard porte sur l'aire et la
circonférence du cercle ?") shares no word with the standard it asks for, and the dense leg's encoder
(all-MiniLM-L6-v2) reads English only. The sparse legs found nothing, and the gateway's on-topic check, which judges
results by the query's own words, called the exact scope off topic and widened it (issue 21: 326 authored French,
German and Spanish queries whose items are English, nDCG@8 0.66). Offline, BM25 over the English chunks put the
gold item in the top 8 for 166 of them from the query alone and for 219 with the words below appended.

How: each word is looked up as written, then without a plural ending; its first senses of at most two words each are
taken ("cercle" -> circle, "sommeil" -> sleep, "Halbwertszeit" -> half-life). The dictionaries are Debian's
``dict-freedict-fra-eng``, ``dict-freedict-deu-eng`` and ``dict-freedict-spa-eng`` (dictd format, GPL; installed by
``scripts/install_dictionaries.sh``) under ``CHSR_DICTIONARY_DIR``. The gate reads them in the background at start
(German's: about 5 s the first time; its parse is kept under ``CHSR_CACHE_DIR``, and read again in under a second). Where one is missing
the language gains nothing and a warning says so once: the gate still answers, by the query's own words.

Who calls it: the gate, only where the scope it decided holds no material in the language the query is written in
(``services.gate.translation``): elsewhere English words would only pull in English items the query does not ask for.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from chsr.text import tokenize

log = logging.getLogger(__name__)

#: Where the dictd files are looked for when ``CHSR_DICTIONARY_DIR`` is not set (Debian's place for them).
DEFAULT_DIR = "/usr/share/dictd"
#: The FreeDict dictionary of each language, into English.
FILES: dict[str, str] = {"fr": "freedict-fra-eng", "de": "freedict-deu-eng", "es": "freedict-spa-eng"}
#: Senses taken per word, and the most words a sense may have.
SENSES_PER_WORD = 2
MAX_SENSE_WORDS = 2
#: Cap on the English words one query gains.
MAX_WORDS = 32
#: Bumped whenever the parsing below changes, so that a cached parse is not reused.
PARSE_VERSION = 1
_B64 = {ch: i for i, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_WORD = re.compile(r"[^\W\d_][^\W\d_'\-]*", re.UNICODE)
_NOTES = re.compile(r"<[^>]*>|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}")
_SKIPPED_LINE = ("Synonyms", "see:", "Note", "Syn")
_LEADING = re.compile(r"^(?:to|a|an|the)\s+", re.IGNORECASE)
#: Plural (and German case) endings tried when a word is not a headword as written.
_ENDINGS: dict[str, tuple[str, ...]] = {"fr": ("s", "x", "es"), "es": ("s", "es"), "de": ("en", "n", "e", "s", "es")}


_LOCK = threading.Lock()
_BOOKS: dict[str, dict[str, tuple[str, ...]]] = {}
#: Each language's headwords by the one-word English senses they carry (:func:`foreign_words`).
_REVERSED: dict[str, dict[str, tuple[str, ...]]] = {}
#: Headwords taken per English word.
HEADWORDS_PER_WORD = 2


@dataclass
class _Places:
    dictionaries: Path = Path(DEFAULT_DIR)
    cache: Path | None = None   # where parsed dictionaries are kept; None: not kept


_PLACES = _Places()


def configure(dictionaries: Path, cache: Path | None) -> None:
    """Where the dictd files are (``CHSR_DICTIONARY_DIR``) and where their parse is kept (under ``CHSR_CACHE_DIR``):
    servers call this with their settings before :func:`load_in_background`."""
    with _LOCK:
        _PLACES.dictionaries, _PLACES.cache = Path(dictionaries), (Path(cache) / "dictionaries" if cache else None)
        _BOOKS.clear()
        _REVERSED.clear()


def dictionary_dir() -> Path:
    return _PLACES.dictionaries


def available(language: str) -> bool:
    """Whether ``language``'s dictionary is installed."""
    name = FILES.get(language)
    return bool(name) and (dictionary_dir() / f"{name}.index").is_file()


def english_words(words: list[str], language: str, limit: int = MAX_WORDS) -> list[str]:
    """The English senses of ``words`` (each a word of ``language``), in order, each once; empty when the language
    has no dictionary here."""
    book = _book(language)
    out: list[str] = []
    for word in words:
        for sense in _senses(book, word.lower(), language):
            if sense not in out and tokenize(sense):  # "who", "which", "on": English stopwords add nothing
                out.append(sense)
        if len(out) >= limit:
            break
    return out[:limit]


def foreign_words(words: list[str], language: str, limit: int = MAX_WORDS) -> list[str]:
    """The ``language`` headwords whose first senses are ``words`` (English), in order, each once: the reverse of
    :func:`english_words`, for an English query that asks for an item's French, German or Spanish version ("the
    French-language physics question about soldiers ... across a bridge" -> "soldat", "pont"). A word is looked up as
    written, then without a plural ending; a headword whose first sense it is comes before one whose second it is,
    a shorter before a longer. Empty when the language has no dictionary here."""
    reverse = _reversed(language)
    out: list[str] = []
    for word in words:
        word = word.lower()
        found = reverse.get(word, ())
        for ending in ("es", "s"):
            if not found and word.endswith(ending) and len(word) - len(ending) >= 3:
                found = reverse.get(word[: -len(ending)], ())
        out += [head for head in found[:HEADWORDS_PER_WORD] if head not in out and head != word]
        if len(out) >= limit:
            break
    return out[:limit]


def _reversed(language: str) -> dict[str, tuple[str, ...]]:
    book = _book(language)
    with _LOCK:
        if language not in _REVERSED:
            ranked: dict[str, list[tuple[int, int, str]]] = {}
            for head, senses in book.items():
                for rank, sense in enumerate(senses):
                    if " " not in sense and tokenize(sense):
                        ranked.setdefault(sense.lower(), []).append((rank, len(head), head))
            _REVERSED[language] = {sense: tuple(h for _, _, h in sorted(found)) for sense, found in ranked.items()}
        return _REVERSED[language]


def words_of(text: str) -> list[str]:
    """The words of ``text`` as :func:`english_words` looks them up (letters, inner hyphens and apostrophes)."""
    return [w.strip("'-") for w in _WORD.findall(text) if len(w.strip("'-")) >= 3]


def _senses(book: dict[str, tuple[str, ...]], word: str, language: str) -> tuple[str, ...]:
    if word in book:
        return book[word]
    word = word.split("'")[-1]  # "l'aire" -> "aire"
    if word in book:
        return book[word]
    for ending in _ENDINGS.get(language, ()):
        if word.endswith(ending) and len(word) - len(ending) >= 3 and word[: -len(ending)] in book:
            return book[word[: -len(ending)]]
    return ()


def load_in_background() -> threading.Thread:
    """Read every installed dictionary, and index it by its English senses (:func:`foreign_words`), in a daemon
    thread (servers call this at start; German's takes about 5 s the first time, well under 1 s from the cache
    after): a query that needs one meanwhile waits for it."""
    thread = threading.Thread(target=lambda: [_reversed(code) for code in FILES], name="dictionaries", daemon=True)
    thread.start()
    return thread


def _book(language: str) -> dict[str, tuple[str, ...]]:
    with _LOCK:
        if language not in _BOOKS:
            _BOOKS[language] = _read(language)
        return _BOOKS[language]


def _read(language: str) -> dict[str, tuple[str, ...]]:
    name = FILES.get(language)
    if not name:
        return {}
    folder = dictionary_dir()
    index, data = folder / f"{name}.index", folder / f"{name}.dict.dz"
    if not index.is_file() or not data.is_file():
        log.warning("dictionary missing", extra={"language": language, "dir": str(folder),
                                                 "effect": "queries in this language gain no English words"})
        return {}
    cached = _cache_path(name, data)
    if cached is None:
        return _parse_dictd(index, data)
    try:
        with gzip.open(cached, "rt", encoding="utf-8") as fh:
            return {head: tuple(senses) for head, senses in json.load(fh).items()}
    except (OSError, ValueError):
        pass
    book = _parse_dictd(index, data)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        with gzip.open(tmp, "wt", encoding="utf-8") as fh:
            json.dump(book, fh, ensure_ascii=False)
        tmp.replace(cached)
    except OSError as exc:  # a read-only cache only costs the next start the parse again
        log.warning("dictionary cache not written", extra={"path": str(cached), "error": str(exc)})
    return book


def _cache_path(name: str, data: Path) -> Path | None:
    """The parsed senses of one dictionary, keyed by the dictd file's size and time and this module's parsing."""
    if _PLACES.cache is None:
        return None
    stat = data.stat()
    return _PLACES.cache / f"{name}-{stat.st_size}-{int(stat.st_mtime)}-v{PARSE_VERSION}.json.gz"


def _parse_dictd(index: Path, data: Path) -> dict[str, tuple[str, ...]]:
    blob = gzip.open(data).read()
    entries: dict[str, list[tuple[int, int, tuple[str, ...]]]] = {}   # headword -> (weight, -order, senses)
    with index.open(encoding="utf-8") as lines:
        for order, line in enumerate(lines):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3 or parts[0].startswith("00") or " " in parts[0]:
                continue
            start = _number(parts[1])
            body = blob[start:start + _number(parts[2])].decode("utf-8", "replace")
            senses = _parse(body)
            if senses:
                entries.setdefault(parts[0].lower(), []).append((_weight(body), -order, senses))
    book: dict[str, tuple[str, ...]] = {}
    for head, found in entries.items():
        ranked: list[str] = []
        for _, _, senses in sorted(found, reverse=True):   # the most central entry first, ties in file order
            ranked += [s for s in senses if s not in ranked]
        book[head] = tuple(ranked[:SENSES_PER_WORD])
    return book


def _weight(entry: str) -> int:
    """How central an entry is among a headword's entries (German's dictionary gives each sense its own): its usage
    examples and cross-references count for it, a field or register label ("[ugs.]", "[fin.]") against it. "Luft":
    "air", with examples, comes before "elbow room" [ugs.]; "Papier": "paper" before "wrapping paper"."""
    lines = entry.split("\n")[1:]
    examples = sum(1 for line in lines if line.strip().startswith('"'))
    labelled = any(line.strip().startswith("[") for line in lines[:1])
    return examples + ("see:" in entry) - 3 * labelled + 3


def _parse(entry: str) -> tuple[str, ...]:
    """The first senses of a dictd entry (its first line is the headword and pronunciation)."""
    senses: list[str] = []
    for line in entry.split("\n")[1:]:
        line = line.strip()
        if not line or line.startswith(_SKIPPED_LINE) or line.startswith('"'):
            continue
        line = re.sub(r"^\d+\.\s*", "", _NOTES.sub(" ", line))
        for sense in re.split(r"[,;]", line):
            sense = _LEADING.sub("", " ".join(sense.split()).strip(" ."))
            if sense and len(sense.split()) <= MAX_SENSE_WORDS and sense not in senses:
                senses.append(sense)
        if len(senses) >= SENSES_PER_WORD:
            break
    return tuple(senses[:SENSES_PER_WORD])


def _number(text: str) -> int:
    value = 0
    for ch in text:
        value = value * 64 + _B64[ch]
    return value
