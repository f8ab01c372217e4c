"""Subject extraction: named subjects, topic cues and the wrong-subject check.

Named subjects come from the vocabulary's multilingual names (physique, Physik,
física, 物理 -> physics). Every named subject is kept, so a cross-subject query
gets a multi-valued constraint (the seed's gate broke 5 of 11 cross-subject
cases by forcing one subject, seed 000 section 4.4).

Students sometimes name the wrong subject ("chemistry quiz ... which gas do
plants use", "question d'économie : pourquoi les étoiles filantes ..."; curriculum
README, adversarial cases). The vocabulary's topic cues (multilingual concept
groups per subject) are counted; when *none* of the named subjects - nor their
parent, children or affine subjects (politics~economics...) - has a cue but
another subject does, the topic wins with a low confidence (two or more contrary
concepts replace the named subject, a single one is added beside it): the value
is still a W0 constraint but the ladder's W1 drops it ("per-field
confidence"). With no subject named at all, a subject is inferred from the cues
the same way (with its parent: photosynthesis -> biology|science), also soft.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from services.gate.ladder import widens_to_parent
from services.gate.lexicon import Hit, SpanText, glued_cjk
from services.gate.vocabulary import NAME_CONFIDENCE, Vocabulary

#: Confidence of a subject inferred from topic cues against the named one (soft: below the ladder's 0.7).
TOPIC_OVERRIDE = 0.55
TOPIC_OVERRIDE_TIE = 0.45
#: No subject named: a topic-inferred subject is a soft W0 constraint only.
TOPIC_INFERRED = 0.5
#: Distinct contrary concepts needed to replace a named subject (one concept only adds a second value).
OVERRIDE_MIN_CONCEPTS = 2
BOARD_IMPLIED = 0.9


@dataclass(frozen=True)
class SubjectDecision:
    values: tuple[str, ...]
    confidence: float
    evidence: str


@dataclass
class TopicHits:
    """Distinct cue groups hit per subject, and the matched text per group."""

    by_subject: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    texts: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    spans: list[tuple[int, int]] = field(default_factory=list)

    def count(self, subject: str) -> int:
        return len(self.by_subject.get(subject, ()))


def find_named(st: SpanText, vocab: Vocabulary) -> list[Hit]:
    hits = [h for h in vocab.subject_names.find(st) if not glued_cjk(st.text, h.start, h.end)]
    for hit in hits:
        st.claim(hit.start, hit.end, "subject")
    misspelt = _misspelt_names(st, vocab)
    for hit in misspelt:
        st.claim(hit.start, hit.end, "subject")
    return _weak_beside_named(hits, st.text) + misspelt


#: Confidence of a weak subject name ("government", "politique": ``weak_names`` in vocabulary.json).
WEAK_NAME_CONFIDENCE = NAME_CONFIDENCE["weak_names"]
#: What joins two subject names into one cross-subject request: "history and government", "历史/政治", "地理和经济".
_JOINED = re.compile(r"\s*(?:and|&|\+|/|,|und|et|y|和|与|及|、|or)?\s*", re.IGNORECASE)


def _weak_beside_named(hits: list[Hit], text: str) -> list[Hit]:
    """``hits`` less the weak names of a subject when another subject is named outright and the weak name is not
    joined to it: "2018 全国II卷 历史 11题: Gogol's comedy where a petty clerk is mistaken for a government inspector"
    names history; "government" is the play's word, not a second subject (round 46). "US history and government"
    names both. A dropped weak name stays claimed, so it is not read as a topic cue either."""
    strong = [h for h in hits if h.value[1] > WEAK_NAME_CONFIDENCE]
    if not strong:
        return hits
    named = {s for h in strong for s in h.value[0]}

    def joined(weak: Hit) -> bool:
        return any(_JOINED.fullmatch(text[a.end:b.start]) for h in strong for a, b in ((h, weak), (weak, h))
                   if a.end <= b.start)

    return [h for h in hits if h in strong or set(h.value[0]) & named or joined(h)]


#: A subject's English name written with a slip ("phisics", "physic", "chemestry", "biolgy", "mathematic"; round 29's
#: ESL teacher): at most one edit from a name of up to eight letters, two from a longer one. Only whole Latin words
#: of five letters or more that no alias and no stop word is; a name read this way is less certain than one spelt
#: right (a weak name: the evidence and the topic may still overrule it).
MISSPELT_NAME_CONFIDENCE = 0.6
_LATIN_WORD = re.compile(r"(?<![a-z\u00c0-\u024f])[a-z]{5,}(?![a-z\u00c0-\u024f])")


def _misspelt_names(st: SpanText, vocab: Vocabulary) -> list[Hit]:
    hits: list[Hit] = []
    names = _english_names(vocab)
    for match in _LATIN_WORD.finditer(st.view()):
        word = match.group(0)
        if word in vocab.stopwords:
            continue
        for subject, name in names:
            if word != name and _edits(word, name) <= (1 if len(name) <= 8 else 2):
                hits.append(Hit(match.start(), match.end(), word, ((subject,), MISSPELT_NAME_CONFIDENCE)))
                break
    return hits


#: The school subjects whose English names are read with a slip (not "science": "scenes"; not "tourism": "tourist").
MISSPELT_SUBJECTS = ("physics", "chemistry", "biology", "mathematics", "history", "geography", "economics", "politics",
                     "psychology")


def _english_names(vocab: Vocabulary) -> list[tuple[str, str]]:
    """The first (English) name of each of ``MISSPELT_SUBJECTS`` the vocabulary has."""
    subjects = vocab.data["subjects"]
    return [(s, subjects[s]["names"][0]) for s in MISSPELT_SUBJECTS if subjects.get(s, {}).get("names")]


def _edits(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two neighbours."""
    if abs(len(a) - len(b)) > 2:
        return 3
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


