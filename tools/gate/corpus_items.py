"""What the query generator needs to know about the corpus (issue 14, item 1).

* items (questions, textbook sections, standards) and their solution / mark-scheme chunks;
* verbatim twins (AMC 10/12 share problems): a query that does not name the paper cannot
  tell them apart, so its gold scope omits the level (curriculum README, "level traps");
* which years each paper was sat and which (subject, level, content type) combinations
  exist, so relaxation and abstention queries ask for scopes that are really empty;
* the split key of an item: its question id, shared with its solution and its twins, so
  cross-validation by ``split_group`` never puts one item on both sides.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from services.gate.corpus_vocabulary import GRADE_PAPER

from tools.gate.query_text import normalise, stem

MARKING_SUFFIXES = (":solution", ":mark_scheme")
SOURCE_WEIGHTS = {"arc": 0.22, "amc": 0.2, "gaokao_bench": 0.22, "mmlu": 0.14, "exams_qa": 0.1,
                  "openstax_physics": 0.07, "ccss": 0.05}


@dataclass
class Item:
    id: str
    meta: dict
    text: str
    stem: str
    key: str = ""
    twins: tuple[str, ...] = ()
    marking: tuple[str, ...] = ()  # ids of this item's solution / mark-scheme chunks

    @property
    def source(self) -> str:
        return self.meta["source"]

    @property
    def lang(self) -> str:
        return self.meta.get("language") or "en"


@dataclass
class CorpusIndex:
    docs: dict[str, dict]
    items: list[Item]
    by_source: dict[str, list[Item]]
    paper_years: dict[str, set[int]]
    combos: set[tuple[str, str, str]]
    corpus_years: tuple[int, int]
    twin_of: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> "CorpusIndex":
        with open(path, encoding="utf-8") as fh:
            docs = {d["_id"]: d for d in (json.loads(line) for line in fh if line.strip())}
        groups: dict[str, list[str]] = defaultdict(list)
        for doc_id, d in docs.items():
            groups[normalise(d["text"])].append(doc_id)
        twin_of = {i: tuple(sorted(g)) for g in groups.values() for i in g}
        marking: dict[str, list[str]] = defaultdict(list)
        for doc_id in docs:
            for suffix in MARKING_SUFFIXES:
                if doc_id.endswith(suffix) and doc_id.removesuffix(suffix) in docs:
                    marking[doc_id.removesuffix(suffix)].append(doc_id)
        items, by_source = [], defaultdict(list)
        paper_years: dict[str, set[int]] = defaultdict(set)
        combos = set()
        years = [d["metadata"]["year"] for d in docs.values() if d["metadata"].get("year")]
        for doc_id in sorted(docs):
            m = docs[doc_id]["metadata"]
            combos.add((m["subject"], m["level"], m["content_type"]))
            if m.get("paper") and m.get("year"):
                paper_years[m["paper"]].add(m["year"])
            if doc_id.endswith(MARKING_SUFFIXES):
                continue
            body = stem(docs[doc_id]["text"], m["source"])
            if len(body) < 12:
                continue
            item = Item(doc_id, m, docs[doc_id]["text"], body, twins=twin_of[doc_id], marking=tuple(sorted(marking[doc_id])))
            item.key = min(item.twins)
            items.append(item)
            by_source[m["source"]].append(item)
        return cls(docs, items, dict(by_source), dict(paper_years), combos, (min(years), max(years)), twin_of)

    def meta(self, doc_id: str) -> dict:
        return self.docs[doc_id]["metadata"]

    def pick(self, rng: random.Random, want=lambda item: True, sources: tuple[str, ...] = ()) -> Item | None:
        """An item drawn by source weight, then uniformly inside the source; ``None`` after 50 misses."""
        names = [s for s in SOURCE_WEIGHTS if (not sources or s in sources) and s in self.by_source]
        weights = [SOURCE_WEIGHTS[s] for s in names]
        for _ in range(50):
            pool = self.by_source[rng.choices(names, weights)[0]]
            item = pool[rng.randrange(len(pool))]
            if want(item):
                return item
        return None

    def twin_levels(self, item: Item) -> set[str]:
        return {self.meta(t)["level"] for t in item.twins}

    @cached_property
    def series_grades(self) -> dict[tuple[str, str, str], dict[int, str]]:
        """(board, subject, paper template) -> {grade: paper} for papers named "<board> Grade N <subject>"."""
        series: dict[tuple[str, str, str], dict[int, str]] = {}
        for item in self.items:
            paper, board = item.meta.get("paper"), item.meta.get("exam_board")
            match = GRADE_PAPER.match(paper or "")
            if match and board and match["n"].isdigit():
                template = f"{match['pre']}{{n}}{match['post']}"
                series.setdefault((board, item.meta["subject"], template), {})[int(match["n"])] = paper
        return series

    def combo_exists(self, subject: str, level: str, content_type: str) -> bool:
        return (subject, level, content_type) in self.combos
