"""The nearest level the corpus holds for the subject, as its own rung before the generic widenings (issue 21)."""

from __future__ import annotations

import pytest

from chsr.scope import Scope
from services.gate.ladder import build_ladder
from services.gate.logic import run_gate
from services.gate.nearest import with_nearest_level, with_reference_material

pytestmark = pytest.mark.unit


def test_a_level_the_subject_lacks_moves_to_the_nearest_level_held_before_any_widening(mini):
    steps = with_nearest_level(build_ladder(Scope.from_dict({"subject": "economics", "level": "grade_6"}), [], False),
                               mini)
    first_w2 = next(s for s in steps if s.label == "W2")
    assert first_w2.filter.level == ("high_school",) and first_w2.filter.subject == ("economics",)
    assert "level grade_6 not held for economics; nearest held: high_school" in first_w2.description


def test_ties_keep_both_sides_and_a_held_level_adds_nothing(mini):
    steps = with_nearest_level(build_ladder(Scope.from_dict({"subject": "science", "level": "grade_6"}), [], False),
                               mini)
    rung = next(s for s in steps if s.description.startswith("W2 nearest level held"))
    assert rung.filter.level == ("grade_4", "grade_8")
    held = build_ladder(Scope.from_dict({"subject": "science", "level": "grade_8"}), [], False)
    assert with_nearest_level(held, mini) == held


def test_through_the_gate(mini):
    result = run_gate("grade 6 economics question about supply and demand", vocab=mini)
    assert any(s.description.startswith("W2 nearest level held") and s.filter.level == ("high_school",)
               for s in result.ladder)


def test_a_tie_across_a_band_edge_stays_in_the_asked_levels_band():
    """Grade 9 lies between AMC 8 and AMC 10: both are one grade away, and grade 10 shares grade 9's band (high
    school 9-12), so only it is the nearest; grade 6, in no band, keeps both sides (the curriculum README's
    bands: elementary K-5, high school 9-12)."""
    from chsr.levels import nearest_levels

    assert nearest_levels(["grade_8", "grade_10"], ["grade_9"]) == ("grade_10",)
    assert nearest_levels(["grade_4", "grade_6"], ["grade_5"]) == ("grade_4",)
    assert nearest_levels(["grade_4", "grade_8"], ["grade_6"]) == ("grade_4", "grade_8")
    assert nearest_levels(["grade_3", "grade_5"], ["grade_4"]) == ("grade_3", "grade_5")  # both in the band


def test_a_series_at_a_grade_between_two_of_its_papers_relaxes_into_the_band(mini):
    result = run_gate("grade 9 AMC contest problem about two lines meeting at a point", vocab=mini)
    rung = next(s for s in result.ladder if s.label == "W1")
    assert rung.filter.level == ("grade_10",), rung.description


def _ladder_of(scope: dict, vocab) -> list:
    return with_reference_material(build_ladder(Scope.from_dict(scope), [], False), vocab)


def test_a_textbook_asked_at_a_level_without_one_moves_the_level_and_keeps_the_textbook(mini):
    steps = _ladder_of({"subject": "physics", "level": "grade_7", "content_type": "textbook"}, mini)
    rung = steps[1]
    assert rung.label == "W1" and rung.filter.content_type == ("textbook",)
    assert rung.filter.subject == ("physics",) and rung.filter.level == ("high_school",)
    assert "none held for physics at grade_7; nearest held: physics high_school" in rung.description


def test_general_science_reference_material_is_looked_for_in_its_disciplines(mini):
    rung = _ladder_of({"subject": "science", "level": "grade_8", "content_type": "textbook"}, mini)[1]
    assert rung.filter.subject == ("physics",) and rung.filter.level == ("high_school",)
    assert rung.filter.content_type == ("textbook",)


