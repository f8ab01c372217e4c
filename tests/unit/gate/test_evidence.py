"""Scope from evidence (issue 14): the combination math, with hand-computed expected values."""

from __future__ import annotations

import math

import pytest

from chsr.scope import Scope
from services.gate.evidence import (EvidenceDecision, EvidenceParams, FieldModel, decide_scope, penalty_factor)
from services.gate.evidence_features import (FEATURES, MODEL_FIELDS, EvidenceHit, StatedField, StatedQuery, candidates,
                                             entropy, features, gather)

pytestmark = pytest.mark.unit


def _meta(subject: str | None, level: str | None = None, **kw) -> dict:
    return {"subject": subject, "level": level, **kw}


HITS = [
    EvidenceHit(_meta("physics", "grade_12"), 10.0, "sparse", 1),
    EvidenceHit(_meta("chemistry", "grade_12"), 5.0, "sparse", 2),
    EvidenceHit(_meta("physics", "high_school"), 0.9, "dense", 1),
    EvidenceHit(_meta("biology", "grade_12"), 0.85, "dense", 2),
]


def _gather(hits=HITS, **kw):
    return gather(hits, depth=kw.get("depth", 30), sparse_power=3.0, dense_temperature=0.05)


def test_sparse_weights_are_score_ratios_to_the_power():
    ev = _gather()
    # weights 1 and (5/10)^3 = 0.125 -> shares 1/1.125 and 0.125/1.125
    assert ev.mass["subject"]["sparse"]["physics"] == pytest.approx(0.888889, abs=1e-6)
    assert ev.mass["subject"]["sparse"]["chemistry"] == pytest.approx(0.111111, abs=1e-6)


def test_dense_weights_are_exponential_in_the_cosine_gap():
    ev = _gather()
    # weights 1 and exp((0.85 - 0.9) / 0.05) = exp(-1) -> share 1 / (1 + e^-1)
    assert ev.mass["subject"]["dense"]["physics"] == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-6)


def test_combined_mass_is_the_mean_over_legs():
    ev = _gather()
    expected = (1 / 1.125 + 1 / (1 + math.exp(-1))) / 2
    assert ev.combined("subject")["physics"] == pytest.approx(expected, abs=1e-6)
    assert sum(ev.combined("subject").values()) == pytest.approx(1.0)


def test_top1_margin_and_depth():
    ev = _gather()
    assert ev.top1["level"] == {"sparse": "grade_12", "dense": "high_school"}
    assert ev.sparse_margin == pytest.approx(0.5)
    assert ev.dense_top == pytest.approx(0.9)
    shallow = _gather(depth=1)
    assert shallow.mass["subject"]["sparse"] == {"physics": 1.0}


def test_hits_without_curriculum_metadata_lower_the_curriculum_share():
    hits = [EvidenceHit(_meta(None), 10.0, "sparse", 1), EvidenceHit(_meta("biology"), 10.0, "sparse", 2),
            EvidenceHit(_meta(None), 0.8, "dense", 1)]
    ev = _gather(hits)
    # sparse: two equal weights, one with a subject -> 0.5; dense: 0 -> mean 0.25
    assert ev.curriculum_share == pytest.approx(0.25)
    assert ev.combined("subject")[None] == pytest.approx(0.75)


