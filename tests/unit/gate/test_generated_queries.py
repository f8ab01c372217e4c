"""The generated scope-query set (issue 14): deterministic, and its labels obey the case schema's rules."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tools.gate import query_text as qt

pytestmark = pytest.mark.unit

REPO_ROOT = Path(__file__).resolve().parents[3]
CURRICULUM_DIR = Path(os.environ.get("CHSR_CURRICULUM_DIR", REPO_ROOT.parent / "shared" / "data" / "curriculum"))


def test_stem_drops_options_numbers_and_standard_codes():
    item = "Which gas do green plants take in from the air? (A) oxygen (B) carbon dioxide"
    assert qt.stem(item, "arc") == "Which gas do green plants take in from the air?"
    assert qt.stem("Which is a gas? (A) ice (B) steam", "arc") == "Which is a gas? (A) ice (B) steam"  # too short to cut
    assert qt.stem("10. 由实验操作和现象, 可得出相应正确结论的是（ ）A．甲", "gaokao_bench").startswith("由实验操作")
    assert qt.stem("CCSS 4.NF.A.1 (Grade 4) - Number / Fractions: Explain why a fraction a/b is equivalent", "ccss") \
        .startswith("Explain why")


def test_text_forms_are_reproducible_and_come_from_the_item():
    text = "A student measured the temperature of water every minute while heating it on a stove"
    first = [qt.quote(text, random.Random(3)), qt.paraphrase(text, random.Random(3)), qt.keywords(text, random.Random(3))]
    again = [qt.quote(text, random.Random(3)), qt.paraphrase(text, random.Random(3)), qt.keywords(text, random.Random(3))]
    assert first == again
    assert first[0] in text
    assert set(first[2].split()) <= set(text.split())


def test_cjk_fragments_do_not_overlap():
    frags = qt.fragments("果蝇的长翅和残翅灰体和黑檀体是两对相对性状", random.Random(1), 3)
    joined = "".join(frags)
    assert len(joined) == len(set(range(len(joined)))) and all(f in "果蝇的长翅和残翅灰体和黑檀体是两对相对性状" for f in frags)


@pytest.fixture(scope="module")
def generated():
    if not (CURRICULUM_DIR / "corpus.jsonl").is_file():
        pytest.skip(f"curriculum corpus not found at {CURRICULUM_DIR} (set CHSR_CURRICULUM_DIR)")
    from tools.gate.corpus_items import CorpusIndex
    from tools.gate.generate_queries import generate

    idx = CorpusIndex.load(CURRICULUM_DIR / "corpus.jsonl")
    return idx, generate(idx, seed=14, scale=0.05)


def _of_kind(cases: list[dict], kind: str) -> list[dict]:
    found = [c for c in cases if c["case_id"].startswith(f"gen_{kind}.")]
    assert found, kind
    return found


def _inside(meta: dict, scope: dict | None) -> bool:
    for name, value in (scope or {}).items():
        if value is not None and meta.get(name) not in (value if isinstance(value, list) else [value]):
            return False
    return True


@pytest.mark.data
def test_generation_is_deterministic(generated):
    from tools.gate.generate_queries import generate

    idx, cases = generated
    assert generate(idx, seed=14, scale=0.05) == cases
    assert generate(idx, seed=15, scale=0.05) != cases


@pytest.mark.data
def test_labels_follow_the_case_schema(generated):
    idx, cases = generated
    for case in cases:
        assert set(case) >= {"case_id", "query", "slice", "task_type", "scope", "relevant", "expect_empty_scope",
                             "relaxed_scope", "split_group"}
        if case["expect_empty_scope"] and not case["relevant"]:
            assert case["task_type"] == "adversarial"  # abstention: nothing exists to find
            continue
        assert case["relevant"], case["case_id"]
        for doc_id in case["relevant"]:
            meta = idx.meta(doc_id)
            if case["relaxed_scope"]:  # relaxation: every label outside the scope, inside the relaxed scope
                assert not _inside(meta, case["scope"]) and _inside(meta, case["relaxed_scope"]), case["case_id"]
            else:
                assert _inside(meta, case["scope"]), case["case_id"]


@pytest.mark.data
def test_wrong_subject_cases_keep_the_true_subject(generated):
    idx, cases = generated
    for case in _of_kind(cases, "wrong_subject"):
        named = case["notes"].removeprefix("names ")
        assert case["scope"]["subject"] != named
        assert all(idx.meta(d)["subject"] == case["scope"]["subject"] for d in case["relevant"])


@pytest.mark.data
def test_cases_sharing_an_item_share_a_split_group(generated):
    _, cases = generated
    by_target: dict[str, set[str]] = {}
    for case in cases:
        for doc_id in case["relevant"]:
            by_target.setdefault(doc_id.split(":solution")[0].split(":mark_scheme")[0], set()).add(case["split_group"])
    assert all(len(groups) == 1 for groups in by_target.values())


@pytest.mark.data
def test_a_level_relaxation_goes_to_the_nearest_level_the_corpus_holds(generated):
    # curriculum README: relaxed_scope is "the nearest scope a correct system should widen to"
    from chsr.levels import level_distance

    idx, cases = generated
    for case in _of_kind(cases, "relax_level"):
        asked, relaxed = case["scope"]["level"], case["relaxed_scope"]["level"]
        subjects = case["relaxed_scope"]["subject"]
        subjects = subjects if isinstance(subjects, list) else [subjects]
        held = {lv for subject, lv, ct in idx.combos if subject in subjects and ct == case["scope"]["content_type"]
                and (lv in ("elementary", "high_school", "college") or str(lv).startswith("grade_"))}
        best = min(level_distance(asked, lv) for lv in held)
        for lv in relaxed if isinstance(relaxed, list) else [relaxed]:
            assert level_distance(asked, lv) == best, case["case_id"]


@pytest.mark.data
def test_no_level_relaxation_asks_for_a_discipline_where_the_ladder_widens_to_general_science(generated):
    # there the nearest scope is general science at the asked grade (README: "grade 5 physics and chemistry")
    from services.gate.ladder import SCIENCE_DISCIPLINES, widens_to_parent

    idx, sample = generated
    committed = REPO_ROOT / "benchmarks" / "cerb-generalisation" / "generated.jsonl"
    cases = sample + [json.loads(line) for line in committed.read_text(encoding="utf-8").splitlines() if line.strip()]
    for case in _of_kind(cases, "relax_level"):
        scope = case["scope"]
        if scope["subject"] in SCIENCE_DISCIPLINES and widens_to_parent([scope["level"]]):
            assert not idx.combo_exists("science", scope["level"], scope["content_type"]), case["case_id"]


@pytest.mark.data
def test_an_abstention_asks_for_an_item_that_no_paper_of_that_name_holds(generated):
    # "2020全国三卷 文科数学第2小题" names 新课标III and 全国III alike: the item exists if either paper holds it
    idx, cases = generated
    held = {(m.get("paper", "").replace("新课标", "全国"), m.get("year"), m.get("question_number"))
            for m in (idx.meta(d) for d in idx.docs) if m.get("paper")}
    look_ups = [c for c in _of_kind(cases, "abstain") if c["scope"].get("question_number")]
    assert look_ups
    for case in look_ups:
        s = case["scope"]
        assert (str(s["paper"]).replace("新课标", "全国"), s["year"], s["question_number"]) not in held, case["case_id"]


@pytest.mark.data
def test_a_series_relaxation_names_an_absent_grade_and_relaxes_to_the_nearest_grades_the_series_holds(generated):
    idx, cases = generated
    papers = {idx.meta(d).get("paper") for d in idx.docs}
    for case in _of_kind(cases, "relax_series"):
        scope, relaxed = case["scope"], case["relaxed_scope"]
        assert scope["paper"] not in papers and case["expect_empty_scope"], case["case_id"]
        held = relaxed["paper"] if isinstance(relaxed["paper"], list) else [relaxed["paper"]]
        assert set(held) <= papers and case["relevant"], case["case_id"]
        asked = int(scope["level"].removeprefix("grade_"))
        grades = [int(p.split("Grade ")[1].split()[0]) for p in held]
        assert len({abs(asked - g) for g in grades}) == 1, case["case_id"]   # ties only: both sides
        if scope["year"]:
            assert all(scope["year"] in idx.paper_years[p] for p in held), case["case_id"]


@pytest.mark.data
def test_table_requests_ask_for_an_item_that_holds_a_table(generated):
    from tools.gate.query_kinds_requests import has_table

    idx, cases = generated
    for case in _of_kind(cases, "table_request"):
        assert case["slice"] == "table" and case["task_type"] == "exact"
        (target,) = [d for d in case["relevant"] if case["relevant"][d] == 2][:1]
        assert has_table(next(i for i in idx.items if i.id == target)), case["case_id"]


@pytest.mark.data
def test_wrong_subject_beside_a_paper_keeps_the_paper_and_the_true_subject(generated):
    idx, cases = generated
    for case in _of_kind(cases, "wrong_subject_paper"):
        named = case["notes"].split()[1]
        assert case["scope"]["subject"] != named and case["scope"]["paper"] and case["scope"]["year"]
        assert all(idx.meta(d)["paper"] == case["scope"]["paper"] for d in case["relevant"])


@pytest.mark.data
def test_a_table_asked_for_at_a_missing_level_relaxes_to_a_level_that_holds_it(generated):
    idx, cases = generated
    for case in _of_kind(cases, "relax_table_level"):
        assert case["slice"] == "table" and case["task_type"] == "relaxation" and case["expect_empty_scope"]
        assert case["relaxed_scope"]["level"] != case["scope"]["level"]
        subject, level = case["scope"]["subject"], case["scope"]["level"]
        assert not any((subject, level) == (c[0], c[1]) for c in idx.combos)  # nothing of the subject at that level


@pytest.mark.data
def test_a_cross_language_case_asks_in_another_language_about_english_material(generated):
    from tools.gate.query_kinds_crosslang import GLOSSARY, LANGS

    idx, cases = generated
    for case in _of_kind(cases, "cross_language"):
        lang = case["notes"].split(" ", 1)[0]
        words = [row[LANGS.index(lang)] for row in GLOSSARY.values()]
        assert any(w in case["query"] for w in words), case["case_id"]           # asked in that language
        assert case["scope"]["subject"] and sorted(case["relevant"].values())[-1] == 2
        assert all(idx.meta(d).get("language", "en") == "en" for d in case["relevant"]), case["case_id"]


@pytest.mark.data
def test_a_table_asked_for_under_a_wrong_subject_keeps_the_true_subject(generated):
    from tools.gate.query_kinds_requests import has_table

    idx, cases = generated
    for case in _of_kind(cases, "wrong_subject_table"):
        named = case["notes"].removeprefix("names ")
        assert case["slice"] == "table" and case["task_type"] == "adversarial"
        assert case["scope"]["subject"] != named
        target = next(d for d, grade in case["relevant"].items() if grade == 2)
        assert has_table(next(i for i in idx.items if i.id == target)), case["case_id"]
        assert all(idx.meta(d)["subject"] == case["scope"]["subject"] for d in case["relevant"])


@pytest.mark.data
def test_marking_asked_for_under_a_wrong_subject_keeps_the_cited_question_and_the_true_subject(generated):
    idx, cases = generated
    for case in _of_kind(cases, "wrong_subject_marking"):
        named = case["notes"].split()[1]
        scope = case["scope"]
        assert case["slice"] == "mark_scheme" and case["task_type"] == "adversarial"
        assert scope["subject"] != named and scope["paper"] and scope["year"] and scope["question_number"]
        assert scope["content_type"] in ("solution", "mark_scheme")
        for doc_id in case["relevant"]:
            meta = idx.meta(doc_id)
            assert (meta["paper"], meta["question_number"], meta["content_type"]) == \
                (scope["paper"], scope["question_number"], scope["content_type"]), case["case_id"]


@pytest.mark.data
def test_two_subjects_at_a_level_holding_neither_relax_to_the_nearest_level_holding_both(generated):
    idx, cases = generated
    for case in _of_kind(cases, "cross_subject_relax"):
        scope, relaxed = case["scope"], case["relaxed_scope"]
        assert case["slice"] == "cross_subject" and case["task_type"] == "relaxation" and case["expect_empty_scope"]
        assert len(scope["subject"]) == 2 and "science" not in scope["subject"]
        assert relaxed["subject"] == scope["subject"] and relaxed["level"] != scope["level"]
        held_at = {(c[0], c[1]) for c in idx.combos if scope["content_type"] in (None, c[2])}
        assert not any((s, scope["level"]) in held_at for s in scope["subject"]), case["case_id"]
        assert {idx.meta(d)["subject"] for d in case["relevant"]} == set(scope["subject"])
        assert all(idx.meta(d)["level"] == relaxed["level"] for d in case["relevant"])


@pytest.mark.data
def test_a_chatty_look_up_cites_the_item_and_its_aside_another_number_or_year(generated):
    """Round 15: look-ups as the blind annotators write them; an aside names a number or year not asked for."""
    import re

    idx, cases = generated
    chatty = _of_kind(cases, "chatty_lookup")
    for case in chatty:
        scope = case["scope"]
        assert scope["paper"] and scope["year"] and scope["question_number"]
        assert all(_inside(idx.meta(doc), scope) for doc in case["relevant"])
        if case["task_type"] == "adversarial":
            aside = case["notes"].removeprefix("aside: ")
            numbers = {int(x) for x in re.findall(r"\d+", aside)}
            assert numbers and scope["question_number"] not in numbers and scope["year"] not in numbers
    assert {c["task_type"] for c in chatty} == {"exact", "adversarial"}


@pytest.mark.data
def test_the_appended_kind_leaves_the_earlier_kinds_as_they_were(generated, monkeypatch):
    from tools.gate import generate_queries

    idx, cases = generated
    monkeypatch.delitem(generate_queries.KIND_COUNTS, "chatty_lookup")
    earlier = generate_queries.generate(idx, seed=14, scale=0.05)
    assert [c["query"] for c in earlier] == [c["query"] for c in cases if not c["case_id"].startswith("gen_chatty")]


def test_a_year_relaxation_never_asks_for_a_sitting_before_its_paper_was_first_set():
    """Round 31: '2013年全国卷III数学(文)' asks for a paper first set in 2016, never sat in 2013: an abstention
    (curriculum README), not a relaxation to the paper's other years."""
    from services.gate.vocabulary import Vocabulary

    sat = Vocabulary.load().sittings_sat
    committed = REPO_ROOT / "benchmarks" / "cerb-generalisation" / "generated.jsonl"
    cases = _of_kind([json.loads(line) for line in committed.read_text(encoding="utf-8").splitlines() if line.strip()],
                     "relax_year")
    never = [c for c in cases
             if any(f" {v} " in f" {c['scope']['paper']} " and c["scope"]["year"] < first for v, (first, _) in sat.items())]
    assert never, "the committed set holds such look-ups"
    for case in never:
        assert case["task_type"] == "adversarial" and case["relevant"] == {} and case["relaxed_scope"] is None
    assert all(c["task_type"] == "relaxation" and c["relevant"] for c in cases if c not in never)
