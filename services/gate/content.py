"""Content-type extraction: what kind of evidence the student asks for.

Kinds (``vocabulary.json`` -> ``content_types``): *answer* phrases (mark scheme,
参考答案 -> mark_scheme; worked solution, 解析 -> solution), *reference* phrases
(textbook, chapter -> textbook; syllabus, curriculum standard -> syllabus) and
*question* words (question, MCQ, QCM, Aufgabe, 题目 -> exam_question).

Two rules keep the constraint from excluding what was asked for:

* a question and its answer requested together ("problem 7 and its solution",
  "题目加评分标准", "... with solutions") -> no content-type constraint;
* a reference type in a cross-subject query ("Ohm's law ... (physics + algebra
  standard)") often qualifies only one of the subjects -> not used as a constraint,
  unless the corpus index shows that every named subject has that type (then
  "college chemistry and maths textbooks" keeps ``textbook``), or the reference word is
  written onto a named subject ("physics textbook: table comparing proton, neutron and
  electron masses", "manuel de physique ... un volcan": the book is the physics one; the
  second subject is a topic cue's).

A question number or an exam board alone implies ``exam_question`` with a low
confidence; without any exam context a "table" asks for reference material
(``textbook``) and a question-shaped query for an exam item. Content type is a
topic constraint that the ladder's W1 drops anyway.
"""

from __future__ import annotations

import re
from typing import Any

from services.gate.lexicon import Hit, SpanText
from services.gate.vocabulary import Vocabulary

IMPLIED = 0.5
#: A query phrased as a question (a '?', "which", "pourquoi", 哪...) with no other signal: a pasted exam item.
QUESTION_SHAPED = 0.4
REFERENCE_IN_CROSS_SUBJECT = 0.3
#: A numbered item "explained" (``_explained_items``): as sure as an answer word.
EXPLAINED = 0.85
_TRAILING_DETERMINERS = re.compile(r"\s*(?:its|their|the|his|her|sa|son|ses|le|la|les|die|der|das|su|sus|其|的)\s*$")

#: The evidence of a query asking for a question and its answer together (no content-type constraint).
BOTH_REQUESTED = "question and answer requested together: no content-type constraint"


#: "solution(s)" as a word of the problem, not the kind of material: the roots of an equation ("product of all
#: solutions", "how many real solutions", "solutions to the equation") or a chemist's mixture ("0.1 M NaCl solution",
#: "aqueous solution").
_SOLUTION_WORD = re.compile(r"solutions?$", re.IGNORECASE)
_PROBLEM_SOLUTION_BEFORE = re.compile(
    r"(?:\b(?:real|integer|integral|positive|negative|distinct|complex|rational|irrational|ordered|nonzero|non-zero|"
    r"possible|two|three|four|many|no|general|particular|trivial|nontrivial|exact|approximate|aqueous|buffer|"
    r"saline|salt|sugar|acid|acidic|basic|alkaline|stock|saturated|unsaturated|supersaturated|dilute|concentrated|"
    r"ionic|molar)"
    r"|\b(?:sum|product|number)\s+of(?:\s+all)?(?:\s+the)?(?:\s+(?:real|integer|positive))?"
    r"|\d\s*(?:m|mol/l|%))\s+$")
#: A chemical formula right before the word (NaCl, CuSO4, NH3): two or more element symbols, nothing else.
_FORMULA_BEFORE = re.compile(r"(?<![A-Za-z0-9])((?:[A-Z][a-z]?\d*){2,})\s+$")
_ELEMENT = re.compile(r"([A-Z][a-z]?)\d*")
ELEMENTS = frozenset("""H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se
    Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pt Au Hg Pb Bi U""".split())
#: "explained" right after a question number: the item's worked solution is asked for.
_EXPLAINED_AFTER = re.compile(r"\s*(explained|explanation|erklärt|expliqué|explicado)(?![^\W\d_])", re.IGNORECASE)
#: ... or right before an equation written out ("the solutions of (z+6)^8 = 81 form a convex regular polygon"; not
#: "solution for $AB=14$ ...", "solution for (2018) 新课标2卷 ...": requests), or before what a chemist's mixture does
#: ("the table of distances from the lamp and solution colours", "the solution turns blue").
_PROBLEM_SOLUTION_AFTER = re.compile(r"^\s+(?:(?:to|of|for|in)\s+(?:the\s+|this\s+|each\s+)?"
                                     r"(?:equation|equations|system|inequality|inequalities|polynomial|x\b)"
                                     r"|(?:to|of)\s+(?:\([^)]*[a-z][^)]*\)\s*[\^=]|[a-z]\s*[\^=])"
                                     r"|(?:colou?rs?|turns?|turned|changes?\s+colou?r|concentrations?)\b)",
                                     re.IGNORECASE)