def test_entropy_is_normalised():
    assert entropy({"a": 1.0}) == 0.0
    assert entropy({"a": 0.5, "b": 0.5}) == pytest.approx(1.0)
    assert entropy({"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25}) == pytest.approx(1.0)
    assert 0 < entropy({"a": 0.9, "b": 0.1}) < 1


def test_candidates_put_stated_values_first_then_the_strongest_evidence():
    stated = StatedQuery({"subject": StatedField(("economics",), 0.95)}, topic_words=3)
    # combined: physics (0.889 + 0.731) / 2, biology 0.269 / 2 = 0.134, chemistry 0.111 / 2 = 0.056
    assert candidates("subject", stated, _gather()) == ["economics", "physics", "biology", "chemistry"]


def test_feature_vector_matches_its_names():
    stated = StatedQuery({"subject": StatedField(("chemistry",), 0.95)}, topic_words=5)
    x = dict(zip(FEATURES, features("subject", "chemistry", stated, _gather())))
    assert len(x) == len(FEATURES)
    assert x["stated"] == 0.95 and x["stated_other"] == 0.0
    assert x["mass_sparse"] == pytest.approx(0.111111, abs=1e-6) and x["mass_dense"] == 0.0
    assert x["top1_sparse"] == 0.0 and x["pure_lookup"] == 0.0
    assert x["mass_x_topic"] == pytest.approx(0.111111 / 2, abs=1e-6)
    other = dict(zip(FEATURES, features("subject", "physics", stated, _gather())))
    assert other["stated"] == 0.0 and other["stated_other"] == 0.95 and other["top1_sparse"] == 1.0


def test_field_model_is_a_logistic_of_the_linear_score():
    model = FieldModel(coef=(2.0, -1.0), intercept=0.5)
    assert model.probability([1.0, 1.0]) == pytest.approx(1 / (1 + math.exp(-1.5)))
    assert model.probability([0.0, 0.0]) == pytest.approx(1 / (1 + math.exp(-0.5)))


def _params(**thresholds: float) -> EvidenceParams:
    """p = sigmoid(10 * stated + 8 * mass_dense - 5): a stated value at 0.9 -> sigmoid(4) = 0.982."""
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("stated")] = 10.0
    coef[FEATURES.index("mass_dense")] = 8.0
    models = {f: FieldModel(tuple(coef), -5.0, thresholds.get(f, 0.85), 0.4) for f in MODEL_FIELDS}
    return EvidenceParams(models=models)


def test_a_stated_value_filters_and_a_contradicting_evidence_value_is_a_conflict():
    stated = StatedQuery({"subject": StatedField(("chemistry",), 0.9)}, topic_words=4)
    decision = decide_scope(stated, HITS, _params())
    subject = decision.fields["subject"]
    assert subject.action == "filter" and subject.values == ("chemistry",)
    assert subject.probability == pytest.approx(1 / (1 + math.exp(-4)), abs=1e-4)
    assert decision.filter == Scope(subject=("chemistry",))
    # physics: sigmoid(8 * 0.7311 - 5) = sigmoid(0.849) = 0.700 -> ranked, not filtered
    level = decision.fields["level"]
    assert level.action in ("rank", "none")
    assert decision.label == "gated"


def test_strong_evidence_overrides_the_stated_subject_and_says_so():
    stated = StatedQuery({"subject": StatedField(("economics",), 0.2)}, topic_words=4)
    hits = [EvidenceHit(_meta("physics"), 0.9, "dense", 1), EvidenceHit(_meta("physics"), 0.9, "dense", 2)]
    decision = decide_scope(stated, hits, _params())
    subject = decision.fields["subject"]
    # economics: sigmoid(10 * 0.2 - 5) = 0.047; physics: sigmoid(8 * 1.0 - 5) = 0.953
    assert subject.values == ("physics",) and subject.action == "filter" and subject.source == "evidence"
    assert "the evidence decides" in subject.conflict
    assert subject.conflict in decision.notes


def test_nothing_confident_is_ungated_and_labelled():
    decision = decide_scope(StatedQuery({}, 3), HITS[:2], _params())
    assert decision.filter.is_empty()
    assert decision.label == "ungated"
    assert any("ungated" in n for n in decision.notes)


def test_evidence_outside_the_curriculum_removes_every_non_strict_constraint():
    stated = StatedQuery({"subject": StatedField(("biology",), 0.9)}, topic_words=6)
    hits = [EvidenceHit(_meta(None), 0.9 - i * 0.01, "dense", i + 1) for i in range(5)]
    decision = decide_scope(stated, hits, _params())
    assert decision.curriculum_share == 0.0
    assert decision.filter.is_empty() and not decision.penalties
    assert decision.label == "ungated"
    assert any("not a curriculum request" in n for n in decision.notes)


def test_penalty_multiplies_over_violated_uncertain_fields():
    decision = EvidenceDecision(fields={}, filter=Scope(), strict_keys=[], soft_fields={}, label="ranked", curriculum_share=1.0,
                                penalties={"level": (("grade_8",), 0.6), "subject": (("physics",), 0.4)},
                                penalty_strength=0.5)
    assert penalty_factor({"level": "grade_8", "subject": "physics"}, decision) == 1.0
    assert penalty_factor({"level": "grade_5", "subject": "physics"}, decision) == pytest.approx(0.7)
    # both violated: (1 - 0.5 * 0.6) * (1 - 0.5 * 0.4) = 0.7 * 0.8
    assert penalty_factor({"level": None, "subject": "chemistry"}, decision) == pytest.approx(0.56)


def test_params_round_trip_and_refuse_other_features():
    params = _params(subject=0.7)
    again = EvidenceParams.from_dict(params.to_dict())
    assert again.models["subject"].filter_threshold == 0.7
    assert again.models["level"].coef == params.models["level"].coef
    bad = params.to_dict() | {"features": ["x"]}
    with pytest.raises(ValueError, match="features"):
        EvidenceParams.from_dict(bad)


def test_an_uncertain_stated_level_is_a_soft_w0_constraint_with_the_evidence_as_alternative():
    # p(stated grade_11 at 0.3) = sigmoid(10 * 0.3 - 5) = 0.119 -> soft at rank threshold 0.1;
    # p(grade_12, dense mass 1) = sigmoid(5 * 1 - 5) = 0.5 < 0.85 -> not a filter
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("stated")] = 10.0
    coef[FEATURES.index("mass_dense")] = 5.0
    params = EvidenceParams(models={n: FieldModel(tuple(coef), -5.0, 0.85, 0.1) for n in MODEL_FIELDS})
    stated = StatedQuery({"level": StatedField(("grade_11",), 0.3)}, topic_words=4)
    hits = [EvidenceHit(_meta("physics", "grade_12"), 0.9, "dense", 1), EvidenceHit(_meta("physics", "grade_12"), 0.89, "dense", 2)]
    level = decide_scope(stated, hits, params).fields["level"]
    assert level.action == "soft" and level.values == ("grade_11",)
    assert level.alternative == ("grade_12",)  # mass 1.0 >= ALTERNATIVE_MASS


