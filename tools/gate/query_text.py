"""Text operations for generated queries: an item's stem, quoted spans, word-dropped /
reordered paraphrases and topic keywords (issue 14, item 1).

Students rarely paste a whole item: they quote a piece, drop words, reorder, or name a
few topic words. These functions make those forms from the item's own text, so the
gold scope of the query is the scope of the item it came from. CJK text (Gaokao) is cut
by characters, everything else by words.
"""

from __future__ import annotations

import random
import re

_OPTIONS = re.compile(r"\s*(?:\(A\)|（A）|A[．.、]\s*\S).*", re.S)
_LEAD_NUMBER = re.compile(r"^\s*\d{1,2}\s*[．.、]\s*(?:[（(]\s*\d+\s*分\s*[）)])?\s*")
_CCSS_HEAD = re.compile(r"^CCSS \S+ \([^)]*\) - [^:]*:\s*")
_BLANK = re.compile(r"[（(]\s*[　 ]*[）)]")
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"\S+")
STOP = frozenset("""a an the of to in on at for and or is are was were be by with as that this which what who whom
whose from it its into than then there their they he she his her we you your i do does did can could would should
may might will shall has have had not no if so such these those how why when where le la les des du de un une et
est en dans pour que qui der die das ein eine und ist von zu mit im el los las del y es un una por para se""".split())


def is_cjk(text: str) -> bool:
    return len(_CJK.findall(text)) >= max(4, len(text) // 6)


def stem(text: str, source: str) -> str:
    """The item's question text without its answer options, leading number or standard code."""
    body = text
    if source == "ccss":
        body = _CCSS_HEAD.sub("", body)
    if source == "openstax_physics":
        body = body.split("\n", 1)[-1]  # the first line repeats the section title
    body = _LEAD_NUMBER.sub("", body)
    cut = _OPTIONS.split(body, maxsplit=1)[0]
    body = cut if len(cut) >= 25 else body
    body = _BLANK.sub(" ", body)
    return re.sub(r"\s+", " ", body).strip()


def quote(text: str, rng: random.Random, min_words: int = 6, max_words: int = 18) -> str:
    """A contiguous span: 6-18 words, or 10-30 characters of CJK text."""
    if is_cjk(text):
        n = len(text)
        size = min(n, rng.randint(10, 30))
        start = rng.randint(0, max(0, min(n - size, n // 3)))
        return text[start:start + size].strip()
    words = _WORD.findall(text)
    if len(words) <= min_words:
        return " ".join(words)
    size = min(len(words), rng.randint(min_words, max_words))
    start = rng.randint(0, max(0, min(len(words) - size, len(words) // 3)))
    return " ".join(words[start:start + size])


def paraphrase(text: str, rng: random.Random) -> str:
    """Word-dropped and locally reordered span (CJK: 2-4 fragments joined by spaces)."""
    span = quote(text, rng, 8, 22)
    if is_cjk(span):
        return " ".join(fragments(span, rng, rng.randint(2, 4)))
    words = span.split()
    kept = [w for w in words if not (w.lower() in STOP and rng.random() < 0.6) and rng.random() > 0.15]
    kept = kept or words[:4]
    if len(kept) >= 4 and rng.random() < 0.6:  # move one chunk: "... X Y ..." -> "X Y ... ..."
        cut = rng.randint(1, len(kept) - 2)
        kept = kept[cut:] + kept[:cut] if rng.random() < 0.5 else _swap(kept, rng)
    return " ".join(kept).strip(" ,;:.")


def _swap(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    for _ in range(max(1, len(out) // 5)):
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return out


def fragments(text: str, rng: random.Random, n: int) -> list[str]:
    """``n`` short non-overlapping CJK fragments (2-6 characters) in text order: the way Gaokao
    look-ups name a topic ("果蝇 长翅残翅 灰体黑檀体")."""
    runs = [(m.start(), m.group(0)) for m in re.finditer(r"[\u3400-\u9fff]{2,}", text)]
    if not runs:
        return [text[:12]]
    taken: list[tuple[int, int]] = []
    for _ in range(n * 4):
        if len(taken) >= n:
            break
        offset, run = runs[rng.randrange(len(runs))]
        size = min(len(run), rng.randint(2, 6))
        start = offset + rng.randint(0, len(run) - size)
        if all(start + size <= a or start >= b for a, b in taken):
            taken.append((start, start + size))
    return [text[a:b] for a, b in sorted(taken)]


def keywords(text: str, rng: random.Random, n: int = 4) -> str:
    """3-5 content words in text order (the longest ones, a proxy for rare ones)."""
    if is_cjk(text):
        return " ".join(fragments(text, rng, n))
    words = [w.strip(".,;:?!()\"'$") for w in _WORD.findall(text)]
    content = [(i, w) for i, w in enumerate(words) if len(w) > 3 and w.lower() not in STOP and w.isascii() or len(w) > 5]
    if not content:
        return " ".join(words[:n])
    ranked = sorted(content, key=lambda p: (-len(p[1]), p[0]))[: n + 2]
    chosen = sorted(rng.sample(ranked, min(len(ranked), n)))
    return " ".join(w for _, w in chosen)


def normalise(text: str) -> str:
    """Twin detection key: letters and digits only, lower case."""
    return re.sub(r"[\W_]+", "", text.lower())
