"""The vocabulary is data: bundled synonyms + a corpus-derived index (issue 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chsr.scope import Scope
from services.gate.extract import extract_scope
from services.gate.lexicon import SpanText, parse_number
from services.gate.vocabulary import (
    BUNDLED_PATH, Vocabulary, build_vocabulary_from_corpus, catalogue_boards, write_corpus_vocabulary,
)
from tests.unit.gate.conftest import MINI_ROWS

pytestmark = pytest.mark.unit


def _subjects(vocab: Vocabulary, text: str) -> list[tuple[str, ...]]:
    return [hit.value[0] for hit in vocab.subject_names.find(SpanText(text))]


def test_bundled_file_is_valid_json_with_every_section():
    data = json.loads(BUNDLED_PATH.read_text(encoding="utf-8"))
    for section in ("subjects", "topics", "levels", "content_types", "question_numbers", "boards", "stopwords"):
        assert section in data, section


@pytest.mark.parametrize("name, subject", [
    ("physique", "physics"), ("Physik", "physics"), ("física", "physics"), ("物理", "physics"),
    ("maths", "mathematics"), ("math", "mathematics"), ("mathématiques", "mathematics"), ("Mathematik", "mathematics"),
    ("matemáticas", "mathematics"), ("数学", "mathematics"), ("化学", "chemistry"), ("生物", "biology"),
    ("历史", "history"), ("地理", "geography"), ("政治", "politics"), ("经济学", "economics"),
    ("économie", "economics"), ("Geschichte", "history"), ("géographie", "geography"), ("computer science", "computer_science"),
])
def test_subject_synonyms_in_five_languages(bundled, name, subject):
    assert _subjects(bundled, f"a {name} question") == [(subject,)]


def test_longest_alias_wins(bundled):
    assert _subjects(bundled, "computer science exam") == [("computer_science",)]
    assert _subjects(bundled, "political science essay") == [("politics",)]


def test_case_sensitive_acronyms(bundled):
    hits = bundled.board_names.find(SpanText("NY grade 8 science"))
    assert [bundled.boards[h.value[0]]["exam_board"] for h in hits] == ["NYSED (New York State Education Department)"]
    assert not bundled.board_names.find(SpanText("la luna y el sol"))  # Spanish "sol" is not Virginia SOL


def test_without_corpus_nothing_is_known(bundled):
    assert not bundled.has_corpus
    assert bundled.paper("AMC 10A") is None
    assert bundled.subject_level_exists("physics", "grade_5") is None
    assert bundled.unsatisfiable(Scope.from_dict({"year": 2099})) == {}
    assert "physics" in bundled.known_values("subject")


def test_build_from_corpus_collects_values_papers_and_years(mini_corpus):
    data = build_vocabulary_from_corpus(mini_corpus)
    assert data["documents"] == len(MINI_ROWS) and data["skipped"] == 0
    assert "grade_12" in data["values"]["level"] and 2019 in data["values"]["year"]
    assert data["values"]["session"] == ["A", "B"]
    amc = data["papers"]["AMC 10A"]
    assert amc["subject"] == ["mathematics"] and amc["level"] == ["grade_10"] and amc["exam_board"] == ["MAA AMC"]
    assert amc["years"] == {"2019": ["A"], "2024": ["A"]}
    assert ["physics", "high_school"] in data["subject_levels"]
    assert ["physics", "textbook", "high_school"] in data["subject_content_levels"]


def test_grade_papers_become_templates(mini_corpus):
    templates = build_vocabulary_from_corpus(mini_corpus)["paper_templates"]
    nysed = templates["NYSED (New York State Education Department)"]["science"]
    assert nysed == {"template": "NYSED Regents Grade {n} Science", "grades": ["4", "8"]}


def test_builder_skips_bad_lines(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"_id": "a", "text": "t", "metadata": {"subject": "physics"}}\nnot json\n[1]\n\n', encoding="utf-8")
    data = build_vocabulary_from_corpus(path)
    assert data["documents"] == 1 and data["skipped"] == 2


def test_write_and_load_round_trip(mini_corpus, tmp_path):
    out = write_corpus_vocabulary(mini_corpus, tmp_path / "sub" / "vocab.json")
    vocab = Vocabulary.load(out)
    assert vocab.has_corpus
    assert vocab.paper("AMC 10A").years[2019] == ("A",)
    # bundled synonyms are still there, merged with the corpus layer
    assert _subjects(vocab, "物理") == [("physics",)]


def test_load_rejects_a_file_that_is_not_a_corpus_vocabulary(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"schema": "something-else"}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a corpus vocabulary"):
        Vocabulary.load(path)


def test_load_accepts_a_corpus_jsonl_directly(mini_corpus):
    assert Vocabulary.load(mini_corpus).paper("AMC 8") is not None


def test_corpus_facts(mini):
    assert mini.subject_level_exists("physics", "high_school") is True
    assert mini.subject_level_exists("physics", "grade_5") is False
    assert mini.subject_has_content("physics", "textbook", ("high_school",)) is True
    assert mini.subject_has_content("mathematics", "textbook") is False
    assert mini.paper_template("NYSED (New York State Education Department)", "science") == "NYSED Regents Grade {n} Science"


def test_unsatisfiable_names_what_cannot_match(mini):
    assert "year" in mini.unsatisfiable(Scope.from_dict({"paper": "AMC 10A", "year": 2025}))
    assert mini.unsatisfiable(Scope.from_dict({"paper": "AMC 10A", "year": 2019})) == {}
    assert "paper" in mini.unsatisfiable(Scope.from_dict({"paper": "Gaokao 新高考I Mathematics"}))
    assert "exam_board" in mini.unsatisfiable(Scope.from_dict({"exam_board": "WAEC"}))
    assert "year" in mini.unsatisfiable(Scope.from_dict({"exam_board": "MAA AMC", "year": 2011}))


def test_a_year_the_rest_of_the_scope_lacks_is_what_cannot_match(mini):
    """Round 16 (il_bl_rx.01, "Wirtschaft 12. Klasse, Abschlussprüfung 2015 ..."): no economics item is dated, so
    the year is the field the index lacks, not the level (decision 58)."""
    undated = mini.unsatisfiable(Scope.from_dict({"subject": "economics", "level": "high_school", "year": 2018}))
    assert undated["year"] == "economics at high_school has no items for year 2018 in the corpus " \
                              "(none of its items is dated)"
    other = mini.unsatisfiable(Scope.from_dict({"subject": "history", "level": "grade_12", "year": 2014}))
    assert other["year"] == "history at grade_12 has no items for year 2014 in the corpus"
    assert mini.unsatisfiable(Scope.from_dict({"subject": "history", "level": "grade_12", "year": 2018})) == {}
    assert mini.unsatisfiable(Scope.from_dict({"subject": "physics", "year": 2014})) == {}  # any level
    assert "subject_level_years" in mini.corpus and mini.corpus["subject_level_years"]["history|grade_12"] == [2018]


@pytest.mark.parametrize("token, value", [("12", 12), ("十一", 11), ("二十三", 23), ("十", 10), ("五", 5), ("x", None)])
def test_parse_number(token, value):
    assert parse_number(token) == value


def test_demo_corpus_is_recognised(demo):
    assert demo.paper("Northfield Physics Paper 1") is not None
    assert Path(BUNDLED_PATH).is_file()


def test_a_board_only_the_catalogue_knows_is_named_from_its_own_board_and_paper_names(bundled):
    corpus = {"values": {"exam_board": ["Pinecrest Board", "AMP", bundled.boards[0]["exam_board"]]},
              "papers": {f"{series} Grade {n} Science": {"exam_board": [board], "subject": ["science"],
                                                          "level": [f"grade_{n}"], "years": {"2010": [None]}}
                         for series, board, n in (("Pinecrest", "Pinecrest Board", 5),
                                                  ("Pinecrest", "Pinecrest Board", 8), ("AMP", "AMP", 8))}}
    entries = catalogue_boards(bundled.boards, corpus)
    # the bundled board keeps its own entry; "AMP" is too short to name a board without reading "amp" (amperes)
    assert entries == [{"exam_board": "Pinecrest Board", "names": ["Pinecrest Board", "Pinecrest"],
                        "from_catalogue": True}]
    vocab = Vocabulary(bundled.data, corpus)
    extraction = extract_scope("Pinecrest grade 6 science question about magnets", vocab)
    assert extraction.scope.exam_board == ("Pinecrest Board",)