def test_a_confidently_stated_level_stays_the_exact_scope_when_the_evidence_holds_the_material_elsewhere():
    # the gold of an as-asked field is the scope as asked: "college physics" whose material is high school
    # is a relaxation (W0 college, relaxed to high school with a label), never a silent W0 high school
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("mass_dense")] = 10.0
    params = EvidenceParams(models={n: FieldModel(tuple(coef), -5.0, 0.85, 0.3) for n in MODEL_FIELDS})
    stated = StatedQuery({"level": StatedField(("college",), 0.85)}, topic_words=4)
    hits = [EvidenceHit(_meta("physics", "high_school"), 0.9, "dense", 1), EvidenceHit(_meta("physics", "high_school"), 0.89, "dense", 2)]
    decision = decide_scope(stated, hits, params)
    level = decision.fields["level"]
    assert level.action == "soft" and level.values == ("college",) and decision.filter.level == ("college",)
    assert level.alternative == ("high_school",) and "relaxation goes there" in level.conflict
    # an unsure statement (below AS_ASKED_MIN_CONFIDENCE) does not hold against confident evidence
    unsure = StatedQuery({"level": StatedField(("college",), 0.3)}, topic_words=4)
    assert decide_scope(unsure, hits, params).fields["level"].values == ("high_school",)


def test_a_confident_filter_on_what_the_text_states_gets_no_evidence_alternative():
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("stated")] = 10.0
    params = EvidenceParams(models={n: FieldModel(tuple(coef), -1.0, 0.85, 0.3) for n in MODEL_FIELDS})
    hits = [EvidenceHit(_meta("physics", "high_school", content_type="exam_question"), 0.9, "dense", 1)]
    textbook = StatedQuery({"content_type": StatedField(("textbook",), 0.9)}, topic_words=4)
    assert decide_scope(textbook, hits, params).fields["content_type"].alternative == ()
    # marking material may not exist for the item: there the evidence's content type is offered
    marking = StatedQuery({"content_type": StatedField(("mark_scheme",), 0.9)}, topic_words=4)
    assert decide_scope(marking, hits, params).fields["content_type"].alternative == ("exam_question",)