def _problem_word(st: SpanText, hit: Hit) -> bool:
    """The hit is "solution(s)" used as a word of the problem itself (``_SOLUTION_WORD``)."""
    if not _SOLUTION_WORD.fullmatch(hit.text.strip()):
        return False
    before, after = st.text[max(0, hit.start - 40):hit.start], st.text[hit.end:hit.end + 40]
    formula = _FORMULA_BEFORE.search(before)
    is_formula = bool(formula) and all(sym in ELEMENTS for sym in _ELEMENT.findall(formula.group(1)))
    return bool(is_formula or _PROBLEM_SOLUTION_BEFORE.search(before) or _PROBLEM_SOLUTION_AFTER.match(after))


#: A negation right before a kind of answer ("the stem and options only, not the 解析", "without the mark scheme", "sin
#: la solución", "ohne Lösung", "不要答案"): that answer is ruled out, not asked for (round 45). Searched in the 16
#: characters before the mention.
NOT_WANTED = re.compile(r"(?:(?<![a-z\u00c0-\u024f])(?:not|no|without|sans|sin|ohne|nicht|kein|keine|keinen)\s+"
                        r"(?:the\s+|a\s+|an\s+|any\s+|la\s+|le\s+|les\s+|el\s+|los\s+|las\s+|die\s+|den\s+|de\s+)?"
                        r"|不要|不需要|无需|不用|不含|不带)\s*$")


#: The question asked for alone ("Question text only, the answer key comes later", "just the questions", "只要题目",
#: "nur die Aufgabe", "solo el enunciado", "seulement l'énoncé"): every answer kind the text mentions is ruled out.
QUESTION_ONLY = re.compile(
    r"(?<![a-z])(?:(?:question|questions|stem|stems|problem|problems)(?:\s+text)?\s+only|(?:only|just)\s+the\s+"
    r"(?:question|questions|stem|stems|problem|problems)(?![a-z])|nur\s+die\s+aufgaben?(?![a-z])|solo\s+(?:el|los)\s+"
    r"enunciados?(?![a-z])|seulement\s+l'[ée]nonc[ée])|只要题目|题目就行|只要原题")


def find_content_terms(st: SpanText, vocab: Vocabulary) -> list[Hit]:
    """Find and claim content-type phrases (before subjects and topic cues are read). An answer kind the text rules
    out (``NOT_WANTED``) is claimed, so it is not read as a topic word, but not returned."""
    hits = [hit for hit in vocab.content_type_terms.find(st) if not _problem_word(st, hit)]
    for hit in hits:
        if hit.value[1] != "weak_reference":  # "table" stays readable as part of a topic ("frequency table")
            st.claim(hit.start, hit.end, "content_type")
    question_only = bool(QUESTION_ONLY.search(st.low))
    return [hit for hit in hits if not (hit.value[1] == "answer" and (question_only or _ruled_out(st, hit)))]


def _ruled_out(st: SpanText, hit: Hit) -> bool:
    return bool(NOT_WANTED.search(st.low[max(0, hit.start - 16):hit.start]))


def content_type(
    st: SpanText, hits: list[Hit], vocab: Vocabulary, *, subjects: tuple[str, ...], levels: tuple[str, ...],
    numbered: bool, board_default: str | None, named: tuple[Hit, ...] = (),
) -> tuple[tuple[str, ...], float, str] | None:
    """``named``: the subject names the text wrote (``subjects.find_named``), for a reference word written onto one."""
    spans = [(h.start, h.end, h.value[1], h.value[0], h.text) for h in hits]
    spans += [(s, e, "question", "exam_question", "") for s, e, label in st.claims if label == "question_number"]
    spans += _explained_items(st)
    spans.sort()
    if any(sp[2] == "answer" for sp in spans) and any(sp[2] == "reference" and sp[3] == "textbook" for sp in spans):
        # "高一物理书 ... 例题 ... 要完整解答过程", "ejemplo resuelto del libro de física ... con la solución completa": a
        # textbook's worked example carries its own solution (the index files a textbook's examples as the
        # textbook): the book is the kind asked for, also where the solution is asked "with" it
        spans = [sp for sp in spans if sp[2] != "answer"]
    if _both_requested(st.text, spans, vocab):
        return (), 0.0, BOTH_REQUESTED
    for kind in ("answer", "reference"):
        chosen = [sp for sp in spans if sp[2] == kind]
        if chosen:
            values = tuple(dict.fromkeys(sp[3] for sp in chosen))
            evidence = ", ".join(sp[4] for sp in chosen)
            # the corpus holds the named kinds for every subject, at the asked level or (the level being what the
            # index lacks, which the ladder moves to the nearest held) at any level: the kinds do not exclude one
            if kind == "reference" and len(subjects) > 1 and not (_all_have(vocab, subjects, values, levels)
                                                                   or _all_have(vocab, subjects, values, ())
                                                                   or _written_onto_subject(st.text, chosen, named)
                                                                   or _written_onto_each(st.text, chosen, named)):
                return values, REFERENCE_IN_CROSS_SUBJECT, f"{evidence} (cross-subject query: qualifies one subject only)"
            confidence = max(vocab_conf(hits, kind)) if any(h.value[1] == kind for h in hits) else EXPLAINED
            return values, confidence, evidence
    questions = [sp for sp in spans if sp[2] == "question" and sp[4]]
    if questions:
        return ("exam_question",), max(vocab_conf(hits, "question")), ", ".join(sp[4] for sp in questions)
    if numbered:
        return ("exam_question",), IMPLIED, "implied by the question number"
    if board_default:
        confidence = IMPLIED if board_default == "exam_question" else 0.85
        return (board_default,), confidence, "implied by the exam board"
    weak = [sp for sp in spans if sp[2] == "weak_reference"]
    if weak:
        return tuple(dict.fromkeys(sp[3] for sp in weak)), max(vocab_conf(hits, "weak_reference")), weak[0][4]
    if "?" in st.text or vocab.question_words.find(st):
        return ("exam_question",), QUESTION_SHAPED, "question-shaped query"
    return None


