"""The text's subject, overruled by the evidence because the index does not hold it, is a relaxation (issue 21)."""

from __future__ import annotations

import pytest

from chsr.relaxation import W0, W1, W2
from chsr.scope import Scope
from services.gate.evidence import EvidenceDecision, FieldDecision
from services.gate.evidence_features import StatedField, StatedQuery
from services.gate.evidence_ladder import evidence_ladder
from services.gate.overruled import overruled_absent, with_stated_w0

pytestmark = pytest.mark.unit


def _decision(flt: Scope, said: str) -> tuple[StatedQuery, EvidenceDecision]:
    subject = FieldDecision("subject", flt.subject, 0.92, "evidence", "filter",
                            conflict=f"subject: the text says {said}, the evidence says {flt.subject[0]}")
    decision = EvidenceDecision(fields={"subject": subject}, filter=flt, penalties={}, strict_keys=[], soft_fields={},
                                label="gated", curriculum_share=1.0)
    return StatedQuery({"subject": StatedField((said,), 0.9)}), decision


def test_a_subject_the_index_lacks_at_the_grade_is_w0_empty_and_the_evidences_scope_w1(mini):
    flt = Scope(subject=("science",), level=("grade_4",), content_type=("exam_question",))
    stated, decision = _decision(flt, "chemistry")   # the mini index holds no chemistry at grade 4
    overruled = overruled_absent(stated, decision, mini)
    assert overruled == {"subject": ("chemistry",)}
    rungs = with_stated_w0(evidence_ladder(decision, mini), overruled, flt)
    assert rungs[0].step == W0 and rungs[0].filter.subject == ("chemistry",) and "not held" in rungs[0].description
    assert rungs[1].step == W1 and rungs[1].filter == flt
    assert "subject chemistry -> science" in rungs[1].description


def test_a_wrongly_named_subject_the_index_holds_stays_a_correction_in_w0(mini):
    flt = Scope(subject=("science",), level=("grade_8",), content_type=("exam_question",))
    stated, decision = _decision(flt, "mathematics")  # mathematics is held at grade 8 (AMC 8): a wrong subject
    assert overruled_absent(stated, decision, mini) == {}
    rungs = evidence_ladder(decision, mini)
    assert with_stated_w0(rungs, {}, flt) == rungs and rungs[0].filter == flt


def test_a_subject_held_at_the_grade_but_not_of_the_asked_kind_is_a_relaxation(mini):
    """Round 18 (ip_fm_rx.01, "PV = nRT: la sección del libro de texto de Química"): chemistry is held, but no
    chemistry textbook; the textbook the evidence finds elsewhere is the nearest scope, labelled W1."""
    flt = Scope(subject=("physics",), level=("grade_12",), content_type=("textbook",))
    stated, decision = _decision(flt, "mathematics")   # mathematics is held at grade 12, as exam items only
    assert overruled_absent(stated, decision, mini) == {"subject": ("mathematics",)}
    flt = Scope(subject=("physics",), level=("grade_12",), content_type=("exam_question",))
    stated, decision = _decision(flt, "mathematics")   # of the asked kind it is held: a corrected subject
    assert overruled_absent(stated, decision, mini) == {}


def test_a_w0_only_ladder_answers_in_the_evidences_scope(mini):
    flt = Scope(subject=("science",), level=("grade_4",))
    stated, decision = _decision(flt, "chemistry")
    strict = evidence_ladder(decision, mini, strict_scope=True)
    assert with_stated_w0(strict, overruled_absent(stated, decision, mini), flt) == strict


def _dropped(flt: Scope, said: tuple[str, ...]) -> tuple[StatedQuery, EvidenceDecision]:
    subject = FieldDecision("subject", flt.subject, 0.3, "both" if flt.subject else "stated", "rank")
    decision = EvidenceDecision(fields={"subject": subject}, filter=flt, penalties={}, strict_keys=[], soft_fields={},
                                label="gated", curriculum_share=1.0)
    return StatedQuery({"subject": StatedField(said, 0.9)}), decision


def test_subjects_held_only_at_other_levels_move_the_level_when_the_evidence_dropped_them(mini):
    """"6th grade economics: ..." where the evidence was unsure of the subject and kept only the grade: before, W0
    was every subject at grade 6 (general science items labelled exact). Economics is held at high school only, so
    the field the index lacks is the level: W0 is economics at grade 6 (empty), then the nearest level holding it."""
    from services.gate.overruled import dropped_absent, with_stated_subject

    flt = Scope(level=("grade_6",))
    stated, decision = _dropped(flt, ("economics",))
    subjects = dropped_absent(stated, decision, mini)
    assert subjects == ("economics",)
    rungs = with_stated_subject(evidence_ladder(decision, mini), subjects, flt, mini)
    assert rungs[0].step == W0 and rungs[0].filter == Scope(subject=("economics",), level=("grade_6",))
    assert rungs[1].filter == Scope(subject=("economics",), level=("high_school",))
    assert "level grade_6 not held for economics; nearest held: high_school" in rungs[1].description
    assert rungs[2].step == W1 and rungs[2].filter == flt
    joined = Scope(subject=("economics", "science"), level=("grade_6",))   # the evidence added a subject beside it
    assert dropped_absent(*_dropped(joined, ("economics",)), mini) == ("economics",)