def test_questions_and_levels_that_hold_the_material_are_left_to_the_ladder(mini):
    for scope in ({"subject": "physics", "level": "grade_7", "content_type": "exam_question"},
                  {"subject": "physics", "level": "high_school", "content_type": "textbook"}):
        plain = build_ladder(Scope.from_dict(scope), [], False)
        assert _ladder_of(scope, mini) == plain


def test_a_subject_without_such_material_moves_to_where_the_probe_found_it(mini):
    """"high school chemistry textbook table of latent heats": the index has no chemistry textbook; the probe finds
    the table in the physics textbook, so the rung after W0 keeps the textbook and moves the subject there."""
    from services.gate.evidence_features import EvidenceHit
    from services.gate.nearest import material_found

    probe = [EvidenceHit({"subject": "physics", "content_type": "textbook"}, 0.9, "sparse", 3),
             EvidenceHit({"subject": "biology", "content_type": "textbook"}, 0.5, "dense", 11),   # below the depth
             EvidenceHit({"subject": "chemistry", "content_type": "exam_question"}, 0.8, "sparse", 1)]
    found = material_found(probe)
    assert found == {"textbook": {"physics"}}
    asked = {"subject": "chemistry", "level": "high_school", "content_type": "textbook"}
    rung = with_reference_material(build_ladder(Scope.from_dict(asked), [], False), mini, found)[1]
    assert rung.label == "W1" and rung.filter.subject == ("physics",) and rung.filter.level == ("high_school",)
    assert rung.filter.content_type == ("textbook",)
    assert "none held for chemistry at high_school; nearest held: physics high_school" in rung.description
    unleveled = with_reference_material(build_ladder(Scope.from_dict({"subject": "chemistry",
                                                                      "content_type": "textbook"}), [], False),
                                        mini, found)[1]
    assert unleveled.filter.subject == ("physics",) and unleveled.filter.level == ()


def test_without_the_probe_finding_it_the_subject_stays(mini):
    """The text-only path (no probe), or a probe that found no textbook ("history textbook chapter on the Tang
    dynasty"): no rung moves the subject; the ladder drops the content type as before."""
    asked = {"subject": "chemistry", "level": "high_school", "content_type": "textbook"}
    plain = build_ladder(Scope.from_dict(asked), [], False)
    assert with_reference_material(plain, mini) == plain
    assert with_reference_material(plain, mini, {"syllabus": {"mathematics"}}) == plain
    assert with_reference_material(plain, mini, {"textbook": {"biology"}}) == plain  # biology holds no textbook


def test_a_textbook_the_probe_cannot_see_moves_a_science_discipline_to_the_sibling_holding_one(mini):
    """Round 44 (lp_tb_adv.01): "高中化学 ... 化学教材里有没有一张表，列出质子、中子、电子的质量" names chemistry, which holds no
    textbook; the only textbook is English, so a Chinese query's probe cannot find it. The rung keeps the textbook
    and moves the discipline to its sibling that holds one; a history textbook, or a syllabus, still waits."""
    from services.gate.nearest import material_unseen

    assert mini.languages_of(("textbook",)) == {"en"}
    assert material_unseen("化学教材里有没有一张表，列出质子、中子、电子的质量", ("textbook",), mini)
    assert not material_unseen("chemistry textbook table of particle masses", ("textbook",), mini)
    assert not material_unseen("化学教材里有没有一张表", ("exam_question",), mini)
    asked = build_ladder(Scope.from_dict({"subject": "chemistry", "level": "high_school", "content_type": "textbook"}),
                         [], False)
    rung = with_reference_material(asked, mini, unseen=True)[1]
    assert rung.label == "W1" and rung.filter.subject == ("physics",) and rung.filter.content_type == ("textbook",)
    assert with_reference_material(asked, mini) == asked
    history = build_ladder(Scope.from_dict({"subject": "history", "level": "high_school", "content_type": "textbook"}),
                           [], False)
    assert with_reference_material(history, mini, unseen=True) == history


