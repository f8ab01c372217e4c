"""An item's version in the answer's language first; its translations after it, labelled.

The corpus holds some items in several languages: the same paper, year, session, question number
and content type, one chunk per language. Of such a group in the answer, the version in the
answer's language (``QueryLanguage`` from the gate: the language the query asks for, else the one
it is written in) takes the group's best place and the other versions follow it, in the places the
group held; nothing outside the group moves. A result in another language than the answer's is
labelled (``language: ...`` in its notes), naming its original when that is in the answer too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from chsr.v1 import common_pb2

T = TypeVar("T")

#: Below this the detected language neither reorders nor labels (a requested one always does).
MIN_CONFIDENCE = 0.5
#: What makes two chunks versions of one item.
ITEM_FIELDS: tuple[str, ...] = ("source", "paper", "year", "session", "question_number", "content_type")


def item_key(metadata: common_pb2.Metadata) -> tuple | None:
    """The item a chunk is a version of; None when it names no paper and question (a textbook
    section, a syllabus line: no versions to tell apart)."""
    if not (metadata.HasField("paper") and metadata.HasField("question_number")):
        return None
    return tuple(getattr(metadata, name) if metadata.HasField(name) else None for name in ITEM_FIELDS)


def order_by_language(items: list[T], language: common_pb2.QueryLanguage | None,
                      metadata_of: Callable[[T], common_pb2.Metadata],
                      id_of: Callable[[T], str]) -> tuple[list[T], list[list[str]]]:
    """``items`` reordered (originals before their translations) and each one's notes."""
    notes: list[list[str]] = [[] for _ in items]
    if language is None or not language.code or (not language.requested and language.confidence < MIN_CONFIDENCE):
        return items, notes
    wanted = language.code
    groups: dict[tuple, list[int]] = {}
    for i, item in enumerate(items):
        key = item_key(metadata_of(item))
        if key is not None:
            groups.setdefault(key, []).append(i)
    order = list(range(len(items)))
    for places in groups.values():
        if len(places) < 2:
            continue
        members = sorted(places, key=lambda i: (_language(metadata_of(items[i])) != wanted, i))
        for place, member in zip(places, members):
            order[place] = member
    out = [items[i] for i in order]
    originals = {key: next((id_of(items[i]) for i in places if _language(metadata_of(items[i])) == wanted), None)
                 for key, places in groups.items()}
    why = f"the query asks for {wanted}" if language.requested else f"the query is in {wanted}"
    for slot, item in enumerate(out):
        meta = metadata_of(item)
        lang = _language(meta)
        if lang is None or lang == wanted:
            continue
        key = item_key(meta)
        original = originals.get(key) if key is not None else None
        version = f" version of {original}" if original else ""
        notes[slot].append(f"language: {lang}{version} ({why})")
    return out, notes


def _language(metadata: common_pb2.Metadata) -> str | None:
    return metadata.language if metadata.HasField("language") else None


def in_language_turns(items: list[T], languages: frozenset[str], metadata_of: Callable[[T], common_pb2.Metadata]) -> list[T]:
    """``items`` with the requested languages taking turns: each language's best, in the order of their best
    ranks, then each one's second, and so on; items in no requested language keep their order after them.

    Why: a request for several versions ("all versions (French, German, Spanish)") wants each language's version,
    and the query's words, written in one of them or in none, rank that language's other items above the other
    languages' version of the item (issue 21, round 54). Only where two or more languages are requested."""
    if len(languages) < 2:
        return items
    queues: dict[str, list[T]] = {}
    rest: list[T] = []
    for item in items:
        lang = _language(metadata_of(item))
        if lang in languages:
            queues.setdefault(lang, []).append(item)
        else:
            rest.append(item)
    out: list[T] = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                out.append(queue.pop(0))
    return out + rest
