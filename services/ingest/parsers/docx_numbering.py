"""Word automatic numbering: the label ("1.", "(a)", "ii)") a numbered paragraph shows.

Why: in ``numbering.xml`` a paragraph's ``w:numPr`` (``numId``, ``ilvl``) points to an
abstract numbering whose level has a ``numFmt`` (decimal, lowerLetter, lowerRoman...) and
an ``lvlText`` template such as ``%1.`` or ``(%2)``; the number itself is a running counter
per list and level, reset when a higher level advances (ECMA-376 Part 1, 17.9). The
common formats are implemented; others fall back to decimal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docx.oxml.ns import qn

_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def _roman(n: int) -> str:
    out = ""
    for value, letters in _ROMAN:
        while n >= value:
            out += letters
            n -= value
    return out


def format_number(n: int, fmt: str) -> str:
    if fmt == "lowerLetter":
        return chr(ord("a") + (n - 1) % 26)
    if fmt == "upperLetter":
        return chr(ord("A") + (n - 1) % 26)
    if fmt == "lowerRoman":
        return _roman(n)
    if fmt == "upperRoman":
        return _roman(n).upper()
    if fmt in ("bullet", "none"):
        return ""
    return str(n)


@dataclass
class _Level:
    fmt: str = "decimal"
    text: str = "%1."
    start: int = 1


@dataclass
class Numbering:
    levels: dict[str, dict[int, _Level]] = field(default_factory=dict)   # numId -> ilvl -> level
    counters: dict[str, dict[int, int]] = field(default_factory=dict)

    @classmethod
    def from_document(cls, document) -> "Numbering":  # type: ignore[no-untyped-def]
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return cls()
        abstract: dict[str, dict[int, _Level]] = {}
        for an in root.iter(qn("w:abstractNum")):
            levels = {}
            for lvl in an.iter(qn("w:lvl")):
                fmt = lvl.find(qn("w:numFmt"))
                text = lvl.find(qn("w:lvlText"))
                start = lvl.find(qn("w:start"))
                levels[int(lvl.get(qn("w:ilvl")))] = _Level(
                    fmt.get(qn("w:val")) if fmt is not None else "decimal",
                    text.get(qn("w:val")) if text is not None else "%1.",
                    int(start.get(qn("w:val"))) if start is not None else 1,
                )
            abstract[an.get(qn("w:abstractNumId"))] = levels
        nums = {}
        for num in root.iter(qn("w:num")):
            ref = num.find(qn("w:abstractNumId"))
            if ref is not None:
                nums[num.get(qn("w:numId"))] = abstract.get(ref.get(qn("w:val")), {})
        return cls(levels=nums)

    def label(self, paragraph, style=None) -> str:  # type: ignore[no-untyped-def]
        """The label Word would show before ``paragraph`` ('' when it is not numbered); ``style`` is
        the paragraph's style object, whose ``numPr`` applies when the paragraph has none."""
        num_id, ilvl = _num_pr(paragraph, style)
        if num_id is None or num_id == "0" or num_id not in self.levels:
            return ""
        levels = self.levels[num_id]
        level = levels.get(ilvl)
        if level is None or level.fmt in ("bullet", "none"):
            return ""
        counters = self.counters.setdefault(num_id, {})
        counters[ilvl] = counters.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]
        text = level.text
        for k in range(ilvl + 1):
            lv = levels.get(k, _Level())
            text = text.replace(f"%{k + 1}", format_number(counters.get(k, lv.start), lv.fmt))
        return text.strip()


def _num_pr(paragraph, style) -> tuple[str | None, int]:  # type: ignore[no-untyped-def]
    p_pr = paragraph._p.pPr
    num_pr = p_pr.numPr if p_pr is not None else None
    if num_pr is None and style is not None:
        style_ppr = style.element.pPr
        num_pr = style_ppr.numPr if style_ppr is not None else None
    if num_pr is None or num_pr.numId is None:
        return None, 0
    ilvl = num_pr.ilvl.val if num_pr.ilvl is not None else 0
    return str(num_pr.numId.val), int(ilvl)
