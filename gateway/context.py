"""GetContext: a search's results packed into a prompt-ready, cited context, plus an extractive answer.

Issue 11, "Citations out". The results come in the pipeline's rank order; a result that
repeats one already taken (same id, the same text inside it, or token-set Jaccard >= 0.8) is
dropped; each passage gets a header with its number, curriculum label and citation, and, when
it lies outside the scope asked for, what differs ("another year's paper: asked 2019, this
is 2018") so a tutoring app can say so. Passages are added until the token budget is spent;
the first that does not fit is cut at a sentence end when at least ``MIN_PASSAGE_TOKENS``
remain. Tokens are estimated, not counted with a model tokenizer (the gateway carries none):
words, punctuation marks and CJK characters, or a quarter of the characters, whichever is more
(an estimate meant to err high rather than low for English BPE tokenizers).

The extractive answer needs no LLM: every sentence of the packed passages is scored by the
query terms it contains (stemmed, idf over the context's sentences, normalised by sentence
length) times a rank prior of its passage; the best distinct sentences are returned, each
with its passage's citation.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Sequence

from chsr.relaxation import W0, step_name
from chsr.scope import Scope
from chsr.text import split_sentences, tokenize
from chsr.v1 import common_pb2, gateway_pb2

DEFAULT_BUDGET = 512
MAX_BUDGET = 32_768
DEFAULT_CANDIDATES = 20
DEFAULT_ANSWER_SENTENCES = 3
MAX_ANSWER_SENTENCES = 10
MIN_PASSAGE_TOKENS = 32
DUPLICATE_JACCARD = 0.8
MIN_SENTENCE_TOKENS = 3
_PIECE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+|[^\w\s]", re.UNICODE)
#: How a violated field reads in a scope note.
_NOTE = {"year": "another year's paper", "paper": "another paper", "session": "another session",
         "level": "another level", "subject": "another subject", "content_type": "another kind of material",
         "question_number": "another question", "exam_board": "another exam board", "language": "another language"}


def estimate_tokens(text: str) -> int:
    """Words, punctuation marks and CJK characters, or a quarter of the characters if more."""
    return max(len(_PIECE.findall(text)), math.ceil(len(text) / 4))


def citation_text(c: common_pb2.Citation) -> str:
    """``amc10a_2019.pdf, p. 2, Section A › Question 5``."""
    parts = [c.source or c.title]
    if c.HasField("page_start"):
        end = c.page_end if c.HasField("page_end") else c.page_start
        parts.append(f"p. {c.page_start}" if end == c.page_start else f"pp. {c.page_start}-{end}")
    headings = [h for h in c.heading_path if h != c.title] or ([c.title] if c.source and c.title else [])
    if headings:
        parts.append(" › ".join(headings))
    return ", ".join(p for p in parts if p)


def curriculum_label(m: common_pb2.Metadata) -> str:
    """``AMC 10A 2019 · Question 5 · mark scheme · mathematics · grade_10``."""
    paper = m.paper or m.exam_board
    head = " ".join(str(v) for v in (paper, m.year if m.HasField("year") else None, m.session) if v)
    parts = [head, f"Question {m.question_number}" if m.HasField("question_number") else "",
             m.content_type.replace("_", " ") if m.content_type else "", m.subject, m.level]
    return " · ".join(p for p in parts if p)


def scope_note(violations: Sequence[str], scope: Scope, m: common_pb2.Metadata) -> str:
    notes = []
    for name in violations:
        asked = ", ".join(str(v) for v in getattr(scope, name, ()) or ())
        value = getattr(m, name) if m.HasField(name) else None
        this = f"this is {value}" if value is not None else f"its {name.replace('_', ' ')} is unknown"
        notes.append(f"{_NOTE.get(name, name)}: asked {asked}, {this}" if asked else f"{_NOTE.get(name, name)}: {this}")
    return "; ".join(notes)


def _header(index: int, result: gateway_pb2.SearchResult, note: str) -> str:
    label = curriculum_label(result.metadata)
    where = citation_text(result.citation)
    head = f"[{index}] " + " — ".join(p for p in (label, where) if p)
    if result.relaxation != W0 or note:
        head += f" ({step_name(result.relaxation)}" + (f", outside the scope asked for: {note}" if note else "") + ")"
    return head


def _is_duplicate(text: str, tokens: set[str], kept: list[tuple[str, set[str]]]) -> bool:
    folded = " ".join(text.split()).lower()
    for other, other_tokens in kept:
        if folded in other or other in folded:
            return True
        union = tokens | other_tokens
        if union and len(tokens & other_tokens) / len(union) >= DUPLICATE_JACCARD:
            return True
    return False


def _fit(text: str, budget: int) -> str:
    """The longest run of whole sentences (else words) of ``text`` within ``budget`` tokens."""
    out = ""
    for sentence in split_sentences(text) or [text]:
        candidate = f"{out} {sentence}".strip()
        if estimate_tokens(candidate) > budget:
            break
        out = candidate
    if out:
        return out
    words = text.split()
    while words and estimate_tokens(" ".join(words) + " …") > budget:
        words = words[:max(1, len(words) * 3 // 4)] if len(words) > 1 else []
    return " ".join(words) + " …" if words else ""


@dataclass
class PackedContext:
    passages: list[gateway_pb2.ContextPassage] = field(default_factory=list)
    text: str = ""
    tokens: int = 0
    duplicates: int = 0
    left_out: int = 0


def pack(results: Sequence[gateway_pb2.SearchResult], scope: Scope, budget: int) -> PackedContext:
    """Deduplicate and pack ``results`` (rank order) into at most ``budget`` estimated tokens."""
    out = PackedContext()
    kept: list[tuple[str, set[str]]] = []
    seen_ids: set[str] = set()
    blocks: list[str] = []
    for pos, r in enumerate(results):
        tokens = set(tokenize(r.text))
        if r.doc_id in seen_ids or _is_duplicate(r.text, tokens, kept):
            out.duplicates += 1
            continue
        note = scope_note(r.violations, scope, r.metadata)
        header = _header(len(out.passages) + 1, r, note)
        cost = estimate_tokens(header) + estimate_tokens(r.text) + (1 if blocks else 0)
        text, truncated = r.text, False
        if out.tokens + cost > budget:
            room = budget - out.tokens - estimate_tokens(header) - (1 if blocks else 0)
            text = _fit(r.text, room) if room >= MIN_PASSAGE_TOKENS else ""
            if not text:
                out.left_out = len(results) - pos
                break
            truncated = True
            cost = estimate_tokens(header) + estimate_tokens(text) + (1 if blocks else 0)
        seen_ids.add(r.doc_id)
        kept.append((" ".join(r.text.split()).lower(), tokens))
        out.passages.append(gateway_pb2.ContextPassage(
            index=len(out.passages) + 1, doc_id=r.doc_id, text=text, citation=r.citation, metadata=r.metadata,
            label=curriculum_label(r.metadata), relaxation=r.relaxation, violations=r.violations,
            scope_note=note, tokens=cost, truncated=truncated, score=r.score))
        blocks.append(f"{header}\n{text}")
        out.tokens += cost
        if truncated:
            out.left_out = len(results) - pos - 1
            break
    out.text = "\n\n".join(blocks)
    out.tokens = estimate_tokens(out.text) if out.text else 0
    return out


def extractive_answer(query: str, passages: Sequence[gateway_pb2.ContextPassage],
                      n: int) -> list[gateway_pb2.AnswerSentence]:
    """The ``n`` best distinct sentences of ``passages`` for ``query``, each with its citation."""
    terms = set(tokenize(query))
    if not terms or n <= 0:
        return []
    sentences = [(p, s, tokenize(s)) for p in passages for s in split_sentences(p.text)]
    sentences = [(p, s, t) for p, s, t in sentences if len(t) >= MIN_SENTENCE_TOKENS]
    df: dict[str, int] = {}
    for _, _, toks in sentences:
        for term in set(toks) & terms:
            df[term] = df.get(term, 0) + 1
    total = len(sentences)
    scored = []
    for p, sentence, toks in sentences:
        hits = set(toks) & terms
        if not hits:
            continue
        weight = sum(math.log(1 + total / df[t]) for t in hits)
        score = weight / math.sqrt(len(toks)) / (1 + 0.15 * (p.index - 1))
        scored.append((score, p, sentence, set(toks)))
    scored.sort(key=lambda item: -item[0])
    chosen: list[gateway_pb2.AnswerSentence] = []
    kept: list[set[str]] = []
    for score, p, sentence, toks in scored:
        if any(len(toks & k) / len(toks | k) >= DUPLICATE_JACCARD for k in kept):
            continue
        kept.append(toks)
        chosen.append(gateway_pb2.AnswerSentence(text=sentence, passage=p.index, citation=p.citation, score=score))
        if len(chosen) >= n:
            break
    return chosen
