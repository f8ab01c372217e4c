"""Question-boundary markers in several languages, and the choice of the paper's real numbering.

Markers (issue 11: ``1``, ``1(a)``, ``(ii)``, ``Question 3``, ``Q3``, ``3.``, ``Exercice 2``,
``Aufgabe 2``, ``Ejercicio 2``, ``第3题`` "and the like") are read at the start of a block,
after NFKC (so ``１．`` is ``1.`` and ``（1）`` is ``(1)``). Three families compete:

* ``word``: a question word and a number — Question/Q/Problem/Exercise/Item/Task (en),
  Exercice/Question n°/Problème (fr), Aufgabe/Frage/Übung (de), Ejercicio/Pregunta/Problema
  (es), and the answer words of mark schemes (Solution, Answer, Lösung, Réponse, Solución...);
* ``cjk``: 第3题 / 第三题 / 第 3 小问 is a sub-part;
* ``num``: ``3.``, ``3)``, ``3、``, ``3(a)``, ``3 (a)``, and a bare number followed by a tab
  or a wide gap (Cambridge-style ``1   Explain...``; *weak*: a gap in the numbering costs it twice as much).

Numbered lists inside a question, numbered cover-page instructions and stray line starts
also look like markers, so the real numbering is chosen by :func:`select_chain`: the
increasing chain of numbers with the best score, where each question counts +1, a gap in
the numbering costs a little (released-item booklets keep their original, gapped numbers:
curriculum SOURCES.md, ARC), and every same-family marker the chain skips *after its start*
costs 0.5 (a marker inside a question is suspicious; one before the first question is
preamble, such as the instructions on a cover page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_NUMBER = 300
_WORDS = (
    "question|q|problem|exercise|item|task|solution|answer|"
    "exercice|problème|probleme|réponse|reponse|corrigé|corrige|"
    "aufgabe|frage|übung|ubung|lösung|losung|"
    "ejercicio|pregunta|problema|solución|solucion|respuesta"
)
_WORD_MARKER = re.compile(
    rf"^(?:{_WORDS})\s*(?:n[°o]\s*|no\.?\s*|nr\.?\s*|núm\.?\s*|#\s*)?[.:]?\s*(?P<n>\d{{1,3}})(?!\d|[.,]\d)"
    r"\s*(?P<part>\((?:[a-z]|[ivx]{1,5}|\d{1,2})\))?", re.IGNORECASE,
)
_CN_DIGITS = "〇一二三四五六七八九"
_CJK_MARKER = re.compile(r"^第\s*(?P<n>\d{1,3}|[一二三四五六七八九十百〇]{1,4})\s*(?P<unit>题|題|问|問|小题)")
_NUM_MARKER = re.compile(
    r"^(?P<n>\d{1,3})(?:\s*(?P<sep>[.．、)](?!\d))|\s*(?P<part>\((?:[a-z]|[ivx]{1,5})\))|(?P<gap>\t| {2,}))"
)
#: A bare number set off as a label (bold, or in its own cell): treated as "N<TAB>".
BARE_LABEL = re.compile(r"^\d{1,3}$")
_SUBPART = re.compile(r"^(?:\((?P<a>[a-z]|[ivx]{1,5}|\d{1,2})\)|(?P<b>[a-z]|[ivx]{1,5})\)|(?P<c>[①-⑳]))")
_CELL_NUMBER = re.compile(r"^(?:(?:q|question)\s*)?(?P<n>\d{1,3})\s*(?P<part>(?:\(\w{1,5}\))*)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Marker:
    """A question marker found at the start of a block."""

    number: int
    family: str          # "word" | "cjk" | "num" | "cell"
    weak: bool = False   # bare number: only accepted as the next number of the chain
    part: str | None = None
    text: str = ""


def chinese_number(text: str) -> int | None:
    """'三' -> 3, '十二' -> 12, '二十' -> 20, '12' -> 12."""
    if text.isdigit():
        return int(text)
    if text in ("十",):
        return 10
    if "十" in text:
        tens, _, ones = text.partition("十")
        t = _CN_DIGITS.index(tens) if tens else 1
        o = _CN_DIGITS.index(ones) if ones else 0
        return t * 10 + o
    if len(text) == 1 and text in _CN_DIGITS:
        return _CN_DIGITS.index(text)
    return None


def find_marker(text: str) -> Marker | None:
    """The question marker at the start of ``text``, if any."""
    head = text.lstrip()[:60]
    if not head:
        return None
    m = _WORD_MARKER.match(head)
    if m:
        return _marker(int(m.group("n")), "word", m, part=m.group("part"))
    m = _CJK_MARKER.match(head)
    if m and m.group("unit") != "小题":
        n = chinese_number(m.group("n"))
        return _marker(n, "cjk", m) if n else None
    m = _NUM_MARKER.match(head)
    if m:
        weak = bool(m.group("gap"))
        return _marker(int(m.group("n")), "num", m, part=m.group("part"), weak=weak)
    return None


def find_cell_marker(cell: str) -> Marker | None:
    """A question number in the first cell of a mark-scheme table row (``1``, ``2(a)(ii)``, ``Q3``)."""
    m = _CELL_NUMBER.match(cell.strip())
    if not m:
        return None
    return _marker(int(m.group("n")), "num", m, part=m.group("part") or None)  # same numbering as "1." items


def find_subpart(text: str) -> str | None:
    """The sub-part label at the start of ``text``: ``(a)``, ``(ii)``, ``b)``, ``(1)``, ``①``."""
    m = _SUBPART.match(text.lstrip())
    if not m:
        return None
    return m.group("a") or m.group("b") or m.group("c")


def _marker(n: int | None, family: str, m: re.Match, *, part: str | None = None, weak: bool = False) -> Marker | None:
    if n is None or not 0 < n <= MAX_NUMBER:
        return None
    return Marker(number=n, family=family, weak=weak, part=part, text=m.group(0).strip())


SKIP_COST = {False: 0.5, True: 0.25}
GAP_COST = 0.1
MAX_GAP_COST = 0.8
WEAK_START_COST = 0.5


def select_chain(candidates: list[Marker]) -> list[int]:
    """Indices (into ``candidates``) of the markers that are the paper's question starts.

    Candidates of each family are scored separately (see the module docstring) and the
    best family's chain wins; ties go to the chain that starts later (a restart at 1
    after a numbered preamble).
    """
    best: tuple[float, int, list[int]] = (0.0, -1, [])
    for family in ("word", "cjk", "num"):
        idx = [i for i, c in enumerate(candidates) if c.family == family]
        if not idx:
            continue
        score, chain = _best_chain([candidates[i] for i in idx])
        picked = [idx[k] for k in chain]
        if chain and (score > best[0] + 1e-9 or (abs(score - best[0]) <= 1e-9 and picked[0] > best[1])):
            best = (score, picked[0], picked)
    return best[2]


def _best_chain(items: list[Marker]) -> tuple[float, list[int]]:
    n = len(items)
    score = [0.0] * n
    prev = [-1] * n
    start = [0] * n
    skip_after = [0.0] * (n + 1)  # cost of skipping items[k:], suffix sums
    for k in range(n - 1, -1, -1):
        skip_after[k] = skip_after[k + 1] + SKIP_COST[items[k].weak]
    for j, cur in enumerate(items):
        score[j] = 1.0 - GAP_COST * min(cur.number - 1, 5) - (WEAK_START_COST if cur.weak and cur.number != 1 else 0.0)
        start[j] = j
        for i in range(j):
            before = items[i]
            gap = cur.number - before.number - 1
            if gap < 0:
                continue
            skipped = skip_after[i + 1] - skip_after[j]
            gap_cost = GAP_COST * (2 if cur.weak else 1)
            value = score[i] + 1.0 - min(gap_cost * gap, MAX_GAP_COST) - skipped
            if value > score[j] + 1e-9 or (abs(value - score[j]) <= 1e-9 and start[i] > start[j]):
                score[j], prev[j], start[j] = value, i, start[i]
    best_j, best_total = -1, 0.0
    for j in range(n):
        total = score[j] - skip_after[j + 1]
        if best_j < 0 or total > best_total + 1e-9 or (abs(total - best_total) <= 1e-9 and start[j] > start[best_j]):
            best_j, best_total = j, total
    chain: list[int] = []
    while best_j >= 0:
        chain.append(best_j)
        best_j = prev[best_j]
    return best_total, chain[::-1]