def find_topics(st: SpanText, vocab: Vocabulary) -> TopicHits:
    """Count cue groups over the unclaimed text (cues are not claimed: they are topic terms)."""
    found = TopicHits()
    for hit in vocab.topic_cues.find(st):
        found.spans.append((hit.start, hit.end))
        for subject, group in hit.value:
            found.by_subject[subject].add(group)
            found.texts[group].append(hit.text)
    return found


def resolve_subject(
    named: list[Hit], topics: TopicHits, vocab: Vocabulary, *,
    board_subject: str | None, levels: tuple[str, ...], track_math: bool = False, paper_named: bool = False,
    board_levels: tuple[str, ...] = (), track_named: bool = False,
) -> SubjectDecision | None:
    """``track_math``: a Gaokao maths paper was named (理数/文数), which outranks a free subject word;
    ``track_named``: a maths track named without a paper ("2018年高考 理科数学 ... 复数选择题"), which names
    mathematics like any subject word (round 58: it named nothing, and the probe's subject decided);
    ``paper_named``: an explicit paper reference, where a single contrary cue is not enough;
    ``board_levels``: the levels the named board's papers in ``board_subject`` are set at (() when unknown)."""
    values: list[str] = []
    for hit in _narrowed(named):
        values += [s for s in hit.value[0] if s not in values]
    if track_named and "mathematics" not in values:
        values.append("mathematics")
    bound, spans = _paper_bound(named)
    if bound and set(values) - set(bound):
        others = [v for v in values if v not in bound]
        return SubjectDecision(bound, 0.9, f"paper subject named ({', '.join(spans)}); named {others} contradicted by the paper")
    if track_math:
        others = [v for v in values if v != "mathematics"]
        evidence = "maths paper named" + (f"; named {others} contradicted by the paper" if others else "")
        return SubjectDecision(("mathematics",), 0.9, evidence)
    if not values:
        if board_subject:
            return SubjectDecision((board_subject,), BOARD_IMPLIED, "implied by the exam board")
        return _inferred(topics, vocab, levels)
    confidence = min([hit.value[1] for hit in named] or [0.95])
    decision = SubjectDecision(tuple(values), confidence, ", ".join(h.text for h in named) or "maths track named")
    override = _topic_override(decision, topics, vocab, levels, allow_union=not paper_named)
    if override is not None:
        decision = override
    if board_subject and (levels or not board_levels or sets_upper_grades(board_levels)):
        decision = _apply_board(decision, board_subject, vocab)
    return decision


def sets_upper_grades(levels: tuple[str, ...]) -> bool:
    """Does a board set its general paper at a level where the index files the disciplines on their own (the high-school
    band or college: ``ladder.widens_to_parent`` is false there)?

    Without a stated level, a discipline named beside a board that files general science is that board's paper only
    where the board sets one in the upper years: "MCAS ... intro physics" is MCAS's high-school science (filed as
    grade 9), while "June 2012 NY Physics Regents question 23" names a paper NYSED never set in the index (it holds
    grade 4 and 8 science only): physics stays, and the exact scope is honestly empty rather than the grade-4
    paper's question 23 labelled exact."""
    return any(not widens_to_parent((level,)) for level in levels)


