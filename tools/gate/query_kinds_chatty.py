"""Generated look-ups written the way the blind annotators write them (issue 21, item 1; round 15).

Five annotator sessions that never saw the gate (``benchmarks/cerb-generalisation/authored``) wrote item
look-ups the generator never did: shorthand numbers ("q43", "#14", "p7"), requests around the look-up ("can
someone walk me thru", "有没有人有 ... 原题发一下"), and an aside that names another number or year the student does
*not* want ("(not the 2019 one)", "(第3题我会了)"). Every generated look-up so far was a clean
"<year> <paper> question <n>"; this kind is the same gold (the cited item, its paper, year and number) under that
phrasing, so the generated set measures what the annotators' cases measure. Conventions in ``query_kinds.py``.

Appended after every earlier kind in ``generate_queries.KIND_COUNTS``: the earlier kinds draw from the one random
stream first, so their cases are unchanged.
"""

from __future__ import annotations

import random

from tools.gate import query_forms as qf
from tools.gate.corpus_items import CorpusIndex
from tools.gate.query_kinds import Case, cited, gold, make_case, relevant_for, slice_of, topic

#: Shorthand for item n (English), as the annotators wrote it.
SHORT_NUMBERS = ("q{n}", "Q{n}", "#{n}", "#{n}", "no. {n}", "problem {n}", "p{n}")
#: What a student writes around a look-up, by language: (before, after, asks for the worked solution).
REQUESTS: dict[str, list[tuple[str, str, bool]]] = {
    "en": [("can someone walk me thru", "? stuck on it", True), ("teacher here:", "- pulling it for a lesson", False),
           ("need", "asap", False), ("", "?? thx", False), ("anyone have", "?", False), ("", "", False)],
    "zh": [("有没有人有", "？原题发一下", False), ("求", "谢谢", False), ("请问", "怎么做", True), ("", "求解析", True),
           ("", "", False)],
}
#: An aside naming another number or year the student does not want ({m}: another number, {y}: another year).
ASIDES: dict[str, list[str]] = {
    "en": ["(not the {y} one)", "(not q{m}, that one's fine)", "(i did #{m} already)", "(the {y} paper was easier)"],
    "zh": ["（不是{y}年那套）", "（第{m}题我会了）", "（{y}年的我做过了）"],
}


def chatty_lookup(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    lang = rng.choice(("en", "en", "zh"))
    before, after, solve = rng.choice(REQUESTS[lang])
    sources = ("gaokao_bench",) if lang == "zh" else ()
    item = idx.pick(rng, lambda i: cited(i) and bool(i.meta.get("question_number")) and bool(i.meta.get("year"))
                    and (not solve or bool(i.marking)), sources=sources)
    if item is None:
        return None
    m = item.meta
    n, year = int(m["question_number"]), int(m["year"])
    paper = qf.paper_phrase(m["paper"], lang, rng).removeprefix("the ")
    if lang == "zh":
        number = rng.choice([f"第{n}题", f"{n}题"])
        head = rng.choice([f"{year}{paper}{number}", f"{year % 100:02d}年{paper}{number}", f"{year}年 {paper} {number}"])
    else:
        number = rng.choice(SHORT_NUMBERS).format(n=n)
        head = rng.choice([f"{year} {paper} {number}", f"{paper} {year} {number}", f"{number} from the {year} {paper}"])
    aside = ""
    if rng.random() < 0.5:
        other = rng.choice([k for k in range(max(1, n - 6), n + 7) if k != n])
        aside = rng.choice(ASIDES[lang]).format(m=other, y=year + rng.choice((-2, -1, 1, 2)))
    words = topic(item, rng) if rng.random() < 0.4 else ""
    query = " ".join(p for p in (before, head, words, aside, after) if p)
    target = rng.choice(item.marking) if solve else item.id
    content = idx.meta(target)["content_type"]
    scope = gold(item, level=True, cite=("year", "paper", "question_number"), content_type=content)
    return make_case(kind, query, scope, relevant_for(idx, [target], scope),
                     slice_="mark_scheme" if solve else slice_of(item, lang),
                     task="adversarial" if aside else "exact", items=[item.id],
                     notes=f"aside: {aside}" if aside else "")