def test_a_replaced_or_held_subject_is_not_this_rule(mini):
    from services.gate.overruled import dropped_absent

    replaced = Scope(subject=("science",), level=("grade_6",))             # overruled_absent's case
    assert dropped_absent(*_dropped(replaced, ("economics",)), mini) == ()
    held = Scope(level=("grade_8",))                                         # mathematics is held at grade 8
    assert dropped_absent(*_dropped(held, ("mathematics",)), mini) == ()
    no_level = Scope()
    assert dropped_absent(*_dropped(no_level, ("economics",)), mini) == ()


def test_a_replaced_subject_held_one_step_away_is_tried_there_before_the_evidence_widens_the_level(mini):
    """"pregunta de geografía de nivel universitario ...": the probe of a Spanish query finds Spanish items first,
    whatever their subject, and the evidence replaced geography by physics. The index holds geography next door
    (high school), so after the evidence's own scope (W1, which may be right: a wrongly named subject) come the text's
    subject at the nearest level and at every level holding it, before the evidence's level widenings."""
    from services.gate.overruled import replaced_next_door, with_stated_fallback

    flt = Scope(subject=("economics",), level=("college",))
    stated, decision = _decision(flt, "physics")     # physics: high school (textbook) and grade 12 (Gaokao)
    overruled = overruled_absent(stated, decision, mini)
    assert overruled == {"subject": ("physics",)}
    subjects = replaced_next_door(overruled, flt, mini)
    assert subjects == ("physics",)
    rungs = with_stated_fallback(with_stated_w0(evidence_ladder(decision, mini), overruled, flt), subjects, flt, mini)
    assert rungs[0].step == W0 and rungs[0].filter == Scope(subject=("physics",), level=("college",))
    assert rungs[1].step == W1 and rungs[1].filter == flt
    at = next(i for i, r in enumerate(rungs) if r.filter.subject == ("physics",) and r.step == W2)
    assert all(r.step <= W1 for r in rungs[:at]) and all(r.step >= W2 for r in rungs[at:])
    assert rungs[at].filter == Scope(subject=("physics",), level=("high_school",))
    assert set(rungs[at + 1].filter.level) == {"high_school", "grade_12"}


def test_a_replaced_subject_held_far_away_is_the_evidences_case(mini):
    from services.gate.overruled import replaced_next_door

    flt = Scope(subject=("science",), level=("grade_4",))
    stated, decision = _decision(flt, "physics")     # physics is held from grade 12: eight grades away
    assert replaced_next_door(overruled_absent(stated, decision, mini), flt, mini) == ()


def test_the_named_papers_subject_stands_beside_an_evidence_subject_it_does_not_hold(mini):
    """"... the 2019 gaokao politics (national II) question on ... Piraeus port 比港" (round 15, ig_ms_sy.51): the
    evidence said history beside the named politics paper; together they hold nothing."""
    from services.gate.overruled import named_paper_subject

    flt = Scope(subject=("politics",), year=(2018,), paper=("Gaokao 新课标III History",))
    agreed = named_paper_subject(flt, mini)
    assert agreed is not None and agreed[0].subject == ("history",)
    assert "the evidence's politics is not kept" in agreed[1]
    assert named_paper_subject(Scope(subject=("history",), paper=("Gaokao 新课标III History",)), mini) is None
    assert named_paper_subject(Scope(subject=("politics",), paper=("No Such Paper",)), mini) is None


def test_science_disciplines_at_a_grade_the_index_files_as_general_science_move_to_science_first(mini):
    """"7th grade chem and bio review: cellular respiration" (round 17): below the high-school band the index files
    chemistry and biology under general science, which is nearer than another level (dev's "grade 5 physics and
    chemistry" relaxes to science at grade 5). The parent rung comes first, the level moves after it."""
    from services.gate.overruled import dropped_absent, with_stated_subject

    flt = Scope(level=("grade_8",))
    stated, decision = _dropped(flt, ("chemistry", "biology"))
    subjects = dropped_absent(stated, decision, mini)
    assert subjects == ("chemistry", "biology")
    rungs = with_stated_subject(evidence_ladder(decision, mini), subjects, flt, mini)
    assert rungs[0].step == W0 and rungs[0].filter.subject == ("chemistry", "biology")
    assert rungs[1].step == W1 and rungs[1].filter == Scope(subject=("science",), level=("grade_8",))
    assert "subject chemistry/biology -> science" in rungs[1].description
    assert rungs[2].step == W2 and rungs[2].filter.subject == ("chemistry", "biology")


def test_no_parent_rung_where_the_parent_is_not_held_at_the_grade(mini):
    from services.gate.overruled import dropped_absent, with_stated_subject

    flt = Scope(level=("grade_6",))                 # the mini corpus holds science at grades 4 and 8 only
    stated, decision = _dropped(flt, ("chemistry",))
    rungs = with_stated_subject(evidence_ladder(decision, mini), dropped_absent(stated, decision, mini), flt, mini)
    assert rungs[0].filter == Scope(subject=("chemistry",), level=("grade_6",))
    assert not any(r.filter == Scope(subject=("science",), level=("grade_6",)) for r in rungs)