#: What may stand between a subject's name and a reference word written onto it: "physics textbook", "phy 課本",
#: "manuel de physique", "libro de química", "Lehrbuch der Physik", "textbook of physics".
_ONTO_AFTER = re.compile(r"[\s-]{0,2}")
_ONTO_BEFORE = re.compile(r"\s*(?:(?:de|du|des|de\s+la|d'|of|der|del|de\s+los)\s*)?", re.IGNORECASE)


def _written_onto_subject(text: str, references: list[tuple], named: tuple[Hit, ...]) -> bool:
    """Whether the text names one subject only and a reference word is written onto it (``_ONTO_AFTER`` /
    ``_ONTO_BEFORE``): the other subjects are topic cues'. Where two subjects are named ("physics + algebra
    standard"), the reference qualifies the one it is written onto, and not the other."""
    if len({subject for hit in named for subject in hit.value[0]}) != 1:
        return False
    return any(_onto(text, reference, hit) for reference in references for hit in named)


def _onto(text: str, reference: tuple, hit: Hit) -> bool:
    """Whether the reference word (a content-type span) is written onto the subject name ``hit``: "physics
    textbook", "libro de física", "Lehrbuch der Physik"."""
    start, end = reference[0], reference[1]
    return ((hit.end <= start and bool(_ONTO_AFTER.fullmatch(text[hit.end:start])))
            or (end <= hit.start and bool(_ONTO_BEFORE.fullmatch(text[end:hit.start]))))


def _written_onto_each(text: str, references: list[tuple], named: tuple[Hit, ...]) -> bool:
    """Whether every subject the text names has a reference word written onto it: "la sección del libro de física y
    el estándar de matemáticas" asks for the physics textbook and the mathematics standard, so the kinds named
    constrain the answer together. One word after several subjects ("biology & chemistry textbook", "physics +
    algebra standard") is written onto the last only, and leaves the kind unconstrained as before."""
    subjects = {subject for hit in named for subject in hit.value[0]}
    covered = {subject for hit in named for subject in hit.value[0] if any(_onto(text, r, hit) for r in references)}
    return len(subjects) > 1 and covered == subjects


def _explained_items(st: SpanText) -> list[tuple]:
    """A numbered item followed by "explained" ("AMC 8 2019 #25 explained: ...", "Q7 explanation") asks for its worked
    solution; the word alone ("photosynthesis explained") asks for nothing in particular."""
    found = []
    for start, end, label in st.claims:
        after = _EXPLAINED_AFTER.match(st.text, end) if label == "question_number" else None
        if after:
            found.append((after.start(1), after.end(1), "answer", "solution", after.group(1)))
    return found


def _all_have(vocab: Vocabulary, subjects: tuple[str, ...], values: tuple[str, ...], levels: tuple[str, ...]) -> bool:
    """True when the corpus holds this reference type for every subject (so it cannot exclude one of them)."""
    return all(any(vocab.subject_has_content(s, v, levels) for v in values) for s in subjects)


def vocab_conf(hits: list[Any], kind: str) -> list[float]:
    return [h.value[2] for h in hits if h.value[1] == kind] or [IMPLIED]


def _both_requested(text: str, spans: list[tuple], vocab: Vocabulary) -> bool:
    """An answer phrase coordinated with a question phrase, or introduced by "with"."""
    spec = vocab.data["content_types"]
    coordinators = {c.lower() for c in spec["coordinators"]}
    with_words = sorted((w.lower() for w in spec["with_words"]), key=len, reverse=True)
    with_re = re.compile(r"(?:^|[^0-9a-z])(?:" + "|".join(re.escape(w) for w in with_words) + r")\s*$")
    for i, (start, end, kind, _, _) in enumerate(spans):
        if kind != "answer":
            continue
        before = text[max(0, start - 30):start].lower()
        if with_re.search(_TRAILING_DETERMINERS.sub("", before)):
            return True
        if i > 0 and spans[i - 1][2] == "question" and _is_coordinator(text[spans[i - 1][1]:start], coordinators):
            return True
        if i + 1 < len(spans) and spans[i + 1][2] == "question" and _is_coordinator(text[end:spans[i + 1][0]], coordinators):
            return True
    return False


def _is_coordinator(gap: str, coordinators: set[str]) -> bool:
    gap = _TRAILING_DETERMINERS.sub("", gap.strip().lower()).strip()
    return gap in coordinators
