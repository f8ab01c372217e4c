"""The text's subject, overruled by the evidence because the index does not hold it, is a relaxation (issue 21)."""

from __future__ import annotations

import pytest

from chsr.relaxation import W0, W1
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


def test_a_w0_only_ladder_answers_in_the_evidences_scope(mini):
    flt = Scope(subject=("science",), level=("grade_4",))
    stated, decision = _decision(flt, "chemistry")
    strict = evidence_ladder(decision, mini, strict_scope=True)
    assert with_stated_w0(strict, overruled_absent(stated, decision, mini), flt) == strict