def test_a_stated_candidate_set_is_kept_together_when_no_member_is_confident():
    # two stated papers at 0.5: each sigmoid(10 * 0.5 - 5) = 0.5 < 0.85, together 1.0 >= 0.4 -> soft set
    stated = StatedQuery({"paper": StatedField(("P1", "P2"), 0.5)}, topic_words=0)
    paper = decide_scope(stated, HITS, _params()).fields["paper"]
    assert paper.action == "soft" and set(paper.values) == {"P1", "P2"}


def test_a_pure_item_look_up_without_an_identifiable_paper_gets_no_exact_answer():
    from services.gate.evidence import UNIDENTIFIED_PAPER

    stated = StatedQuery({"year": StatedField((2019,), 0.9), "question_number": StatedField((3,), 0.95)}, topic_words=0)
    decision = decide_scope(stated, HITS, _params())
    assert decision.filter.paper == (UNIDENTIFIED_PAPER,) and "paper" in decision.soft_fields
    # a board the corpus holds identifies the item together with year and number
    stated = StatedQuery({**stated.fields, "exam_board": StatedField(("MAA AMC",), 0.9)}, topic_words=0)
    decision = decide_scope(stated, HITS, _params(), known={"exam_board": {"MAA AMC"}})
    assert not decision.filter.paper and decision.filter.exam_board == ("MAA AMC",)


def test_a_stated_board_the_corpus_lacks_filters_so_the_exact_scope_is_empty():
    stated = StatedQuery({"exam_board": StatedField(("WAEC",), 0.9)}, topic_words=3)
    decision = decide_scope(stated, HITS, _params(), known={"exam_board": {"MAA AMC"}})
    assert decision.filter.exam_board == ("WAEC",)
    assert "not in the corpus" in decision.fields["exam_board"].conflict


def test_a_stated_textbook_publisher_filters_it_names_the_book():
    """"OpenStax 物理の solutions manual ..." (authored jl_ms_rx.01): the Japanese probe finds Gaokao solutions; the
    book named is the source asked for, so its board filters (and the empty exact scope relaxes to the book)."""
    ox = "OpenStax (Rice University)"
    known = {"exam_board": {"MAA AMC", ox}, "textbook_board": {ox}}
    stated = StatedQuery({"exam_board": StatedField((ox,), 0.9)}, topic_words=3)
    assert decide_scope(stated, HITS, _params(), known=known).filter.exam_board == (ox,)
    stated = StatedQuery({"exam_board": StatedField(("MAA AMC",), 0.9)}, topic_words=3)
    decision = decide_scope(stated, HITS, _params(), known=known)
    assert not decision.filter.exam_board and decision.fields["exam_board"].action == "rank"   # another board ranks


def test_a_requested_language_version_reads_the_evidence_in_that_language():
    hits = [EvidenceHit(_meta("physics", "high_school", language="en"), 0.9, "dense", 1),
            EvidenceHit(_meta("physics", "grade_12", language="es"), 0.7, "dense", 2)]
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("mass_dense")] = 10.0
    params = EvidenceParams(models={f: FieldModel(tuple(coef), -5.0, 0.85, 0.4) for f in MODEL_FIELDS})
    stated = StatedQuery({"language": StatedField(("es",), 0.75)}, topic_words=5)
    decision = decide_scope(stated, hits, params)
    # only the Spanish hit counts: level grade_12 has mass 1 -> sigmoid(5) = 0.993
    assert decision.fields["level"].values == ("grade_12",) and decision.fields["level"].action == "filter"
    assert decision.fields["language"].action == "rank"