def test_a_syllabus_of_a_confirmed_subject_is_never_another_subjects(mini):
    """"is there an official high school physics syllabus / standards doc that lists the projectile formulas?"
    (round 15, ih_fm_rx.01): the index has no physics syllabus and the probe finds the mathematics standards. With
    the subject confirmed by text and evidence, no rung moves it there; a textbook (reference data) still moves."""
    asked = build_ladder(Scope.from_dict({"subject": "physics", "level": "high_school", "content_type": "syllabus"}),
                         [], False)
    found = {"syllabus": {"mathematics"}}
    moved = with_reference_material(asked, mini, found)
    assert moved[1].filter.subject == ("mathematics",)
    assert with_reference_material(asked, mini, found, subject_confirmed=True) == asked
    table = build_ladder(Scope.from_dict({"subject": "chemistry", "level": "high_school", "content_type": "textbook"}),
                         [], False)
    kept = with_reference_material(table, mini, {"textbook": {"physics"}}, subject_confirmed=True)
    assert kept[1].filter.subject == ("physics",)


def test_a_kind_the_subject_never_holds_moves_to_its_other_reference_kind(mini):
    """"need the 8th grade math textbook section on pythagorean thm ..." (round 15, ii_fm_rx.02): no mathematics
    textbook at any level and none found elsewhere; the next rung is the mathematics standards at the nearest
    level holding them, before any level widens. Only for a firm kind: a weak 'table' is dropped as before."""
    asked = build_ladder(Scope.from_dict({"subject": "mathematics", "level": "grade_8", "content_type": "textbook"}),
                         [], False)
    rung = with_reference_material(asked, mini, {}, kind_firm=True)[1]
    assert rung.filter.subject == ("mathematics",) and rung.filter.content_type == ("syllabus",)
    assert rung.filter.level == ("high_school",)      # the mini corpus holds the standards at high school only
    assert "no textbook held for mathematics at any level" in rung.description
    assert with_reference_material(asked, mini, {}) == asked


def test_marking_material_a_level_holds_none_of_relaxes_to_the_questions_at_that_level(mini):
    """"MMLU hs chem ... 要答案+解析" (round 17): high-school biology holds questions and no marking material in the
    mini corpus; the content type is the field to relax, before the level moves (decision 61)."""
    from services.gate.nearest import with_question_for_marking

    asked = Scope.from_dict({"subject": "biology", "level": "high_school", "content_type": ["solution", "mark_scheme"]})
    steps = with_question_for_marking(build_ladder(asked, [], False), mini)
    assert steps[1].label == "W1" and steps[1].filter == Scope.from_dict(
        {"subject": "biology", "level": "high_school", "content_type": "exam_question"})
    assert "the index holds no marking material for biology at high_school" in steps[1].description


@pytest.mark.parametrize("scope", [
    {"subject": "history", "level": "grade_12", "content_type": "solution"},            # held: W0 finds it
    {"subject": "biology", "level": "high_school", "content_type": "exam_question"},    # not marking material
    {"subject": "physics", "level": "high_school", "content_type": "solution"},         # a textbook's worked examples
    {"subject": "economics", "level": "college", "content_type": "solution"},          # no questions there either
    {"subject": "history", "level": "grade_12", "paper": "Gaokao 新课标III History",     # a named paper: its own rules
     "content_type": "mark_scheme", "year": 2019},
])
def test_other_requests_are_left_to_the_ladder(mini, scope):
    from services.gate.nearest import with_question_for_marking

    steps = build_ladder(Scope.from_dict(scope), [], False)
    assert with_question_for_marking(steps, mini) == steps



def _with_languages() -> "Vocabulary":
    from services.gate.corpus_vocabulary import build_vocabulary_from_rows
    from services.gate.vocabulary import Vocabulary
    rows = [({"subject": "physics", "level": "high_school", "content_type": "exam_question", "language": "en"}, 40),
            ({"subject": "physics", "level": "grade_12", "content_type": "exam_question", "language": "es"}, 9),
            ({"subject": "physics", "level": "grade_12", "content_type": "exam_question", "language": "en"}, 9),
            ({"subject": "physics", "level": "high_school", "content_type": "textbook", "language": "en"}, 5)]
    return Vocabulary(Vocabulary.load().data, build_vocabulary_from_rows(rows, source="test"))


