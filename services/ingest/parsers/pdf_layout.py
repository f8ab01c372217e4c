"""Reading order of a PDF page from text-segment geometry: columns, bands, rows.

Why: a PDF stores glyphs in drawing order, which for multi-column pages need not be
reading order (issue 11: "reading order for two-column pages"). The method is the
classic whitespace-gutter analysis (Breuel, "Two Geometric Algorithms for Layout
Analysis", DAS 2002; the "recursive X-Y cut" family): a page is multi-column where a
vertical strip in its middle is (almost) free of *narrow* text segments while enough
text stands on both sides of it; segments that cross the strip (titles, figures'
captions, wide tables) span the columns and cut the page into bands, and each band is
read column by column. Nothing here assumes a particular typesetter or layout.

Coordinates are top-down (``top`` < ``bottom``), in PDF points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

WIDE_FRACTION = 0.6      # a segment this wide (of the text width) spans columns
MIN_GUTTER_PT = 6.0      # narrowest whitespace strip taken as a gutter
MIDDLE = (0.15, 0.85)    # where a gutter may lie, as fractions of the text width
MIN_SIDE_SEGMENTS = 4
MIN_SIDE_EXTENT = 0.25   # each side's text must cover this fraction of the band's height
NOISE_FRACTION = 0.04    # narrow segments allowed to cross a gutter (centred headings)


@dataclass
class Segment:
    """A run of glyphs on one baseline without a wide gap (PDFium chars grouped by the parser)."""

    text: str
    left: float
    top: float
    right: float
    bottom: float
    size: float
    bold: bool = False
    page: int = 1

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass
class Line:
    """Segments of one row of one column, left to right."""

    segments: list[Segment] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\t".join(s.text for s in self.segments)

    @property
    def left(self) -> float:
        return min(s.left for s in self.segments)

    @property
    def right(self) -> float:
        return max(s.right for s in self.segments)

    @property
    def top(self) -> float:
        return min(s.top for s in self.segments)

    @property
    def bottom(self) -> float:
        return max(s.bottom for s in self.segments)

    @property
    def size(self) -> float:
        chars = sum(len(s.text) for s in self.segments) or 1
        return sum(s.size * len(s.text) for s in self.segments) / chars

    @property
    def bold(self) -> bool:
        return all(s.bold for s in self.segments)

    @property
    def page(self) -> int:
        return self.segments[0].page


def reading_order(segments: list[Segment], depth: int = 0) -> list[Line]:
    """Lines in reading order: bands top to bottom, columns left to right inside a band."""
    if not segments:
        return []
    gutter = find_gutter(segments) if depth < 3 else None
    if gutter is None:
        return rows(segments)
    g_left, g_right = gutter
    # a column's justified lines may poke a point or two into the gutter: only a segment that
    # crosses the whole gutter (or sits inside it) spans the columns
    left = [s for s in segments if s.left < g_left and s.right < g_right]
    right = [s for s in segments if s.right > g_right and s.left > g_left]
    spanning = [s for s in segments if not (s.left < g_left and s.right < g_right) and not (s.right > g_right and s.left > g_left)]
    out: list[Line] = []
    cuts = sorted(spanning, key=lambda s: s.top)
    pending_l, pending_r = sorted(left, key=lambda s: s.top), sorted(right, key=lambda s: s.top)
    for row in rows(cuts) + [None]:
        limit = row.top if row is not None else float("inf")
        band_l = [s for s in pending_l if s.middle < limit]
        band_r = [s for s in pending_r if s.middle < limit]
        pending_l = [s for s in pending_l if s.middle >= limit]
        pending_r = [s for s in pending_r if s.middle >= limit]
        out += reading_order(band_l, depth + 1) + reading_order(band_r, depth + 1)
        if row is not None:
            out.append(row)
    return out


def find_gutter(segments: list[Segment]) -> tuple[float, float] | None:
    """The widest (almost) empty vertical strip between two columns of text, or ``None``."""
    x0 = min(s.left for s in segments)
    x1 = max(s.right for s in segments)
    width = x1 - x0
    if width < 4 * MIN_GUTTER_PT:
        return None
    narrow = [s for s in segments if s.width < WIDE_FRACTION * width]
    if len(narrow) < 2 * MIN_SIDE_SEGMENTS:
        return None
    bins = int(width) + 1
    delta = [0] * (bins + 1)
    for s in narrow:
        delta[max(0, int(s.left - x0))] += 1
        delta[min(bins, int(s.right - x0) + 1)] -= 1
    cover, running = [0] * bins, 0
    for b in range(bins):
        running += delta[b]
        cover[b] = running
    allowed = max(1, int(NOISE_FRACTION * len(narrow)))
    lo, hi = int(MIDDLE[0] * width), int(MIDDLE[1] * width)
    best: tuple[int, int] | None = None
    start = None
    for b in range(lo, hi + 1):
        free = b < bins and cover[b] <= allowed
        if free and start is None:
            start = b
        if (not free or b == hi) and start is not None:
            end = b if not free else b + 1
            if best is None or end - start > best[1] - best[0]:
                best = (start, end)
            start = None
    if best is None or best[1] - best[0] < MIN_GUTTER_PT:
        return None
    g_left, g_right = x0 + best[0], x0 + best[1]
    return (g_left, g_right) if _both_sides_full(segments, g_left, g_right) else None


def _both_sides_full(segments: list[Segment], g_left: float, g_right: float) -> bool:
    top = min(s.top for s in segments)
    height = max(s.bottom for s in segments) - top or 1.0
    for side in ([s for s in segments if s.right <= g_left + 0.5], [s for s in segments if s.left >= g_right - 0.5]):
        if len(side) < MIN_SIDE_SEGMENTS:
            return False
        if (max(s.bottom for s in side) - min(s.top for s in side)) / height < MIN_SIDE_EXTENT:
            return False
    return True


def rows(segments: list[Segment]) -> list[Line]:
    """Group segments into rows (vertical overlap of at least half the smaller height), top to bottom."""
    out: list[Line] = []
    for seg in sorted(segments, key=lambda s: (s.top, s.left)):
        if out:
            line = out[-1]
            overlap = min(line.bottom, seg.bottom) - max(line.top, seg.top)
            smaller = min(seg.height, median(s.height for s in line.segments)) or 1.0
            if overlap >= 0.5 * smaller:
                line.segments.append(seg)
                continue
        out.append(Line([seg]))
    for line in out:
        line.segments.sort(key=lambda s: s.left)
    return out
