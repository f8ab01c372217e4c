"""One function per kind of generated query; each returns a case in the CERB case schema.

Gold-scope conventions (curriculum README "Case schema"; the style of ``cases.dev.jsonl``):

* ``subject`` is always the item's true subject, whatever subject the query names
  (wrong-subject phrasing keeps the true one); two items of two subjects -> a list.
* ``level`` is the item's true level, omitted when the query cannot determine it: verbatim
  twins at several levels (AMC 10/12) without a paper named, and grade-school science
  items (ARC, filed by grade but asked in the same words at several grades) unless the
  query states the grade or names the paper.
* ``content_type`` is the item's (or its marking chunk's); omitted when a query asks for
  the question *and* its solution.
* ``year`` / ``session`` / ``paper`` / ``question_number`` only when the query cites them
  (a cited paper brings its session and level).
* relaxation: the scope as asked (a year the paper was not sat, a level or content type the
  corpus lacks for that subject), ``relaxed_scope`` the nearest real one, labels inside it.
* abstention: a pure look-up of a paper, year or item that does not exist; no labels.
"""

from __future__ import annotations

import random
from typing import Any

from tools.gate import query_forms as qf
from tools.gate import query_text as qt
from tools.gate.corpus_items import CorpusIndex, Item

FIELDS = ("subject", "level", "year", "session", "paper", "content_type", "question_number")
Case = dict[str, Any]


def cue_lang(item: Item, rng: random.Random) -> str:
    if item.lang != "en":
        return item.lang if rng.random() < 0.75 else "en"
    return "en" if rng.random() < 0.8 else rng.choice(["fr", "de", "es", "zh"])


def level_known(idx: CorpusIndex, item: Item, stated: bool, paper_cited: bool) -> bool:
    if stated or paper_cited:
        return True
    if item.source == "arc":
        return False
    return len(idx.twin_levels(item)) == 1


def gold(item: Item, *, level: bool, cite: tuple[str, ...] = (), content_type: str | None = "item") -> dict:
    m = item.meta
    scope = {f: None for f in FIELDS}
    scope["subject"] = m["subject"]
    scope["level"] = m["level"] if level else None
    scope["content_type"] = m["content_type"] if content_type == "item" else content_type
    for name in cite:
        scope[name] = m[name]
    if "paper" in cite and m.get("session"):
        scope["session"] = m["session"]
    return scope


def relevant_for(idx: CorpusIndex, ids: list[str], scope: dict) -> dict[str, int]:
    """The items themselves and their verbatim twins, where the twin is inside the scope."""
    out: dict[str, int] = {}
    for doc_id in ids:
        for twin in idx.twin_of.get(doc_id, (doc_id,)):
            if twin == doc_id or admits(idx.meta(twin), scope):
                out[twin] = 2
    return out


def admits(meta: dict, scope: dict) -> bool:
    for name, value in scope.items():
        if value is None:
            continue
        if meta.get(name) not in (value if isinstance(value, list) else [value]):
            return False
    return True


def cue_text(lang: str, text: str, rng: random.Random, *, subject: str | None = None, level: str | None = None,
             content: str | None = None) -> str:
    """Put subject / level / content-type cue phrases around ``text`` in ``lang``."""
    subj = rng.choice(qf.SUBJECTS[lang][subject]) if subject else ""
    lvl = qf.level_phrase(level, lang, rng) if level else ""
    ct = rng.choice(qf.CONTENT[content][lang]) if content else ""
    if lang == "zh":
        head = f"{lvl}{subj}{ct}"
        return rng.choice([f"{head} {text}", f"{text} 这道{head}" if head else text, f"{head}：{text}"]).strip(" ：")
    if lang == "en":
        head = " ".join(p for p in (lvl, subj, ct) if p)
        forms = [f"{head}: {text}", f"{text} ({head})", f"{head} - {text}"] + ([f"I need a {head} about {text}"] if ct else [])
    else:
        join = {"fr": " de ", "de": " ", "es": " de "}[lang]
        head = (ct + join + subj if ct and subj else ct or subj) + (f" ({lvl})" if lvl else "")
        forms = [f"{head} : {text}" if lang == "fr" else f"{head}: {text}", f"{text} ({head})"]
    return rng.choice(forms).strip(" :-()") if head else text


def lookup_text(item: Item, lang: str, rng: random.Random, *, year: int | None, qn: int | None,
                paper: str | None = None) -> str:
    paper_txt = qf.paper_phrase(paper or item.meta["paper"], lang, rng)
    year_txt = qf.year_phrase(year, lang, rng) if year else ""
    qn_txt = qf.question_number_phrase(qn, "zh" if lang == "zh" and "卷" in paper_txt else lang, rng) if qn else ""
    if "卷" in paper_txt or lang == "zh":
        return "".join(p for p in (year_txt, paper_txt, qn_txt) if p)
    parts = rng.choice([[year_txt, paper_txt, qn_txt], [paper_txt, year_txt, qn_txt], [paper_txt, qn_txt, f"({year})" if year else ""]])
    return " ".join(p for p in parts if p)


def topic(item: Item, rng: random.Random) -> str:
    return rng.choice([qt.paraphrase, qt.keywords])(item.stem, rng)


def make_case(kind: str, query: str, scope: dict, relevant: dict[str, int], *, slice_: str, task: str,
              items: list[str], empty: bool = False, relaxed: dict | None = None, notes: str = "") -> Case:
    return {"case_id": "", "query": " ".join(query.split()), "slice": slice_, "task_type": task, "scope": scope,
            "relevant": relevant, "expect_empty_scope": empty, "relaxed_scope": relaxed, "split_group": "",
            "notes": notes, "kind": kind, "_items": items}


def slice_of(item: Item, lang: str, default: str | None = None) -> str:
    if default:
        return default
    if item.lang != "en" or lang != "en":
        return "bilingual"
    if "tabular" in item.text or "\\hline" in item.text or " | " in item.text:
        return "table"
    if item.source in ("amc",) or (item.source == "gaokao_bench" and item.meta["subject"] == "mathematics"):
        return "formula"
    if item.source in ("gaokao_bench", "openstax_physics", "ccss"):
        return "structured"
    return "mcq"


def cited(item: Item) -> bool:
    return qf.citable(item.meta.get("paper")) and bool(item.meta.get("year"))
