"""Mark-scheme entries linked to their questions: same paper tuple, same question number.

Issue 11: "Mark schemes split per question and linked to the question of the same paper
(same paper tuple and question number)". The key is (exam board, paper, year, session,
question number); a mark scheme and its question paper are different files, so the link
is resolved against the chunks known at the time — the same request, or, in the service,
the index (a scope query on the paper tuple with ``content_type: exam_question``).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

KEY_FIELDS = ("exam_board", "paper", "year", "session")
ANSWER_TYPES = ("mark_scheme", "solution")


def question_key(metadata: Mapping[str, Any], number: int | None = None) -> str | None:
    """``None`` when the paper is not identified (no paper name or no question number)."""
    number = number if number is not None else metadata.get("question_number")
    if number is None or not metadata.get("paper"):
        return None
    return "|".join("" if metadata.get(f) is None else str(metadata.get(f)) for f in KEY_FIELDS) + f"|{number}"


def link_answers(chunks: Iterable[tuple[str, Mapping[str, Any], str]]) -> dict[str, str]:
    """answer chunk id -> question chunk id, for (id, metadata, role) triples of one or more files.

    The first chunk of a question (its stem) is the link target; every chunk of a split
    answer links to it.
    """
    chunks = list(chunks)
    questions: dict[str, str] = {}
    for cid, meta, role in chunks:
        key = question_key(meta)
        if role == "question" and meta.get("content_type") == "exam_question" and key and key not in questions:
            questions[key] = cid
    links: dict[str, str] = {}
    for cid, meta, role in chunks:
        key = question_key(meta)
        if role == "answer" and key in questions:
            links[cid] = questions[key]
    return links
