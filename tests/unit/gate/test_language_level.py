"""The level a requested language version implies (services/gate/language_level.py, issue 21)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chsr.scope import Scope
from services.gate.evidence import EvidenceDecision
from services.gate.evidence_features import StatedField, StatedQuery
from services.gate.language_level import level_of_language
from services.gate.vocabulary import Vocabulary

pytestmark = pytest.mark.unit

#: (subject, level, content_type, language): French and Spanish items at grade 12 only, English ones at several levels.
ROWS = [
    ("economics", "grade_12", "exam_question", "fr"),
    ("economics", "high_school", "exam_question", "en"),
    ("economics", "college", "exam_question", "en"),
    ("physics", "grade_12", "exam_question", "es"),
    ("physics", "high_school", "textbook", "en"),
    ("physics", "grade_12", "exam_question", "zh"),
    ("mathematics", "grade_12", "exam_question", "zh"),
    ("mathematics", "grade_12", "mark_scheme", "zh"),
]


@pytest.fixture(scope="module")
def vocab(tmp_path_factory: pytest.TempPathFactory) -> Vocabulary:
    path: Path = tmp_path_factory.mktemp("languages") / "corpus.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i, (subject, level, kind, language) in enumerate(ROWS):
            meta = {"subject": subject, "level": level, "content_type": kind, "language": language, "source": "mini"}
            out.write(json.dumps({"_id": f"mini:{i}", "text": f"item {i}", "metadata": meta}) + "\n")
    return Vocabulary.load(path)


def decision(**scope: object) -> EvidenceDecision:
    return EvidenceDecision(fields={}, filter=Scope.from_dict(scope), penalties={"level": (("high_school",), 0.5)},
                            strict_keys=[], soft_fields={}, label="gated", curriculum_share=1.0)


def asking(*codes: str) -> StatedQuery:
    return StatedQuery({"language": StatedField(codes, 0.75, "French ... MCQ")})


def test_a_language_held_at_one_level_for_the_subject_puts_that_level_in_the_scope(vocab):
    # "French economics MCQ: lots of poultry had to be culled because of bird flu ..."
    out = level_of_language(decision(subject="economics", content_type="exam_question"), asking("fr"), vocab)
    assert out is not None
    assert out.filter.level == ("grade_12",) and out.filter.subject == ("economics",)
    assert out.fields["level"].action == "filter" and "level" not in out.penalties
    assert any("economics in fr at grade_12 only" in note for note in out.notes)


def test_without_a_subject_the_languages_items_of_every_subject_count(vocab):
    out = level_of_language(decision(content_type="exam_question"), asking("es"), vocab)
    assert out is not None and out.filter.level == ("grade_12",)


@pytest.mark.parametrize("scope, codes", [
    ({"subject": "economics"}, ("en",)),                        # English economics: high school and college
    ({"subject": "economics", "level": "college"}, ("fr",)),    # a level already in the scope stays
    ({"subject": "chemistry"}, ("fr",)),                        # no French chemistry: nothing to imply
    ({"subject": "physics"}, ("es", "en")),                     # Spanish and English together: several levels
])
def test_nothing_is_implied_where_the_catalogue_does_not_give_one_level(vocab, scope, codes):
    assert level_of_language(decision(**scope), asking(*codes), vocab) is None


def test_nothing_is_implied_without_a_language_request(vocab):
    stated = StatedQuery({"subject": StatedField(("economics",), 0.9)})
    assert level_of_language(decision(subject="economics"), stated, vocab) is None


def test_the_content_type_counts(vocab):
    # Chinese mathematics mark schemes exist at grade 12 only; a Chinese textbook of physics does not exist at all
    assert level_of_language(decision(subject="mathematics", content_type="mark_scheme"), asking("zh"),
                             vocab).filter.level == ("grade_12",)
    assert level_of_language(decision(subject="physics", content_type="textbook"), asking("zh"), vocab) is None



def test_a_level_the_evidence_alone_decided_gives_way_to_the_languages_one(vocab):
    """Round 58: "French economics multiple-choice question: bird flu ...": the English query's probe finds English
    high-school economics, and the evidence put that level in the scope; the French version is at grade 12 only."""
    from services.gate.evidence import FieldDecision
    by_evidence = decision(subject="economics", level="high_school", content_type="exam_question")
    by_evidence.fields["level"] = FieldDecision("level", ("high_school",), 0.9, "evidence", "filter")
    out = level_of_language(by_evidence, asking("fr"), vocab)
    assert out is not None and out.filter.level == ("grade_12",)
    # the same level stated by the text stays
    stated = decision(subject="economics", level="high_school", content_type="exam_question")
    stated.fields["level"] = FieldDecision("level", ("high_school",), 0.9, "stated", "filter")
    assert level_of_language(stated, asking("fr"), vocab) is None
