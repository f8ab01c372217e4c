"""The relaxation ladder over an evidence decision (issue 14)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chsr.relaxation import W1, W2
from chsr.scope import Scope
from chsr.v1 import common_pb2
from services.gate.evidence import EvidenceDecision, FieldDecision
from services.gate.evidence_ladder import evidence_ladder

pytestmark = pytest.mark.unit


def _decision(flt: Scope, fields: dict, soft: dict | None = None, strict: list | None = None) -> EvidenceDecision:
    return EvidenceDecision(fields=fields, filter=flt, penalties={}, strict_keys=strict or [], soft_fields=soft or {},
                            label="gated", curriculum_share=1.0)


def test_an_absent_level_widens_to_the_nearest_grades_before_the_evidence_level(mini):
    flt = Scope(subject=("mathematics",), level=("grade_11",), content_type=("exam_question",))
    level = FieldDecision("level", ("grade_11",), 0.4, "stated", "soft", alternative=("grade_12",))
    rungs = evidence_ladder(_decision(flt, {"level": level}, soft={"level": "stated but uncertain"}), mini)
    labels = [r.label for r in rungs]
    assert labels == sorted(labels)  # the ladder keeps its order
    assert rungs[0].filter.level == ("grade_11",)
    evidence_rung = next(r for r in rungs if "evidence" in r.description)
    assert evidence_rung.step == W2 and evidence_rung.filter.level == ("grade_12",)
    at = rungs.index(evidence_rung)
    # after every nearest-grade widening (README: relaxation goes to the nearest scope) ...
    assert all(r.filter.level for r in rungs[1:at] if r.step == W2) and rungs[at - 1].filter.level
    # ... and before the level is dropped
    assert any(r.step >= W2 and not r.filter.level for r in rungs[at + 1:])
    assert "grade_11 -> grade_12" in evidence_rung.description


def test_a_content_type_alternative_is_a_w1_rung(mini):
    flt = Scope(subject=("science",), content_type=("exam_question",))
    ct = FieldDecision("content_type", ("exam_question",), 0.9, "stated", "filter", alternative=("textbook",))
    rungs = evidence_ladder(_decision(flt, {"content_type": ct}), mini)
    assert rungs[1].step == W1 and rungs[1].filter.content_type == ("textbook",)


def test_marking_material_tries_its_kin_before_the_item_itself(mini):
    """A mark scheme asked for a Gaokao multiple-choice item, which has a worked solution: the evidence finds the
    question, but the solution is nearer what was asked (the curriculum README's nearest scope)."""
    flt = Scope(subject=("history",), year=(2018,), paper=("Gaokao 新课标III History",), content_type=("mark_scheme",),
                question_number=(5,))
    ct = FieldDecision("content_type", ("mark_scheme",), 0.9, "stated", "filter", alternative=("exam_question",))
    rungs = evidence_ladder(_decision(flt, {"content_type": ct}), mini)
    assert [r.filter.content_type for r in rungs[:3]] == [("mark_scheme",), ("mark_scheme", "solution"),
                                                          ("exam_question",)]
    assert rungs[1].step == W1 and "content_type mark_scheme -> mark_scheme|solution" in rungs[1].description
    assert sum(r.filter == rungs[1].filter for r in rungs) == 1   # moved, not repeated
    to_solution = FieldDecision("content_type", ("mark_scheme",), 0.9, "stated", "filter", alternative=("solution",))
    assert evidence_ladder(_decision(flt, {"content_type": to_solution}), mini)[1].filter.content_type == ("solution",)
    broad = Scope(subject=("mathematics",), content_type=("mark_scheme",))    # no named item: the evidence's type
    assert evidence_ladder(_decision(broad, {"content_type": ct}), mini)[1].filter.content_type == ("exam_question",)
    # round 27: a mark scheme asked by paper and year, with no number: the sitting's solutions, ranked by the topic
    sitting = Scope(subject=("history",), year=(2018,), paper=("Gaokao 新课标III History",), content_type=("mark_scheme",))
    assert evidence_ladder(_decision(sitting, {"content_type": ct}), mini)[1].filter.content_type == ("mark_scheme",
                                                                                                     "solution")
    # ... but a solution asked that way keeps the evidence's kind ("enunciado + solución": the question too)
    solution = replace(sitting, content_type=("solution",))
    ct_solution = FieldDecision("content_type", ("solution",), 0.9, "stated", "filter", alternative=("exam_question",))
    assert evidence_ladder(_decision(solution, {"content_type": ct_solution}), mini)[1].filter.content_type == (
        "exam_question",)


def test_strict_scope_and_strict_keys_get_no_evidence_rung(mini):
    flt = Scope(paper=("AMC 10A",), question_number=(7,), content_type=("mark_scheme",))
    ct = FieldDecision("content_type", ("mark_scheme",), 0.9, "stated", "filter", alternative=("solution",))
    assert len(evidence_ladder(_decision(flt, {"content_type": ct}, strict=["paper"]), mini, strict_scope=True)) == 1
    paper = FieldDecision("paper", ("AMC 10A",), 0.9, "stated", "filter", alternative=("AMC 10B",))
    rungs = evidence_ladder(_decision(flt, {"paper": paper}, strict=["paper", "question_number"]), mini)
    assert all("evidence" not in r.description for r in rungs)


def test_a_weak_table_the_evidence_reads_as_an_exam_question_moves_no_subject(mini):
    """"geography practice q: table of labor hours per unit of wine and cheese ..." (round 15, ig_tab_ad.52): the
    'table' made the textbook a soft kind, the evidence finds an exam question likelier (0.76); economics holds no
    textbook, and the reference-material rung moved the subject to physics. Now the kind is dropped at W1 instead.
    A weak table the evidence does not read as another kind (p < 0.5) still finds the physics textbook."""
    from services.gate.evidence_features import EvidenceHit
    from services.gate.nearest import material_found

    found = material_found([EvidenceHit({"subject": "physics", "content_type": "textbook"}, 0.9, "sparse", 1)])
    flt = Scope(subject=("economics",), level=("high_school",), content_type=("textbook",))
    soft = {"content_type": "stated but uncertain"}

    def ladder(p_question: float) -> list:
        kind = FieldDecision("content_type", ("textbook",), 0.43, "stated", "soft",
                             candidates=(("exam_question", p_question), ("textbook", 0.43)))
        return evidence_ladder(_decision(flt, {"content_type": kind}, soft=soft), mini, found=found)

    assert not any(r.filter.subject == ("physics",) for r in ladder(0.76))
    assert ladder(0.76)[1].filter.content_type == () and ladder(0.76)[1].filter.subject == ("economics",)
    assert any(r.filter.subject == ("physics",) for r in ladder(0.39))