def _narrowed(named: list[Hit]) -> list[Hit]:
    """A subject group named beside one of its members ("理综化学", "文综历史": the chemistry / history part
    of the combined paper) stands for that member only."""
    singles = {hit.value[0][0] for hit in named if len(hit.value[0]) == 1}
    return [hit for hit in named if len(hit.value[0]) == 1 or not singles & set(hit.value[0])]


def _paper_bound(named: list[Hit]) -> tuple[tuple[str, ...], list[str]]:
    """Subjects written as part of a combined paper's name: a member right after its group ("理综化学", "文综 历史").
    That names the paper's section, so it outranks a subject word elsewhere in the query ("物理选择题：2015全国卷I
    文综历史第3小题" asks for the history paper's question 3; the student mislabelled it), as a named maths
    track paper does (``track_math``)."""
    bound: list[str] = []
    spans: list[str] = []  # the paper names as written, for the evidence
    for group in (h for h in named if len(h.value[0]) > 1):
        for member in named:
            if len(member.value[0]) == 1 and member.value[0][0] in group.value[0] and 0 <= member.start - group.end <= 1:
                bound += [s for s in member.value[0] if s not in bound]
                spans.append(group.text + member.text)
    return tuple(bound), spans


def _support(subject: str, topics: TopicHits, vocab: Vocabulary) -> int:
    related = {subject} | vocab.affinity.get(subject, set())
    related |= {child for child, parent in vocab.subject_parents.items() if parent == subject}
    if (parent := vocab.subject_parent(subject)) is not None:
        related.add(parent)
    return sum(topics.count(s) for s in related)


def _winners(topics: TopicHits, exclude: tuple[str, ...] = ()) -> tuple[list[str], int, list[str]]:
    counts = {s: topics.count(s) for s in topics.by_subject if s not in exclude}
    best = max(counts.values(), default=0)
    winners = sorted(s for s, c in counts.items() if c == best) if best else []
    cues = sorted({t for s in winners for g in topics.by_subject[s] for t in topics.texts[g]})
    return winners, best, cues


def _topic_override(
    decision: SubjectDecision, topics: TopicHits, vocab: Vocabulary, levels: tuple[str, ...], *, allow_union: bool,
) -> SubjectDecision | None:
    """Named subject(s) without any topical support: 2+ contrary concepts replace them, 1 is added beside them."""
    if any(_support(s, topics, vocab) > 0 for s in decision.values):
        return None
    winners, best, cues = _winners(topics, exclude=decision.values)
    if not winners:
        return None
    evidence = f"topic cues {cues} contradict named {list(decision.values)} ({decision.evidence})"
    if best >= OVERRIDE_MIN_CONCEPTS:
        values = _parent_at_level(winners, vocab, levels)
        return SubjectDecision(tuple(values), TOPIC_OVERRIDE if len(values) == 1 else TOPIC_OVERRIDE_TIE, evidence)
    if not allow_union:
        return None
    values = _parent_at_level([*decision.values, *winners], vocab, levels)
    return SubjectDecision(tuple(values), TOPIC_OVERRIDE_TIE, evidence + "; kept both")


def _inferred(topics: TopicHits, vocab: Vocabulary, levels: tuple[str, ...]) -> SubjectDecision | None:
    """No subject named: the topic's subject, plus its parent (grade-school items are filed as science)."""
    winners, best, cues = _winners(topics)
    if len(winners) != 1:
        return None
    return SubjectDecision((winners[0],), TOPIC_INFERRED, f"inferred from topic cues {cues}")


def _parent_at_level(subjects: list[str], vocab: Vocabulary, levels: tuple[str, ...]) -> list[str]:
    """A discipline the corpus does not file at this level becomes its parent (physics@grade_5 -> science).

    Curriculum README: grade 3-9 items are filed as general ``science``.
    """
    if len(levels) != 1:
        return subjects
    out: list[str] = []
    for subject in subjects:
        parent = vocab.subject_parent(subject)
        if parent and vocab.subject_level_exists(subject, levels[0]) is False and vocab.subject_level_exists(parent, levels[0]):
            subject = parent
        if subject not in out:
            out.append(subject)
    return out


def _apply_board(decision: SubjectDecision, board_subject: str, vocab: Vocabulary) -> SubjectDecision:
    """A board that files general science maps named disciplines to it (NY grade 8 'physics' test -> science)."""
    mapped = tuple(dict.fromkeys(
        board_subject if vocab.subject_parent(s) == board_subject else s for s in decision.values
    ))
    if mapped == decision.values:
        return decision
    evidence = f"{decision.evidence}; board files {board_subject}"
    return SubjectDecision(mapped, max(decision.confidence, BOARD_IMPLIED), evidence)