def test_evidence_with_nothing_in_the_requested_language_does_not_overrule_the_stated_subject():
    """Round 35 (ko_bil_exact.01, "找一道法语的物理选择题 ..."): the Chinese words find Chinese biology items, which say
    nothing about the French physics item asked for; the text's subject stands, softly, with the evidence's value
    as where the ladder may go."""
    hits = [EvidenceHit(_meta("physics", language="zh"), 0.9, "dense", 1),
            EvidenceHit(_meta("physics", language="zh"), 0.9, "dense", 2)]
    stated = StatedQuery({"subject": StatedField(("economics",), 0.2), "language": StatedField(("fr",), 0.75)},
                         topic_words=4)
    subject = decide_scope(stated, hits, _params()).fields["subject"]
    assert subject.values == ("economics",) and subject.action == "soft" and subject.alternative == ("physics",)
    assert "the text stands" in subject.conflict
    # one hit in the requested language: the evidence is about the version asked for, and decides as before
    hits.append(EvidenceHit(_meta("physics", language="fr"), 0.9, "dense", 3))
    subject = decide_scope(stated, hits, _params()).fields["subject"]
    assert subject.values == ("physics",) and subject.source == "evidence"


def test_weak_curriculum_evidence_infers_nothing_but_keeps_what_the_text_states():
    hits = [EvidenceHit(_meta("biology", "grade_12"), 0.9, "dense", 1), EvidenceHit(_meta("biology", "grade_12"), 0.9, "dense", 2),
            EvidenceHit(_meta(None), 0.9, "dense", 3)]
    stated = StatedQuery({"level": StatedField(("grade_12",), 0.9)}, topic_words=5)
    decision = decide_scope(stated, hits, _params())  # curriculum share 2/3: between 0.5 and 0.9
    assert "subject" not in decision.filter.constrained_fields()
    assert decision.filter.level == ("grade_12",)


def test_client_hints_win_field_by_field():
    from services.gate.evidence import with_hints

    stated = StatedQuery({"level": StatedField(("grade_11",), 0.3)}, topic_words=4)
    decision = decide_scope(stated, HITS, _params())
    hinted = with_hints(decision, Scope(level=("grade_12",), paper=("AMC 12A",)))
    assert hinted.filter.level == ("grade_12",) and hinted.filter.paper == ("AMC 12A",)
    assert "level" not in hinted.soft_fields and "level" not in hinted.penalties
    assert hinted.fields["level"].probability == 1.0 and hinted.fields["level"].source == "hint"
    assert "paper" in hinted.strict_keys and hinted.label == "gated"
    assert with_hints(decision, Scope()) is decision


def test_the_committed_parameters_load_and_cover_every_model_field():
    params = EvidenceParams.load()
    assert set(params.models) == set(MODEL_FIELDS)
    assert all(len(m.coef) == len(FEATURES) and 0.3 <= m.filter_threshold <= 0.99 for m in params.models.values())
    assert params.depth == 20 and 0 < params.penalty <= 1


def test_kinds_stated_together_stay_together_when_the_evidence_confirms_one():
    """Round 58 ("el libro de física y el estándar de matemáticas"): the probe finds the standard nearer the words;
    the textbook the text asks for beside it stays in the scope."""
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("stated")] = 4.0
    coef[FEATURES.index("mass_dense")] = 8.0
    params = EvidenceParams(models={n: FieldModel(tuple(coef), -5.0, 0.85, 0.4) for n in MODEL_FIELDS})
    hits = [EvidenceHit(_meta("mathematics", "high_school", content_type="syllabus"), 0.9, "dense", 1),
            EvidenceHit(_meta("mathematics", "high_school", content_type="syllabus"), 0.89, "dense", 2)]
    both = StatedQuery({"content_type": StatedField(("textbook", "syllabus"), 0.85)}, topic_words=4)
    kind = decide_scope(both, hits, params).fields["content_type"]
    assert set(kind.values) == {"textbook", "syllabus"}
    # another field's stated set is still the evidence's to narrow ("全国III卷 数学": one of the two tracks)
    papers = StatedQuery({"paper": StatedField(("P1", "P2"), 0.85)}, topic_words=4)
    paper_hits = [EvidenceHit(_meta("mathematics", "grade_12", paper="P1"), 0.9, "dense", 1)]
    assert decide_scope(papers, paper_hits, params).fields["paper"].values == ("P1",)
