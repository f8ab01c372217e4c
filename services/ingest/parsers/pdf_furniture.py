"""Running headers, footers and page numbers: found by repetition across pages, then removed.

Why: a running header ("AMC 10A 2019 — Mathematics") or footer ("Turn over", "Page 3 of
8") repeated on every page would otherwise land in the middle of questions and split
sentences (issue 11). The rule is the usual one for page furniture (e.g. Lin, "Header
and footer extraction by page association", SPIE 2003): text in the top or bottom band
of the page that recurs at about the same height on several pages, either verbatim or
with one number that grows with the page (a page number inside the header); lone page
numbers in those bands are removed even on short documents.
"""

from __future__ import annotations

import re
from collections import defaultdict

from services.ingest.parsers.pdf_layout import Segment

ZONE = 0.12           # top and bottom bands, as a fraction of the page height
MIN_PAGES = 2
MIN_FRACTION = 0.3    # of the pages, for a repeated text to count as furniture
Y_TOLERANCE = 6.0     # points
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|página|pagina|pág\.)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?"
    r"(?:\s*(?:/|of|von|de|sur)\s*\d{1,4})?$"
    r"|^第\s*\d{1,4}\s*页(?:\s*[,，]?\s*共\s*\d{1,4}\s*页)?$"
    r"|^[ivxlc]{1,6}$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")


def in_zone(seg: Segment, page_height: float) -> bool:
    return seg.bottom <= ZONE * page_height or seg.top >= (1 - ZONE) * page_height


def find_furniture(pages: list[list[Segment]], heights: list[float]) -> set[int]:
    """``id()`` of every segment that is page furniture (see the module docstring)."""
    needed = max(MIN_PAGES, int(MIN_FRACTION * len(pages) + 0.999))
    hits: dict[tuple[str, str], list[tuple[int, float, Segment]]] = defaultdict(list)
    furniture: set[int] = set()
    for p, (segments, height) in enumerate(zip(pages, heights)):
        for seg in segments:
            if not in_zone(seg, height):
                continue
            text = " ".join(seg.text.split())
            if _PAGE_NUMBER.match(text) and _alone_on_row(seg, segments):
                furniture.add(id(seg))
                continue
            band = "top" if seg.bottom <= ZONE * height else "bottom"
            y = seg.top if band == "top" else height - seg.bottom
            hits[(band, _DIGITS.sub("#", text.lower()))].append((p, y, seg))
    for group in hits.values():
        for same_height in _by_height(group):
            if len({p for p, _, _ in same_height}) >= needed and _numbers_follow_pages(same_height):
                furniture.update(id(seg) for _, _, seg in same_height)
    return furniture


def _alone_on_row(seg: Segment, segments: list[Segment]) -> bool:
    """A page number stands alone on its row; a question number ("1" in a grid) has its text beside it."""
    for other in segments:
        if other is seg:
            continue
        overlap = min(seg.bottom, other.bottom) - max(seg.top, other.top)
        if overlap > 0.5 * min(seg.height, other.height) and other.text.strip():
            return False
    return True


def _by_height(group: list[tuple[int, float, Segment]]) -> list[list[tuple[int, float, Segment]]]:
    clusters: list[list[tuple[int, float, Segment]]] = []
    for hit in sorted(group, key=lambda h: h[1]):
        if clusters and hit[1] - clusters[-1][-1][1] <= Y_TOLERANCE:
            clusters[-1].append(hit)
        else:
            clusters.append([hit])
    return clusters


def _numbers_follow_pages(group: list[tuple[int, float, Segment]]) -> bool:
    """Verbatim repeats, or repeats whose only changing number is the page number plus a constant."""
    numbers = [[int(n) for n in _DIGITS.findall(seg.text)] for _, _, seg in group]
    varying = [k for k in range(len(numbers[0])) if len({tuple(ns)[k] for ns in numbers}) > 1]
    if not varying:
        return True
    if len(varying) > 1:
        return False
    k = varying[0]
    return len({ns[k] - p for ns, (p, _, _) in zip(numbers, group)}) == 1
