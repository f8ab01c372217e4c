"""English words for a query whose scope holds nothing in the language it is written in (services.gate.translation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chsr import dictionary
from chsr.scope import Scope
from services.gate.translation import english_terms, written_elsewhere
from services.gate.vocabulary import Vocabulary
from tests.unit.kernel.test_dictionary import write_dictd

pytestmark = pytest.mark.unit

#: (subject, level, content type, language): French and German physics at grade 12 only, everything else English.
_ROWS = [("physics", "grade_12", "exam_question", "fr"), ("physics", "grade_12", "exam_question", "de"),
         ("physics", "high_school", "textbook", "en"), ("mathematics", "grade_7", "syllabus", "en"),
         ("science", "grade_6", "exam_question", "en")]


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Vocabulary:
    path = tmp_path_factory.mktemp("languages") / "corpus.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i, (subject, level, kind, language) in enumerate(_ROWS):
            meta = {"subject": subject, "level": level, "content_type": kind, "language": language, "source": "t"}
            out.write(json.dumps({"_id": f"t:{i}", "text": f"item {i}", "metadata": meta}) + "\n")
    return Vocabulary.load(path)


@pytest.fixture
def french(tmp_path: Path):  # type: ignore[no-untyped-def]
    write_dictd(tmp_path, "freedict-fra-eng", [("cercle", "cercle\ncircle\n"), ("aire", "aire\narea\n")])
    dictionary.configure(tmp_path, None)
    yield
    dictionary.configure(Path(dictionary.DEFAULT_DIR), None)


MATHS_7 = Scope(subject=("mathematics",), level=("grade_7",), content_type=("syllabus",))
PHYSICS_12 = Scope(subject=("physics",), level=("grade_12",), content_type=("exam_question",))


@pytest.mark.parametrize(("query", "scope", "expected"), [
    # Common Core is English only: the French words cannot match the standard asked for
    ("Common Core maths, niveau 5e : quel standard porte sur l'aire et la circonférence du cercle ?", MATHS_7, "fr"),
    # French physics items exist at grade 12: the query asks for them
    ("question de physique : que veut dire qu'une matière est radioactive ?", PHYSICS_12, None),
    # a level near one held in German (grade 10 -> 12): the German items, not English ones
    ("Physik 10. Klasse: zwei Lämpchen 4 W und 5 W in Reihe an einer Stromquelle", 
     Scope(subject=("physics",), level=("grade_10",)), None),
    # a level far from every one held in French
    ("physique et chimie, 6e année : pourquoi recouvre-t-on les fils électriques de plastique ?",
     Scope(subject=("physics", "chemistry"), level=("grade_6",)), "fr"),
    # English queries, and a scope that constrains nothing, gain nothing
    ("Common Core grade 7 standard on the area and circumference of a circle", MATHS_7, None),
    ("que veut dire qu'une matière est radioactive ?", Scope(), None),
])
def test_a_scope_held_only_in_another_language(held: Vocabulary, query: str, scope: Scope,
                                               expected: str | None) -> None:
    assert written_elsewhere(query, scope, held) == expected


def test_without_a_language_layer_nothing_is_added(bundled: Vocabulary) -> None:
    assert written_elsewhere("Common Core maths, niveau 5e : l'aire du cercle", MATHS_7, bundled) is None


def test_the_topic_words_gain_their_english_senses(held: Vocabulary, french: None) -> None:
    query = "Common Core maths, niveau 5e : quel standard porte sur l'aire et la circonférence du cercle ?"
    assert english_terms(query, ["aire", "circonférence", "cercle"], MATHS_7, held) == ["area", "circle"]
    assert english_terms("question de physique : l'aire du cercle", ["aire", "cercle"], PHYSICS_12, held) == []


def test_the_gate_searches_and_judges_by_them(held: Vocabulary, french: None) -> None:
    """Round 55: "Common Core maths, niveau 5e ...": the exact scope held the standard, but judged by the French words
    it looked off topic and the ladder widened to every level (authored leakage 0.88)."""
    from services.gate.evidence import EvidenceHit, EvidenceParams
    from services.gate.logic import run_gate

    meta = {"subject": "mathematics", "level": "grade_7", "content_type": "syllabus", "language": "en"}
    probe = [EvidenceHit(meta, 1.0, leg, rank) for leg in ("sparse", "dense") for rank in (1, 2, 3)]
    result = run_gate("Common Core maths, niveau grade 7 : quel standard porte sur l'aire et la circonférence du cercle ?",
                      vocab=held, probe=probe, params=EvidenceParams.load(), expand_query=True)
    assert result.scope.subject == ("mathematics",)
    assert {"area", "circle"} <= set(result.topic_terms)
    assert "circle" in result.expanded_query.split()


def test_an_english_query_asking_for_a_french_version_gains_its_words_in_french(held: Vocabulary,
                                                                                  french: None) -> None:
    """Round 58: "the French-language physics question about ... a circle's area": the French item shares no word
    with the English query. Only where the scope holds material in the asked language (French physics at grade 12),
    and only for an English query that asks for the version."""
    from chsr.query_language import LanguageGuess
    from services.gate.translation import asked_language_terms

    query = "the French-language physics question about the area of a circle"
    asked = LanguageGuess("fr", 0.9, "asked for", requested=True)
    assert asked_language_terms(query, ["area", "circle"], PHYSICS_12, asked, held) == ["aire", "cercle"]
    # the written language, not asked for; a scope the language holds nothing of; a French query
    assert asked_language_terms(query, ["area", "circle"], PHYSICS_12, LanguageGuess("fr", 0.9, "written"), held) == []
    assert asked_language_terms(query, ["area", "circle"], MATHS_7, asked, held) == []
    assert asked_language_terms("la question de physique sur l'aire d'un cercle", ["aire", "cercle"], PHYSICS_12,
                                asked, held) == []