def test_an_asked_language_version_held_two_grades_away_comes_before_the_nearer_band():
    from services.gate.nearest import with_language_level
    vocab = _with_languages()
    ladder = with_nearest_level(build_ladder(Scope.from_dict({"subject": "physics", "level": "grade_11",
                                                              "content_type": "exam_question"}), [], False), vocab)
    out = with_language_level(ladder, "es", vocab)
    first_w2 = next(s for s in out if s.label == "W2")
    assert first_w2.filter.level == ("grade_12",) and "(es)" in first_w2.description
    assert len(out) == len(ladder) + 1 or any(s.filter.level == ("grade_12",) for s in ladder)
    # no language asked, a language the nearer band holds, or a kind it does not hold there: the ladder as it was
    assert with_language_level(ladder, None, vocab) == ladder
    assert with_language_level(ladder, "en", vocab) == ladder
    textbook = with_nearest_level(build_ladder(Scope.from_dict({"subject": "physics", "level": "grade_11",
                                                                "content_type": "textbook"}), [], False), vocab)
    assert with_language_level(textbook, "es", vocab) == textbook


def test_an_asked_language_is_read_as_requested(mini):
    result = run_gate("preguntas de física de 1º de bachillerato en castellano: isótopos del carbono", vocab=mini)
    assert result.query_language is not None and result.query_language.requested


def _physics_ladder(vocab, scope: dict) -> list:
    return with_nearest_level(build_ladder(Scope.from_dict(scope), [], False), vocab)


def test_the_written_language_moves_a_level_the_index_holds_nowhere_to_where_it_holds_that_language():
    """Decision 80: "física de 1º de bachillerato: ... " (written in Spanish, no version asked for): grade 11 holds no
    physics in any language, the Spanish items are at grade 12 and come before the English high-school band."""
    from services.gate.nearest import with_language_level
    vocab = _with_languages()
    ladder = _physics_ladder(vocab, {"subject": "physics", "level": "grade_11", "content_type": "exam_question"})
    out = with_language_level(ladder, "es", vocab, written=True)
    first_w2 = next(s for s in out if s.label == "W2")
    assert first_w2.filter.level == ("grade_12",) and "(es)" in first_w2.description


def test_the_written_language_leaves_a_held_level_two_subjects_and_a_kind_it_lacks_to_the_ladder():
    from services.gate.corpus_vocabulary import build_vocabulary_from_rows
    from services.gate.nearest import with_language_level
    from services.gate.vocabulary import Vocabulary
    vocab = _with_languages()
    # the kind the language lacks (no Spanish textbook)
    textbook = _physics_ladder(vocab, {"subject": "physics", "level": "grade_11", "content_type": "textbook"})
    assert with_language_level(textbook, "es", vocab, written=True) == textbook
    # two subjects: the written language is not the one of each
    both = _physics_ladder(vocab, {"subject": ["physics", "chemistry"], "level": "grade_11",
                                   "content_type": "exam_question"})
    assert with_language_level(both, "es", vocab, written=True) == both
    # grade 11 holds physics (in English): only the Spanish version is missing, which a written query does not ask
    rows = [({"subject": "physics", "level": "grade_11", "content_type": "exam_question", "language": "en"}, 4),
            ({"subject": "physics", "level": "grade_12", "content_type": "exam_question", "language": "es"}, 9),
            ({"subject": "physics", "level": "high_school", "content_type": "exam_question", "language": "en"}, 40)]
    held = Vocabulary(Vocabulary.load().data, build_vocabulary_from_rows(rows, source="test"))
    ladder = _physics_ladder(held, {"subject": "physics", "level": "grade_11", "content_type": "exam_question"})
    assert with_language_level(ladder, "es", held, written=True) == ladder
