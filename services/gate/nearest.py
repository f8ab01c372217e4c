"""The nearest level the corpus holds, as a rung of its own (issue 21, failure class 2).

When the asked level holds nothing for the subject (and content type), the field to relax is the level,
and its nearest value is measured in the corpus: the levels held for that subject nearest the asked one
(ties: both sides, or the side in the asked grade's band). The rung comes before the ladder's generic
widenings (band, one, two, three grades), which also admit levels the corpus holds farther away, and says
what moved ("level grade_6 not held for mathematics exam_question; nearest held: grade_5, grade_7").

Reference material keeps its kind: a textbook or syllabus asked at a level (or for a subject) that has none
is answered from the nearest level where that subject — or, for general science, one of its disciplines —
has that kind of material, before the ladder drops the content type ("grade 7 physics textbook table of
prefixes" -> the high-school physics textbook, not grade-7 exam questions; curriculum README: relaxation
goes to the nearest scope, and the dev cases' textbook requests all keep the textbook).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from chsr.levels import NEAR_GRADES, level_distance, nearest_levels
from chsr.query_language import detect_language
from chsr.relaxation import W1, W2
from chsr.scope import MARKING_TYPES, REFERENCE_MATERIAL, Scope
from services.gate.evidence_features import EvidenceHit
from services.gate.ladder import SCIENCE_DISCIPLINES, LadderStep
from services.gate.vocabulary import Vocabulary


def with_nearest_level(steps: list[LadderStep], vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with a nearest-held-level rung before the first W2 rung (unchanged when not needed)."""
    at = next((i for i, s in enumerate(steps) if s.step == W2), None)
    if at is None or at == 0 or not vocab.has_corpus:
        return steps
    rung = nearest_level_rung(steps[at - 1].filter, vocab)
    if rung is None or any(s.filter == rung.filter for s in steps):
        return steps
    return steps[:at] + [rung] + steps[at:]


def with_language_level(steps: list[LadderStep], language: str | None, vocab: Vocabulary,
                        written: bool = False) -> list[LadderStep]:
    """``steps`` with a rung, before the first rung that widens the level, moving the level to the nearest level
    that holds the subject (and content type) in ``language``, where neither the asked level nor the rung the
    ladder would widen to next holds anything in it and that level lies within ``NEAR_GRADES`` of the asked one.

    "preguntas de física de 1º de bachillerato (grade 11) en castellano: ... carbono-12 y carbono-14": the index has
    no grade-11 physics; the nearest level that has physics is the high-school band, all of it in English, while
    the Spanish grade-12 items a grade away hold the asked item in the asked language. The rung comes first; it
    answers only when its words find something on topic, and otherwise the ladder goes on as before.
    ``language``: the code of a language version the query (or a client hint) asks for, or (``written``) the one it
    is written in. The written language moved the level as often wrongly as rightly for any scope (decision 63), so
    it moves it only for the scope as asked (the rung before it is W0's subject and kind, no board), one subject,
    at a level the index holds none of that subject and kind at in any language (decision 80): "高二化学 ...
    选择题" -> the Chinese grade-12 chemistry, not the English high-school band; "10年级数学 质数" holds grade-10
    mathematics, only not in Chinese, and keeps its ladder."""
    at = next((i for i, s in enumerate(steps) if i > 0 and s.step == W2 and s.filter.level != steps[0].filter.level),
              None)
    if not language or at is None:
        return steps
    base = steps[at - 1].filter
    if not base.subject or not base.level or base.paper or base.question_number:
        return steps
    asked = steps[0].filter
    if written and (len(base.subject) != 1 or base.exam_board or base.subject != asked.subject
                    or base.content_type != asked.content_type
                    or vocab.held_levels(base.subject, base.content_type) & set(base.level)):
        return steps
    held = vocab.levels_in_language(base.subject, language, base.content_type)
    if not held or held & (set(base.level) | set(steps[at].filter.level)):
        return steps
    near = [lv for lv in held if any((d := level_distance(lv, a)) is not None and d <= NEAR_GRADES
                                     for a in base.level)]
    nearest = nearest_levels(near, base.level)
    if not nearest:
        return steps
    flt = replace(base, level=nearest)
    if any(s.filter == flt for s in steps[:at]):
        return steps
    what = "/".join(base.subject) + (f" {'/'.join(base.content_type)}" if base.content_type else "")
    rung = LadderStep(W2, flt, f"W2 nearest level holding {what} in the query's language ({language}): level "
                               f"{'|'.join(base.level)} holds none; {'|'.join(nearest)} does")
    return steps[:at] + [rung] + [s for s in steps[at:] if s.filter != flt]


