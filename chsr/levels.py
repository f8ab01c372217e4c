"""The curriculum's levels on one grade line, in one place.

The curriculum README's relaxation target is the *nearest* scope ("nearest grade"). Nearness of two
levels is measured here: each level covers a span of grades (K = 0), a band covers its grades
(elementary K-5, high school 9-12) and college lies past grade 12, next to the high-school band and one
step further from any single grade (an MMLU college item relaxes to high school, not to a grade-12
national paper). The gate's ladder widens by it; the generated query set labels its relaxations by it.
"""

from __future__ import annotations

from typing import Iterable

#: Where each level sits on the grade line (K = 0).
LEVEL_SPAN: dict[str, tuple[int, int]] = {"grade_k": (0, 0), **{f"grade_{n}": (n, n) for n in range(1, 13)},
                                          "elementary": (0, 5), "high_school": (9, 12), "college": (13, 13)}


def grade_level(n: int) -> str:
    """The level of grade ``n`` on the grade line (0 = kindergarten)."""
    return "grade_k" if n == 0 else f"grade_{n}"


def level_distance(a: str, b: str) -> int | None:
    """Grades between the nearest grades ``a`` and ``b`` cover (0 when they overlap: a grade and its band);
    ``None`` for a level off the grade line."""
    if a not in LEVEL_SPAN or b not in LEVEL_SPAN:
        return None
    (a_low, a_high), (b_low, b_high) = LEVEL_SPAN[a], LEVEL_SPAN[b]
    gap = max(0, b_low - a_high, a_low - b_high)
    return gap + 1 if "college" in (a, b) and (a.startswith("grade_") or b.startswith("grade_")) else gap


def levels_within(level: str, distance: int) -> tuple[str, ...]:
    """Every level within ``distance`` grades of ``level``, the level itself first (0 = the level and the
    bands or grades it overlaps: grade 10 -> high school, elementary -> K-5); an unknown level alone."""
    if level not in LEVEL_SPAN:
        return (level,)
    return (level, *(lv for lv in LEVEL_SPAN if lv != level and level_distance(level, lv) <= distance))


def nearest_levels(held: Iterable[str], asked: Iterable[str]) -> tuple[str, ...]:
    """The ``held`` levels nearest any ``asked`` level (ties kept, in grade-line order, except that a tie across
    a band's edge keeps the side in the asked level's band); () when none is on the grade line. The gate's
    relaxation and the query generator's labels both measure "nearest" with this."""
    asked = tuple(asked)
    distances: dict[str, int] = {}
    for lv in held:
        found = [d for a in asked if (d := level_distance(lv, a)) is not None]
        if found:
            distances[lv] = min(found)
    if not distances:
        return ()
    best = min(distances.values())
    tied = [lv for lv, d in distances.items() if d == best]
    # A tie across a band's edge stays in the asked level's band (grade 9 between AMC 8 and AMC 10 -> grade 10:
    # both high school); a level in no band (grades 6-8) keeps both sides.
    same_band = [lv for lv in tied if any(_in_band(lv, band) for a in asked for band in _bands_of(a))]
    if same_band and len(same_band) < len(tied):
        tied = same_band
    return tuple(sorted(tied, key=lambda lv: (LEVEL_SPAN[lv], lv)))


#: How near (``level_distance``) a level must lie to the asked one for material in the wanted language there to come
#: before material in another language at a nearer level: the gate's asked-language rung
#: (``services.gate.nearest.with_language_level``) and the gateway's other-language rung (``gateway.ontopic``).
NEAR_GRADES = 2


#: The bands of the grade line (the curriculum README's: elementary K-5, high school 9-12).
BANDS: tuple[str, ...] = ("elementary", "high_school")


def _bands_of(level: str) -> tuple[str, ...]:
    return tuple(b for b in BANDS if level != b and level in LEVEL_SPAN and _in_band(level, b))


def _in_band(level: str, band: str) -> bool:
    (low, high), (b_low, b_high) = LEVEL_SPAN[level], LEVEL_SPAN[band]
    return b_low <= low and high <= b_high
