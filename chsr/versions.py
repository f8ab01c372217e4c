"""Which chunks are the same item in another language, read from their text (issue 21, decision 78).

Why: the curriculum's French, German and Spanish exam items are translations of one another, but nothing in their
metadata says which (no paper, year or question number; the dataset's own mapping was found unreliable). A query
for one of them counts its versions in the other languages relevant (curriculum README: "the same item in another
language = 1"; all of them where the query asks for every version), yet the legs rarely find them: the query's words
are one language's, and the dense leg's encoder reads English only. Of the 450 versions the authored cases label
beside a French, German or Spanish target, the mesh returned 76.

How: a chunk that is no numbered item of a paper (those are grouped by their metadata:
``gateway.translations.item_key``) is compared with the chunks of its group (the same source, board, paper,
subject, level, year, session and content type) in each other language. Each text becomes a bag of English words
(``chsr.dictionary``: the first senses of its French, German or Spanish words; an English text's own words), the
first five letters of its longer words as written (names and cognates: "Miskolc", "isotop"), and its numbers
("16,25" and "16.25" alike). Two chunks are versions of each other when each is the other's most similar chunk
of that language (cosine of TF-IDF weights, IDF over every chunk compared) and they share something.

Measured on the authored cases' labels: 216 of the 242 links from their grade-2 targets are labelled versions
(the rest mostly versions the annotators did not label: not checked one by one); 216 of the 507 labelled
other-language items are linked (many of those are related items, not translations).

Who uses it: the gateway keeps a :class:`VersionIndex` in step with the index (``gateway.catalogue_sync``) and puts
the versions of its answer's first result right after it (``gateway.versions``).
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter, defaultdict
from typing import Any, Mapping

from chsr import dictionary
from chsr.catalogue import cell_of

log = logging.getLogger(__name__)

#: The metadata a chunk's group is keyed by: only chunks of one group can be versions of each other.
GROUP_FIELDS: tuple[str, ...] = ("source", "exam_board", "paper", "subject", "level", "year", "session",
                                 "content_type")
#: A word this long or longer also counts by its first letters as written (names, cognates).
PREFIX_LETTERS = 5
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def linkable(metadata: Mapping[str, Any]) -> bool:
    """Whether a chunk is compared at all: it has a language, and is no numbered item of a paper (those are grouped
    by paper and question number already)."""
    if not metadata.get("language"):
        return False
    return not (metadata.get("paper") and metadata.get("question_number"))


def bag_of(text: str, language: str) -> Counter[str]:
    """The words two versions of one item share across languages: English senses, long words' first letters as
    written, numbers."""
    words = dictionary.words_of(text)
    if language in dictionary.FILES:
        english = dictionary.english_words(words, language, limit=len(words) * dictionary.SENSES_PER_WORD)
    else:
        english = words
    bag: Counter[str] = Counter(w.lower() for w in english)
    bag.update("~" + w.lower()[:PREFIX_LETTERS] for w in words if len(w) >= PREFIX_LETTERS)
    bag.update("#" + n.replace(",", ".") for n in _NUMBER.findall(text))
    return bag


class VersionIndex:
    """Chunks by group and language; :meth:`rebuild` links the versions, :meth:`versions_of` reads them.

    Written by one thread (the gateway's catalogue sync); searches only read :meth:`versions_of`, whose links are
    replaced whole by :meth:`rebuild`. A chunk's bag is made only once it has a chunk of another language in its
    group to be compared with (on this corpus 1,110 of 14,338 linkable chunks), and kept until it changes."""

    def __init__(self) -> None:
        self._chunks: dict[str, tuple[tuple[Any, ...], str, str]] = {}   # id -> (group, language, text)
        self._bags: dict[str, Counter[str]] = {}                         # id -> bag, made by rebuild()
        self._links: dict[str, tuple[str, ...]] = {}
        self._stale = False

    def __len__(self) -> int:
        return len(self._chunks)

    @property
    def stale(self) -> bool:
        """Whether chunks came or went since the last :meth:`rebuild`."""
        return self._stale

    def upsert(self, doc_id: str, text: str, metadata: Mapping[str, Any]) -> None:
        self.delete(doc_id)
        if linkable(metadata):
            self._chunks[doc_id] = (cell_of(metadata, GROUP_FIELDS), str(metadata["language"]), text)
            self._stale = True

    def delete(self, doc_id: str) -> None:
        self._bags.pop(doc_id, None)
        if self._chunks.pop(doc_id, None) is not None:
            self._stale = True

    def versions_of(self, doc_id: str) -> tuple[str, ...]:
        """The chunks linked to ``doc_id`` as its versions in other languages (best first); empty when none."""
        return self._links.get(doc_id, ())

    def rebuild(self) -> int:
        """Link every group's chunks across its languages; returns the number of links (pairs)."""
        self._stale = False
        by_group: dict[tuple[Any, ...], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for doc_id, (group, language, _) in self._chunks.items():
            by_group[group][language].append(doc_id)
        multilingual = [langs for langs in by_group.values() if len(langs) > 1]
        compared = [i for langs in multilingual for ids in langs.values() for i in ids]
        df: Counter[str] = Counter()
        for doc_id in compared:
            df.update(self._bag(doc_id).keys())
        vectors = {i: _tfidf(self._bags[i], df, len(compared)) for i in compared}
        links: dict[str, list[tuple[float, str]]] = defaultdict(list)
        pairs = 0
        for langs in multilingual:
            names = sorted(langs)
            for a_i, a in enumerate(names):
                for b in names[a_i + 1:]:
                    for x, y, sim in _mutual_best(langs[a], langs[b], vectors):
                        links[x].append((sim, y))
                        links[y].append((sim, x))
                        pairs += 1
        self._links = {i: tuple(y for _, y in sorted(found, key=lambda sy: (-sy[0], sy[1])))
                       for i, found in links.items()}
        log.info("versions linked", extra={"chunks": len(self._chunks), "compared": len(compared), "pairs": pairs})
        return pairs

    def _bag(self, doc_id: str) -> Counter[str]:
        if doc_id not in self._bags:
            _, language, text = self._chunks[doc_id]
            self._bags[doc_id] = bag_of(text, language)
        return self._bags[doc_id]


def _tfidf(bag: Counter[str], df: Counter[str], n: int) -> dict[str, float]:
    # smoothed: a word every compared chunk holds still counts a little (two chunks alone can be versions)
    weights = {t: (1.0 + math.log(c)) * math.log(1.0 + n / df[t]) for t, c in bag.items()}
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    return {t: w / norm for t, w in weights.items()}


def _mutual_best(left: list[str], right: list[str],
                 vectors: Mapping[str, dict[str, float]]) -> list[tuple[str, str, float]]:
    """The pairs (x of ``left``, y of ``right``, similarity) where each is the other's most similar, with a
    similarity above zero; ties go to the smaller id (ids are visited in order, and only a greater similarity
    replaces the best so far)."""
    postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for y in sorted(right):
        for t, w in vectors[y].items():
            postings[t].append((y, w))
    best_left: dict[str, tuple[float, str]] = {}    # x -> (similarity, its best y)
    best_right: dict[str, tuple[float, str]] = {}   # y -> (similarity, its best x)
    for x in sorted(left):
        acc: dict[str, float] = defaultdict(float)
        for t, w in vectors[x].items():
            for y, v in postings.get(t, ()):
                acc[y] += w * v
        for y in sorted(acc):
            s = acc[y]
            if x not in best_left or s > best_left[x][0]:
                best_left[x] = (s, y)
            if y not in best_right or s > best_right[y][0]:
                best_right[y] = (s, x)
    return [(x, y, s) for x, (s, y) in best_left.items() if s > 0 and best_right[y][1] == x]