def nearest_level_rung(base: Scope, vocab: Vocabulary) -> LadderStep | None:
    """The W2 rung moving ``base``'s level to the nearest level held for its subject (and content type), saying
    what moved; None when ``base`` names no subject or level, or its level is held."""
    if not base.level or not base.subject:
        return None
    held = vocab.held_levels(base.subject, base.content_type) or vocab.held_levels(base.subject)
    if not held or set(base.level) & held:
        return None
    nearest = nearest_levels(held, base.level)
    if not nearest:
        return None
    what = "/".join(base.subject) + (f" {'/'.join(base.content_type)}" if base.content_type else "")
    return LadderStep(W2, replace(base, level=nearest), f"W2 nearest level held: level {'|'.join(base.level)} not "
                                                         f"held for {what}; nearest held: {'|'.join(nearest)}")


def with_question_for_marking(steps: list[LadderStep], vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with a W1 rung right after W0 that asks for the questions themselves at the same level, where
    marking material is asked of a subject and level the index holds questions of but no marking material for
    ("MMLU hs chem half-life ... 要答案+解析", "corrigé détaillé svp, QCM physique niveau fac"): the field the index
    lacks for the rest of the scope is the content type, not the level; moving the level would answer a high-school
    question with grade-12 Gaokao solutions (dev's "MCAS grade 5 ... marking guidelines" relaxes to the question).
    Where the level holds a textbook (high-school physics), a worked solution is asked of its worked examples, which
    the ladder's reference rungs find; a named paper is left to the paper's own rules (decision 61)."""
    if len(steps) < 2 or not vocab.has_corpus:
        return steps
    base = steps[0].filter
    if not base.content_type or not set(base.content_type) <= set(MARKING_TYPES) or not base.level \
            or not base.subject or base.paper:
        return steps
    if set(base.level) & vocab.held_levels(base.subject, (*MARKING_TYPES, "textbook")) \
            or not set(base.level) & vocab.held_levels(base.subject, QUESTIONS):
        return steps  # held; or a textbook there, whose worked examples are the answers (the ladder's own rungs)
    relaxed = replace(base, content_type=QUESTIONS)
    if any(s.filter == relaxed for s in steps):
        return steps
    rung = LadderStep(W1, relaxed, f"W1 content_type {'|'.join(base.content_type)} -> exam_question: the index holds "
                                   f"no marking material for {'/'.join(base.subject)} at {'|'.join(base.level)}")
    return [steps[0], rung, *steps[1:]]


#: The content type of the questions themselves.
QUESTIONS: tuple[str, ...] = ("exam_question",)
#: How deep in each probe leg a reference chunk counts as the evidence finding the material there. At 10 a
#: query that merely says "textbook chapter" found the physics textbook in the dense leg's top 10 whatever its
#: topic ("history textbook chapter on the Tang dynasty"); at 3 those stay with their subject, and the generated
#: table slice keeps most of the gain (leakage 0.140 -> 0.075 at 3, 0.056 at 10).
MATERIAL_DEPTH = 3


def material_found(probe: Sequence[EvidenceHit], depth: int = MATERIAL_DEPTH) -> dict[str, set[str]]:
    """Reference content type -> the subjects whose material of that type the probe found (each leg's top ``depth``)."""
    found: dict[str, set[str]] = {}
    for hit in probe:
        kind, subject = hit.metadata.get("content_type"), hit.metadata.get("subject")
        if hit.rank <= depth and kind in REFERENCE_MATERIAL and subject:
            found.setdefault(kind, set()).add(subject)
    return found


def material_unseen(query: str, content_types: tuple[str, ...], vocab: Vocabulary) -> bool:
    """Whether the probe cannot see the reference material asked for: the query is written in a language the index
    holds none of it in (the textbook is English; a Chinese query shares no word with it, and the English-trained
    embedding does not read Chinese). False when unknown (no language detected, no languages in the catalogue)."""
    kinds = tuple(c for c in content_types if c in REFERENCE_MATERIAL)
    written = detect_language(query)
    if not kinds or written is None:
        return False
    held_in = vocab.languages_of(kinds)
    return bool(held_in) and written.code not in held_in


def with_reference_material(steps: list[LadderStep], vocab: Vocabulary,
                            found: Mapping[str, Collection[str]] | None = None,
                            unlikely: bool = False, subject_confirmed: bool = False,
                            kind_firm: bool = False, unseen: bool = False) -> list[LadderStep]:
    """``steps`` with a W1 rung right after W0 that keeps a reference content type and moves the level (and the
    subject) to the nearest place the corpus holds it (unchanged when W0 can match it).

    The subject moves only when it holds no such material at any level: general science to its disciplines; any
    other subject to the subjects whose material of that kind the evidence found near the top of a probe leg
    (``found``, from :func:`material_found`; none on the text-only path): "high school chemistry textbook table of
    latent heats" names a subject without a textbook, and the probe finds the table in the physics textbook (dev's
    adversarial table cases name chemistry or biology for a physics textbook table). A history question the physics textbook
    does not answer ("history textbook chapter on the industrial revolution") finds no textbook at the top of the
    probe, and keeps going down the ladder.

    ``unlikely``: the reference kind is stated but uncertain and the evidence finds another kind likelier ("geography
    practice q: table of labor hours per unit of wine and cheese": the table is in an exam question). It is then
    dropped at W1 like any soft field, and never moves the subject to one that holds textbooks.

    ``subject_confirmed``: the text and the evidence agree on the subject ("is there an official high school physics
    syllabus / standards doc that lists the projectile formulas?": physics 1.00). A syllabus is one subject's
    document, so another subject's standards never answer it: no rung moves the subject to where the probe found
    one (the mathematics standards), and the ladder relaxes the kind (decision 49). A textbook table is reference
    data any subject's query may need ("maths textbook table converting degrees to radians": the physics
    textbook), so a textbook still moves.

    ``kind_firm``: the kind is a filter, not a soft field (a weak "table" is not): only then, when the subject holds
    none of it anywhere and no other subject's is to be had, the next rung asks for the other reference kind.

    ``unseen``: the probe cannot see the textbook (:func:`material_unseen`: the query is written in a language the
    index holds no textbook in). A science discipline without a textbook then moves to the sibling disciplines that
    hold one, as the evidence moves it for an English query ("高中化学 ... 化学教材里有没有一张表，列出质子、中子、电子的质量":
    the physics textbook's table; round 44). Other subjects, and syllabi (one subject's document), still wait for
    evidence."""
    if len(steps) < 2 or not vocab.has_corpus or unlikely:
        return steps
    base = steps[0].filter
    kinds = tuple(c for c in base.content_type if c in REFERENCE_MATERIAL)
    if not kinds or len(kinds) != len(base.content_type) or not base.subject:
        return steps
    own = vocab.held_levels(base.subject, kinds)
    if (set(base.level) & own) if base.level else own:
        return steps  # the asked scope holds it: W0 (or the ladder's own rungs) will find it
    subjects = base.subject
    if not own and "science" in subjects:
        subjects = tuple(dict.fromkeys([*subjects, *SCIENCE_DISCIPLINES]))
    if not vocab.held_levels(subjects, kinds):
        if found and not (subject_confirmed and "textbook" not in kinds):
            subjects = tuple(s for s in vocab.content_holders(kinds) if any(s in found.get(k, ()) for k in kinds))
        elif unseen and kinds == ("textbook",) and set(subjects) <= set(SCIENCE_DISCIPLINES):
            subjects = tuple(s for s in vocab.content_holders(kinds) if s in SCIENCE_DISCIPLINES)
    nearest = _nearest_held(vocab.held_levels(subjects, kinds), base.level)
    if not nearest:
        return _with_other_kind(steps, kinds, vocab) if kind_firm and not own else steps
    holding = tuple(s for s in subjects if set(nearest) & vocab.held_levels((s,), kinds))
    relaxed = replace(base, subject=holding, level=nearest if base.level else (), year=(), paper=(),
                      question_number=())
    if any(s.filter == relaxed for s in steps):
        return steps
    asked = "/".join(base.subject) + (f" at {'|'.join(base.level)}" if base.level else "")
    where = "/".join(holding) + (f" {'|'.join(nearest)}" if base.level else "")
    rung = LadderStep(W1, relaxed, f"W1 keep the {'/'.join(kinds)}: none held for {asked}; nearest held: {where}")
    return [steps[0], rung, *steps[1:]]


def _with_other_kind(steps: list[LadderStep], kinds: tuple[str, ...], vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with a W1 rung right after W0 that keeps subject and level and asks for the other reference kind,
    when the subject holds none of the asked kinds at any level and no other subject's is to be had (decision 50).

    "need the 8th grade math textbook section on pythagorean thm ...": the index holds no mathematics textbook at
    all, and the probe found none elsewhere; the kind is the field the index lacks, so the nearest scope is the
    grade-8 mathematics standards, before any level is widened."""
    base = steps[0].filter
    others = tuple(k for k in REFERENCE_MATERIAL if k not in kinds)
    nearest = _nearest_held(vocab.held_levels(base.subject, others), base.level)
    if not nearest:
        return steps
    relaxed = replace(base, content_type=others, level=nearest if base.level else (), year=(), paper=(),
                      question_number=())
    if any(s.filter == relaxed for s in steps):
        return steps
    asked = "/".join(base.subject)
    rung = LadderStep(W1, relaxed, f"W1 no {'/'.join(kinds)} held for {asked} at any level; nearest kind held: "
                                   f"{'/'.join(others)}" + (f" at {'|'.join(nearest)}" if base.level else ""))
    return [steps[0], rung, *steps[1:]]


def _nearest_held(held: Collection[str], asked: tuple[str, ...]) -> tuple[str, ...]:
    """The held levels nearest the asked ones; every held level when none was asked; () when none is held."""
    if not held:
        return ()
    return nearest_levels(held, asked) if asked else tuple(sorted(held))
