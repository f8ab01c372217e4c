"""Generate a scope-labelled query set from the curriculum corpus itself (issue 14, item 1).

    python -m tools.gate.generate_queries --corpus ../shared/data/curriculum/corpus.jsonl \
        --out benchmarks/cerb-generalisation/generated.jsonl [--seed 14] [--scale 1.0]

Each case is made from one item (two for cross-subject cases) and carries the item's gold
scope under the conventions in ``query_kinds.py``. The set exists so the gate can be fitted
and measured on thousands of queries it was not shaped on; the 132 dev cases are only a
check. Deterministic: one ``random.Random(seed)``, items visited in sorted order.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from tools.gate import query_forms as qf
from tools.gate import query_text as qt
from tools.gate.corpus_items import CorpusIndex
from tools.gate.query_kinds import (Case, cited as _cited, cue_lang, cue_text, gold, level_known, lookup_text,
                                    make_case, relevant_for, slice_of, topic)
from tools.gate.query_kinds_chatty import chatty_lookup as _chatty_lookup
from tools.gate.query_kinds_crosslang import cross_language as _cross_language
from tools.gate.query_kinds_empty import abstain as _abstain, cross_subject_relax as _cross_subject_relax
from tools.gate.query_kinds_empty import relax_content as _relax_content
from tools.gate.query_kinds_empty import relax_level as _relax_level, relax_series as _relax_series
from tools.gate.query_kinds_empty import relax_year as _relax_year
from tools.gate.query_kinds_requests import relax_table_level as _relax_table_level
from tools.gate.query_kinds_requests import table_request as _table_request
from tools.gate.query_kinds_requests import wrong_subject_marking as _wrong_subject_marking
from tools.gate.query_kinds_requests import wrong_subject_paper as _wrong_subject_paper
from tools.gate.query_kinds_requests import wrong_subject_table as _wrong_subject_table

KIND_COUNTS = {"quote": 600, "quote_cue": 650, "para": 450, "para_cue": 500, "keywords": 350, "lookup": 500,
               "lookup_paper": 300, "lookup_year": 150, "solution": 400, "qa_pair": 150, "wrong_subject": 400,
               "cross_subject": 200, "relax_year": 150, "relax_level": 150, "relax_content": 150, "abstain": 150,
               "relax_series": 150, "table_request": 250, "wrong_subject_paper": 200,
               "relax_table_level": 100, "cross_language": 250, "wrong_subject_table": 150,
               "wrong_subject_marking": 150, "cross_subject_relax": 100,
               # round 15, appended so every earlier kind's cases stay as they were (one random stream)
               "chatty_lookup": 300}


def _text_case(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng)
    if item is None:
        return None
    lang = cue_lang(item, rng) if kind.endswith("_cue") or kind == "keywords" else item.lang
    text = {"quote": qt.quote, "para": qt.paraphrase, "keywords": qt.keywords}[kind.removesuffix("_cue")](item.stem, rng)
    cues = {"subject": rng.random() < 0.6, "level": rng.random() < 0.45, "content": rng.random() < 0.5}
    if kind.endswith("_cue") and not any(cues.values()):
        cues[rng.choice(list(cues))] = True
    if not kind.endswith("_cue") and kind != "keywords":
        cues = dict.fromkeys(cues, False)
    m = item.meta
    query = cue_text(lang, text, rng, subject=m["subject"] if cues["subject"] else None,
                     level=m["level"] if cues["level"] else None, content=m["content_type"] if cues["content"] else None)
    scope = gold(item, level=level_known(idx, item, cues["level"], False))
    return make_case(kind, query, scope, relevant_for(idx, [item.id], scope), slice_=slice_of(item, lang),
                     task="exact", items=[item.id])


def _lookup(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    numbered = kind == "lookup"
    item = idx.pick(rng, lambda i: _cited(i) and (not numbered or i.meta.get("question_number")))
    if item is None:
        return None
    lang = cue_lang(item, rng)
    m = item.meta
    if kind == "lookup_year":  # "2018 高考化学 <topic>": a year and a board, no paper
        if item.source != "gaokao_bench":
            return None
        subj = rng.choice(qf.SUBJECTS["zh"][m["subject"]])
        query = rng.choice([f"{m['year']}年高考{subj} {topic(item, rng)}", f"高考{subj} {m['year']} {topic(item, rng)}",
                            f"gaokao {rng.choice(qf.SUBJECTS['en'][m['subject']])} {m['year']}: {topic(item, rng)}"])
        scope = gold(item, level=True, cite=("year",))
        return make_case(kind, query, scope, relevant_for(idx, [item.id], scope), slice_=slice_of(item, lang),
                         task="exact", items=[item.id])
    head = lookup_text(item, lang, rng, year=m["year"], qn=m["question_number"] if numbered else None)
    tail = topic(item, rng) if (not numbered or rng.random() < 0.6) else ""
    query = f"{head} {rng.choice(['', ': ', '- ', ', '])}{tail}" if tail else head
    cite = ("year", "paper", "question_number") if numbered else ("year", "paper")
    scope = gold(item, level=True, cite=cite)
    return make_case(kind, query, scope, relevant_for(idx, [item.id], scope), slice_=slice_of(item, lang),
                     task="exact", items=[item.id])


def _solution(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng, lambda i: bool(i.marking), sources=("amc", "gaokao_bench"))
    if item is None:
        return None
    mark_id = rng.choice(item.marking)
    ct = idx.meta(mark_id)["content_type"]
    lang = cue_lang(item, rng)
    m = item.meta
    by_paper = _cited(item) and rng.random() < 0.6
    if by_paper:
        qn = m["question_number"] if rng.random() < 0.8 else None
        ref = lookup_text(item, lang, rng, year=m["year"], qn=qn)
        cite = ("year", "paper") + (("question_number",) if qn else ())
        ref = f"{ref} {topic(item, rng)}" if rng.random() < 0.4 or "question_number" not in cite else ref
    else:
        ref, cite = topic(item, rng), ()
    if kind == "qa_pair":
        ask = rng.choice({"zh": ["题目和解析", "题目加参考答案", "完整题目和答案"], "en": ["problem + solution", "question and its solution",
                          "the problem with the worked answer"]}.get(lang, ["question + solution"]))
        query = f"{ref} {ask}" if rng.random() < 0.6 else f"{ask}: {ref}"
        scope = gold(item, level=level_known(idx, item, False, by_paper), cite=cite, content_type=None)
        rel = relevant_for(idx, [item.id, mark_id], scope)
        return make_case(kind, query, scope, rel, slice_="mark_scheme", task="synthesis", items=[item.id])
    phrase = rng.choice(qf.CONTENT[ct if rng.random() < 0.7 else "solution"][lang])
    query = rng.choice([f"{phrase} for {ref}" if lang == "en" else f"{ref} {phrase}", f"{ref} {phrase}", f"{phrase}: {ref}"])
    scope = gold(item, level=level_known(idx, item, False, by_paper), cite=cite, content_type=ct)
    return make_case(kind, query, scope, relevant_for(idx, [mark_id], scope), slice_="mark_scheme", task="exact",
                     items=[item.id])


def _wrong_subject(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng, lambda i: i.source != "ccss")
    if item is None:
        return None
    lang = cue_lang(item, rng)
    named = rng.choice(qf.CONFUSERS[item.meta["subject"]])
    text = rng.choice([qt.quote, qt.paraphrase])(item.stem, rng)
    stated_level = rng.random() < 0.3
    query = cue_text(lang, text, rng, subject=named, level=item.meta["level"] if stated_level else None,
                     content=item.meta["content_type"] if rng.random() < 0.5 else None)
    scope = gold(item, level=level_known(idx, item, stated_level, False))
    return make_case(kind, query, scope, relevant_for(idx, [item.id], scope), slice_=slice_of(item, lang),
                     task="adversarial", items=[item.id], notes=f"names {named}")


def _cross(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    a = idx.pick(rng, lambda i: i.lang == "en")
    b = idx.pick(rng, lambda i: a is not None and i.lang == "en" and i.meta["subject"] != a.meta["subject"]
                 and (i.meta["level"] == a.meta["level"] or rng.random() < 0.3))
    if a is None or b is None:
        return None
    sa, sb = a.meta["subject"], b.meta["subject"]
    names = [rng.choice(qf.SUBJECTS["en"][s]) for s in (sa, sb)]
    same_level = a.meta["level"] == b.meta["level"] and level_known(idx, a, False, False) and level_known(idx, b, False, False)
    lvl = qf.level_phrase(a.meta["level"], "en", rng) + " " if same_level and rng.random() < 0.5 else ""
    query = rng.choice([f"{lvl}{names[0]} + {names[1]}: {qt.keywords(a.stem, rng)} and {qt.keywords(b.stem, rng)}",
                        f"{qt.paraphrase(a.stem, rng)} ({names[0]}) plus {qt.keywords(b.stem, rng)} in {lvl}{names[1]}"])
    scope = gold(a, level=same_level or bool(lvl), content_type=a.meta["content_type"] if a.meta["content_type"] == b.meta["content_type"] else None)
    scope["subject"] = [sa, sb]
    return make_case(kind, query, scope, relevant_for(idx, [a.id, b.id], scope), slice_="cross_subject",
                     task="synthesis", items=[a.id, b.id])


BUILDERS = {"quote": _text_case, "quote_cue": _text_case, "para": _text_case, "para_cue": _text_case,
            "keywords": _text_case, "lookup": _lookup, "lookup_paper": _lookup, "lookup_year": _lookup,
            "solution": _solution, "qa_pair": _solution, "wrong_subject": _wrong_subject, "cross_subject": _cross,
            "relax_year": _relax_year, "relax_level": _relax_level, "relax_content": _relax_content, "abstain": _abstain,
            "relax_series": _relax_series, "table_request": _table_request,
            "wrong_subject_paper": _wrong_subject_paper, "relax_table_level": _relax_table_level,
            "cross_language": _cross_language, "wrong_subject_table": _wrong_subject_table,
            "wrong_subject_marking": _wrong_subject_marking, "cross_subject_relax": _cross_subject_relax,
            "chatty_lookup": _chatty_lookup}


def generate(idx: CorpusIndex, seed: int = 14, scale: float = 1.0) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = []
    seen: set[str] = set()
    for kind, count in KIND_COUNTS.items():
        made, tries = 0, 0
        while made < round(count * scale) and tries < count * 20:
            tries += 1
            case = BUILDERS[kind](idx, rng, kind)
            if case is None or len(case["query"]) < 8 or case["query"] in seen:
                continue
            seen.add(case["query"])
            made += 1
            case["case_id"] = f"gen_{kind}.{made:05d}"
            cases.append(case)
    _assign_groups(cases, idx)
    return cases


def _assign_groups(cases: list[Case], idx: CorpusIndex) -> None:
    """split_group = the smallest case_id of the cases linked by a shared item (or twin)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for case in cases:
        keys = [min(idx.twin_of.get(i, (i,))) for i in case["_items"]] or [case["case_id"]]
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
        case["_key"] = keys[0]
    first: dict[str, str] = {}
    for case in sorted(cases, key=lambda c: c["case_id"]):
        first.setdefault(find(case["_key"]), case["case_id"])
    for case in cases:
        case["split_group"] = first[find(case.pop("_key"))]
        case.pop("_items")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every kind's count")
    args = ap.parse_args(argv)
    cases = generate(CorpusIndex.load(args.corpus), args.seed, args.scale)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{len(cases)} cases -> {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    for key in ("kind", "slice", "task_type"):
        print(key, dict(Counter(c[key] for c in cases)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
