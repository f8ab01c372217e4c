"""Textbook chapters from OpenStax *Physics* (high school): one chapter, its modules as sections."""

from __future__ import annotations

import random
import re

from tools.docgen.corpus_items import Item, clean
from tools.docgen.specs import DocSpec, Section
from tools.docgen.styles import pick_style

_PAPER = re.compile(r"OpenStax Physics \(high school\), Chapter (\d+): (.+?) - (.+)$")


def textbook_chapters(items: list[Item], rng: random.Random, count: int) -> list[DocSpec]:
    chapters: dict[int, dict] = {}
    for item in items:
        if item.meta.get("source") != "openstax_physics":
            continue
        m = _PAPER.match(item.meta.get("paper") or "")
        if not m:
            continue
        number, chapter, module = int(m.group(1)), m.group(2), m.group(3)
        entry = chapters.setdefault(number, {"title": chapter, "modules": {}})
        entry["modules"].setdefault(module, []).append(item)
    out = []
    for number in sorted(rng.sample(sorted(chapters), min(count, len(chapters)))):
        entry = chapters[number]
        sections = []
        for module, module_items in entry["modules"].items():
            for item in module_items:
                sections.append(_section(module, item))
        style = pick_style(rng, "en")
        cover = ["OpenStax", "Physics", "High School", f"Chapter {number}: {entry['title']}", "Rice University"]
        out.append(DocSpec(f"openstax-physics-ch{number:02d}", "textbook", "en", cover,
                           {"exam_board": "OpenStax (Rice University)", "subject": "physics", "level": "high_school",
                            "content_type": "textbook"},
                           f"Chapter {number}: {entry['title']}", "OpenStax Physics", sections=sections, style=style))
    return out


def _section(module: str, item: Item) -> Section:
    lines = [l.strip() for l in item.text.split("\n") if l.strip()]
    heading = lines[0] if lines and len(lines[0]) < 90 else module
    body = lines[1:] if heading == (lines[0] if lines else "") else lines
    section = Section(heading=f"{module}: {heading}" if heading != module else module, corpus_ids=[item.id])
    table: list[list[str]] = []
    for line in body:
        if line.startswith("|"):
            table.append([c.strip() for c in line.strip("|").split("|")])
            continue
        if table:
            section.tables.append(table)
            table = []
        section.paragraphs.append(clean(line))
    if table:
        section.tables.append(table)
    return section
