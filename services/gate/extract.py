"""Scope extraction from the query text, with per-field confidence (seed 000 s.3.4).

Extractors run in a fixed order and claim the spans they consume (see
``lexicon.py``): question number -> year -> level -> paper / board -> content
type -> subject -> topic cues; then the subject, the content type and the paper
are decided from what was found. Each field gets a confidence and the matched text
as evidence. Confidence tiers (why they matter is in ``ladder.py``):

* >= 0.7: a hard constraint, kept by W1;
* 0.35 - 0.7: *soft* — part of the W0 scope, dropped by W1 (wrong-subject
  guesses, "year 9", "AP", an unknown paper);
* < 0.35: reported but not used as a constraint.

Strict keys (relaxation must not drop them, W2 is skipped): an explicit paper
the corpus knows (or that could not be checked) and an explicit question number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from chsr.levels import grade_level
from chsr.scope import Scope
from services.gate import papers as paper_mod
from services.gate import subjects as subject_mod
from services.gate.content import content_type, find_content_terms
from services.gate.language import find_languages
from services.gate.lexicon import NEGATED, SpanText, find_pattern, parse_number
from services.gate.unknown_series import UNKNOWN_SERIES, family_within, unknown_series
from services.gate.vocabulary import Vocabulary

SOFT_BELOW = 0.7
DROP_BELOW = 0.35
STRICT_MIN = 0.8
YEAR_MULTI = 0.6
#: A year, alone or glued to an exam acronym that follows it ("2001AMC12A"), never part of a longer token nor a
#: number with decimals or thousands ("2000.56", "2000,560").
_YEAR = re.compile(r"(?<![0-9A-Za-z_^.\-/])(?P<y>(?:19|20)\d\d)(?:\s*年)?(?![0-9a-z_^])(?![A-Z](?![A-Z]))"
                   r"(?!\.\d)(?!,\d{3}(?![0-9]))")
#: A contest year with its session letter glued on ("AMC 12 2014B"): the year, only after the contest's name ("code
#: 2019A" is no year); the letter is the paper's session (the AMC paper pattern reads it).
_SESSION_YEAR = re.compile(r"(?<![a-z])amc[\s-]*(?:10|12)[\s,-]*(?P<y>(?:19|20)\d\d)(?=[ab](?![0-9a-z]))", re.IGNORECASE)
#: A two-digit year in Chinese shorthand, only when a paper name follows it ("18年全国II卷", "22年甲卷",
#: "19年高考", "13年国二", "09年宁夏海南卷") or the word for a paper or its questions ("好像是17年的卷子", "09年的主观题"): elsewhere "18年" is a
#: duration.
_SHORT_YEAR = re.compile(r"(?<![0-9])(?P<yy>\d\d)\s*年\s*(?=高考|全国|国[一二三123]|新课标|新高考|[甲乙丙]卷|[\u3400-\u9fff]{2,6}卷|"
                         r"quan\s?guo|gaokao|"
                         r"的?(?:卷子|试卷|真题|考题|高考题|主观题|选择题|大题))")
#: Two-digit years annotators write when no four-digit year is stated: glued to a Chinese paper name ("22全国乙理数"),
#: before a competition's name ("21 AMC 12A #22", "soln for 09 AMC12A q10"), or with an apostrophe ("AMC12B '05").
_BARE_SHORT_YEAR = re.compile(r"(?<![0-9])(?P<yy>\d\d)(?=全国|国[一二三]|新课标|新高考|[甲乙丙]卷)"
                              r"|(?<![0-9A-Za-z#.'’])['’]?(?P<yb>\d\d)\s*年?\s*(?=AMC\s?-?\s?(?:10|12)[AB](?![0-9A-Za-z]))"
                              r"|(?<![0-9A-Za-z])['’](?P<ya>\d\d)(?![0-9])")
_OPERATORS = set("=+-*/<>^_")
#: A bracketed remark, and the words that say its numbers are not the ones asked for (another paper, done already).
_ASIDE = re.compile(r"[(（][^()（）]{1,100}[)）]")
_NOT_ASKED = re.compile(r"(?<![a-z])(?:not|isn't|already|also|instead|done|did|finished|except|rather|easier|harder|"
                        r"other|pas|nicht|ya)(?![a-z])"
                        r"|不是|会了|做过|已经|也是|除了|而不是")
#: A spaced dash after a word ("flat tire / walks the rest - 2017 AMC 12B #4") separates, it does not subtract.
_DASH_AFTER_WORD = re.compile(r"[^\W\d_]{2,}\s+[-–—]$")
#: "w/" is "with" ("help w/ 2010 AMC10A #9"), not a division before the year.
_WITH = re.compile(r"(?<![0-9a-z])w/$", re.IGNORECASE)
#: A span of years ("1950～2008年", "1914-1918", "1840 to 1949"): what the item is about, never the sitting.
_YEAR_SPAN = re.compile(r"(?<![0-9])\d{4}\s*(?:~|～|-|–|—|至|到|to|until)\s*\d{4}(?![0-9])")
#: A span of years right before or after the name of an exam ("2014-2016 高考数学", "AMC 8 2015-2017 problems on
#: probability"): the sittings asked for, every year of it (at most ``SITTING_SPAN`` years).
_SITTINGS_AFTER = re.compile(r"\s*年?\s*(?:的\s*)?(?:高考|全国|新课标|新高考|gaokao|amc|真题|试卷|考题|exams?\b|papers?\b|tests?\b|"
                             r"sittings?\b|contests?\b)", re.IGNORECASE)
_SITTINGS_BEFORE = re.compile(r"(?:高考|gaokao|amc\s*(?:8|10|12)?\s*[ab]?|exams?|papers?|tests?|sittings?|contests?)\s*(?:from\s*)?$",
                              re.IGNORECASE)
SITTING_SPAN = 10
#: A month or season written next to the year ("spring 2012 released test", "June 2014", "Mai 2019", "2012年6月") dates
#: the sitting: it is part of the year, not a topic word the on-topic check would look for.
_SITTING_MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
                  r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec|spring|summer|fall|autumn|winter|"
                  r"janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|"
                  r"décembre|decembre|printemps|été|automne|hiver|januar|februar|märz|maerz|juni|juli|oktober|"
                  r"dezember|frühjahr|fruehjahr|frühling|sommer|herbst|enero|febrero|marzo|abril|mayo|junio|julio|"
                  r"agosto|septiembre|octubre|noviembre|diciembre|primavera|verano|otoño|invierno)")
_MONTH_BEFORE = re.compile(r"(?<![^\W\d_])" + _SITTING_MONTH + r"(?:\s+(?:of|de|del))?[\s,]*$", re.IGNORECASE)
_MONTH_AFTER = re.compile(r"^[\s,]*(?:" + _SITTING_MONTH + r"(?![^\W\d_])|\d{1,2}\s*月)", re.IGNORECASE)
#: A transformer's windings are named like school stages ("24 V au primaire", "dans le primaire ... au secondaire"):
#: in a text about a transformer those words are not a level.
_WINDING = re.compile(r"primaire|secondaire|primario|secundario|primaria|secundaria|primary|secondary")
_TRANSFORMER = re.compile(r"\btransfo\b|transformateur|transformador|transformer|transformator|\btrafo\b|\bspires\b"
                          r"|\bespiras\b|\bbobine|\bwindings?\b|primärspule|sekundärspule")
#: Every letter + number token of the kind a look-up's shorthand uses ("q43", "p 8"): two of them are variables.
_SHORTHAND = re.compile(r"(?<![0-9a-z\u00c0-\u024f])[qp]\.?\s?\d{1,3}")


@dataclass
class Extraction:
    """What the text says about the scope (before client hints are merged)."""

    scope: Scope
    confidence: dict[str, tuple[float, str]]
    strict_keys: list[str]
    soft_fields: dict[str, str] = field(default_factory=dict)
    text: str = ""
    remaining: str = ""
    topic_groups: list[str] = field(default_factory=list)
    topic_spans: list[tuple[int, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)   # conflicts the text holds, e.g. a paper named at another grade


def extract_scope(query: str, vocab: Vocabulary) -> Extraction:
    st = SpanText(query)
    _claim_asides(st)
    fields: dict[str, tuple[tuple, float, str]] = {}
    _put(fields, "question_number", _question_numbers(st, vocab))
    _put(fields, "language", find_languages(st))
    _put(fields, "year", _years(st, vocab))
    levels = _levels(st, vocab)
    mentions = paper_mod.find_mentions(st, vocab, has_grade=any(v.startswith("grade_") for v in (levels or ((),))[0]))
    defaults = paper_mod.board_defaults(mentions, vocab)
    content_hits = find_content_terms(st, vocab)
    named = subject_mod.find_named(st, vocab)
    topics = subject_mod.find_topics(st, vocab)
    level_values = _pick_level(levels, defaults)
    subject = subject_mod.resolve_subject(
        named, topics, vocab, board_subject=defaults["subject"], levels=level_values[0] if level_values else (),
        track_math=mentions.track_subject and bool(mentions.variants),
        paper_named=bool(mentions.patterned or mentions.variants or "question_number" in fields),
        board_levels=_board_levels(defaults["exam_board"], defaults["subject"], vocab),
        track_named=mentions.track_subject and not mentions.variants,
    )
    if subject:
        fields["subject"] = (subject.values, subject.confidence, subject.evidence)
    _put(fields, "level", level_values)
    _put(fields, "content_type", content_type(
        st, content_hits, vocab, subjects=fields.get("subject", ((),))[0], levels=fields.get("level", ((),))[0],
        numbered="question_number" in fields,
        board_default=defaults["content_type"] if defaults["exam_board"] else None, named=tuple(named),
    ))
    paper = paper_mod.resolve_paper(
        st, mentions, vocab, subjects=subject.values if subject else (), levels=fields.get("level", ((),))[0],
        years=fields.get("year", ((),))[0], content_types=fields.get("content_type", ((),))[0],
    )
    notes: list[str] = []
    if paper:
        stated_level = fields.get("level", ((),))[0]
        _apply_paper(fields, paper, vocab)
        notes += _level_conflict(stated_level, fields.get("level", ((),))[0], paper)
    dated = {"has_question": bool(fields.get("question_number", ((),))[0]),
             "has_year": bool(fields.get("year", ((),))[0])}
    if defaults["exam_board"] and "exam_board" not in fields:
        fields["exam_board"] = (defaults["exam_board"], 0.9, "board named")
        within = None if paper else family_within(st, vocab, defaults["exam_board"], **dated)
        if within:  # "2022年北京高考数学": the Gaokao is named, the paper asked for is Beijing's, which it lacks
            fields["exam_board"] = ((within[0],), UNKNOWN_SERIES, within[1])
    if not paper and "exam_board" not in fields and not mentions.board_indexes():
        series = unknown_series(st, vocab, **dated)
        if series:  # a look-up in a series nobody knows: its name is the board, which the corpus lacks
            fields["exam_board"] = ((series[0],), UNKNOWN_SERIES, series[1])
    return replace(_assemble(st, fields, topics), notes=notes)


def _level_conflict(stated: tuple, implied: tuple, paper: paper_mod.PaperDecision) -> list[str]:
    """The note when the text names grades the named paper is not set at ("AMC 8 grade 12 problem"): the
    paper decides the level, and the answer says so (issue 21, bad input: contradictory series and grade)."""
    grades = [v for v in stated if v.startswith("grade_")]
    if not grades or not implied or len(grades) != len(stated) or set(grades) & set(implied):
        return []
    said = ", ".join(g.replace("_", " ") for g in grades)
    held = ", ".join(v.replace("_", " ") for v in implied)
    named = ", ".join(paper.papers)
    return [f"the text says {said}, the named paper {named} is set at {held}: the paper decides the level"]


def _put(fields: dict, name: str, value: tuple | None) -> None:
    if value and value[0]:
        fields[name] = value
    elif value and value[2]:
        fields[name] = value  # an explicit "no constraint" decision, reported with its evidence


def _question_numbers(st: SpanText, vocab: Vocabulary) -> tuple | None:
    found: list[tuple[int, float, str]] = []
    for pattern, spec in vocab.question_number_patterns:
        matches = find_pattern(st, pattern, case_sensitive=bool(spec.get("case_sensitive")))
        if matches and spec.get("needs_year") and not _dated_shorthand(st.view(case_sensitive=True)):
            continue  # a shorthand ("q43", "p8") names an item only once, in a dated look-up; "q1 ... q2" are variables
        for match in matches:
            number = parse_number(match.group("n"))
            if number:
                found.append((number, spec["confidence"], match.group(0)))
                st.claim(match.start(), match.end(), "question_number")
    if not found:
        return None
    numbers = tuple(dict.fromkeys(n for n, _, _ in found))
    confidence = min(c for _, c, _ in found) if len(numbers) == 1 else 0.6
    return numbers, confidence, ", ".join(t for _, _, t in found)


def _claim_asides(st: SpanText) -> None:
    """Set aside a bracketed remark that names another year or number the query does not ask for ("(not the 2019
    one)", "(i did #12 already)", "（第3题我会了）", "(it's also #7 on the 10B)"): its numbers are not the look-up's,
    nor its words the topic."""
    for match in _ASIDE.finditer(st.text):
        inner = st.low[match.start():match.end()]
        if any(ch.isdigit() for ch in inner) and _NOT_ASKED.search(inner):
            st.claim(match.start(), match.end(), "aside")


def _dated_shorthand(text: str) -> bool:
    """The query states a year and holds one letter-and-number shorthand token at most."""
    dated = _YEAR.search(text) or _SESSION_YEAR.search(text) or _SHORT_YEAR.search(text) or _BARE_SHORT_YEAR.search(text)
    return bool(dated) and len(set(_SHORTHAND.findall(text.lower()))) <= 1


def _years(st: SpanText, vocab: Vocabulary) -> tuple | None:
    low, high = vocab.data["years"]["min"], vocab.data["years"]["max"]
    found: list[tuple[int, str]] = []
    view = st.view(case_sensitive=True)
    span_matches = list(_YEAR_SPAN.finditer(view))
    spans = [m.span() for m in span_matches]
    for match in span_matches:
        first, last = (int(y) for y in re.findall(r"\d{4}", match.group(0)))
        if not (low <= first < last <= high and last - first < SITTING_SPAN):
            continue
        if _SITTINGS_AFTER.match(view, match.end()) or _SITTINGS_BEFORE.search(view[max(0, match.start() - 16):match.start()]):
            found += [(year, match.group(0)) for year in range(first, last + 1)]  # the sittings asked for
            st.claim(match.start(), match.end(), "year")
    for match in _YEAR.finditer(view):
        year = int(match.group("y"))
        before = view[: match.start()].rstrip()
        if not low <= year <= high or (before and before[-1] in _OPERATORS and not _WITH.search(before)
                                       and not _DASH_AFTER_WORD.search(before)):
            continue  # out of range, or a number inside a formula ("x = 2000")
        if any(start <= match.start() < end for start, end in spans):
            continue  # one end of a span of years the item is about
        found.append((year, match.group(0)))
        st.claim(match.start(), match.end(), "year")
        _claim_month(st, view, match.start(), match.end())
    for match in _SESSION_YEAR.finditer(view):
        year = int(match.group("y"))
        if low <= year <= high:
            found.append((year, match.group("y")))
            st.claim(match.start("y"), match.end("y"), "year")
    for match in _SHORT_YEAR.finditer(view):
        year = 2000 + int(match.group("yy"))
        if low <= year <= high:
            found.append((year, match.group(0)))
            st.claim(match.start(), match.end(), "year")
    if not found:  # only when no year is written out: "12 AMC 10 problems" beside "2019" counts problems
        for match in _BARE_SHORT_YEAR.finditer(view):
            yy = int(match.group("yy") or match.group("yb") or match.group("ya"))
            year = 2000 + yy if 2000 + yy <= high else 1900 + yy
            if low <= year <= high:
                found.append((year, match.group(0)))
                st.claim(match.start(), match.end(), "year")
    if not found:
        return None
    years = tuple(dict.fromkeys(y for y, _ in found))
    return years, (0.9 if len(years) == 1 else YEAR_MULTI), ", ".join(t for _, t in found)


def _claim_month(st: SpanText, view: str, start: int, end: int) -> None:
    """Claim the month or season written right before or after a year ("spring 2012", "June 2014", "2019年6月")."""
    before = _MONTH_BEFORE.search(view[max(0, start - 24):start])
    if before:
        st.claim(start - len(before.group(0)), start, "year")
    after = _MONTH_AFTER.match(view[end:end + 24])
    if after:
        st.claim(end, end + after.end(), "year")


def _levels(st: SpanText, vocab: Vocabulary) -> tuple | None:
    """Explicit grades beat bands: 'MCAS high school (grade 9)' -> grade_9."""
    words = vocab.data["levels"]["number_words"]
    grades: list[tuple[str, float, str]] = []
    bands: list[tuple[tuple, float, str]] = []
    for pattern, spec in vocab.level_patterns:
        for match in find_pattern(st, pattern):
            groups = match.groupdict()
            raw = groups.get("w") or groups.get("n") or ""
            n = int(raw) if raw.isdigit() else words.get(raw)
            if n is None:
                continue
            n += spec.get("offset", 0)
            if 0 <= n <= 12:
                grades.append((grade_level(n), spec["confidence"], match.group(0), match.start()))
                st.claim(match.start(), match.end(), "level")
                if not spec.get("offset"):
                    grades += _grade_range(st, match.start(), match.end(), n, spec["confidence"])
    for hit in vocab.level_aliases.find(st):
        values, confidence = hit.value
        st.claim(hit.start, hit.end, "level")
        if NEGATED.search(st.low[max(0, hit.start - 16):hit.start]):
            continue  # "Schulniveau (nicht Uni!)", "lycée (pas fac)": the level ruled out is not the one asked
        if _WINDING.fullmatch(hit.text.lower()) and _TRANSFORMER.search(st.low):
            continue  # "courant continu dans le primaire" of a transfo: the primary winding, not primary school
        if len(values) == 1 and values[0].startswith("grade_"):
            grades.append((values[0], confidence, hit.text, hit.start))
        else:
            bands.append((values, confidence, hit.text))
    grades = _outside_brackets(st.text, grades)
    if grades:
        return (tuple(dict.fromkeys(g for g, _, _, _ in grades)), max(c for _, c, _, _ in grades),
                ", ".join(t for _, _, t, _ in grades))
    if bands:
        # the most confident wording decides: "college-level (AP Stats) MCQ" is college, the AP course's high school
        # band only what the course usually is
        top = max(c for _, c, _ in bands)
        bands = [b for b in bands if b[1] == top]
        values = tuple(dict.fromkeys(v for vals, _, _ in bands for v in vals))
        return values, top, ", ".join(t for _, _, t in bands)
    return None


#: The last grade of a range written after a grade ("grades 11-12", "gr 5-8", "grade 9 to 12", "Klasse 7 bis 9").
_RANGE_END = re.compile(r"\s*(?:-|–|—|~|to|through|thru|bis|à|hasta)\s*(?P<m>\d{1,2})(?:st|nd|rd|th|e|ème|\.)?"
                        r"(?![0-9a-z\u00c0-\u024f])")
#: The first grade of a range written before one ("9th-10th grade", "9-10th graders").
_RANGE_START = re.compile(r"(?<![0-9a-z.\u00c0-\u024f])(?P<m>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|—|to|through)\s*$")
#: The widest grade range read as a list of grades; a longer one is a band the words name otherwise.
RANGE_SPAN = 6


def _grade_range(st: SpanText, start: int, end: int, n: int, confidence: float) -> list[tuple[str, float, str, int]]:
    """The other grades of a range the text writes around grade ``n`` (its mention at ``start``:``end``): "grades
    11-12" asks for grades 11 and 12, "9th-10th grade" for 9 and 10, not for the one grade a single match reads."""
    view = st.view(False)
    after = _RANGE_END.match(view, end)
    before = _RANGE_START.search(view[max(0, start - 12):start])
    if after and n < int(after.group("m")) <= min(12, n + RANGE_SPAN):
        first, last, span = n + 1, int(after.group("m")), (end, after.end())
    elif before and max(0, n - RANGE_SPAN) <= int(before.group("m")) < n:
        first, last = int(before.group("m")), n - 1
        span = (max(0, start - 12) + before.start(), start)
    else:
        return []
    st.claim(*span, "level")
    text = st.text[span[0]:span[1]]
    return [(grade_level(g), confidence, text, span[0]) for g in range(first, last + 1)]


def _outside_brackets(text: str, grades: list[tuple[str, float, str, int]]) -> list[tuple[str, float, str, int]]:
    """The grades the text states outside brackets, where it states some there too: "ACTAAP 6th grade science 2010
    ... (초6-중1 지구과학 복습)" asks for grade 6; the bracket says who will use it (round 48)."""
    brackets = [m.span() for m in _ASIDE.finditer(text)]
    outside = [g for g in grades if not any(a <= g[3] < b for a, b in brackets)]
    return outside if outside else grades


def _board_levels(boards: tuple[str, ...], subject: str | None, vocab: Vocabulary) -> tuple[str, ...]:
    """The levels the named boards' papers in ``subject`` are set at (() without a board, a subject or papers)."""
    if not boards or not subject:
        return ()
    return tuple(dict.fromkeys(lv for board in boards for info in vocab.board_papers(board)
                               if subject in info.subject for lv in info.level))


def _pick_level(levels: tuple | None, defaults: dict) -> tuple | None:
    """A board's level (Gaokao -> grade_12) beats a band named beside it (高中)."""
    board_level = defaults.get("level")
    if board_level and (not levels or not any(v.startswith("grade_") for v in levels[0])):
        return (board_level,), 0.9, "implied by the exam board"
    return levels


def _apply_paper(fields: dict, paper: paper_mod.PaperDecision, vocab: Vocabulary) -> None:
    """The paper's own metadata (from the corpus index) wins over looser mentions."""
    fields["paper"] = (paper.papers, paper.confidence, paper.evidence)
    infos = [i for i in (vocab.paper(p) for p in (*paper.papers, paper.like or "")) if i is not None]
    sessions = paper.session or tuple(dict.fromkeys(s for i in infos for ss in i.years.values() for s in ss if s and not paper.like))
    if sessions:
        fields["session"] = (sessions, 0.95, paper.evidence)
    level = tuple(dict.fromkeys(v for i in infos for v in i.level)) or paper.level
    if level:
        fields["level"] = (level, 0.95, f"implied by paper {paper.evidence}")
    subjects = tuple(dict.fromkeys(v for i in infos for v in i.subject))
    if subjects:
        fields["subject"] = (subjects, max(0.9, fields.get("subject", ((), 0.0, ""))[1]), f"implied by paper {paper.evidence}")
    boards = tuple(dict.fromkeys(v for i in infos for v in i.exam_board))
    if boards:
        fields["exam_board"] = (boards, 0.95, f"implied by paper {paper.evidence}")


def _assemble(st: SpanText, fields: dict, topics: subject_mod.TopicHits) -> Extraction:
    scope_values: dict[str, tuple] = {}
    confidence: dict[str, tuple[float, str]] = {}
    soft: dict[str, str] = {}
    for name, (values, conf, evidence) in fields.items():
        confidence[name] = (round(float(conf), 3), evidence)
        if not values or conf < DROP_BELOW:
            continue
        scope_values[name] = values
        if conf < SOFT_BELOW:
            soft[name] = f"low confidence {conf:.2f}"
    strict = [k for k in ("paper", "question_number") if k in scope_values and confidence[k][0] >= STRICT_MIN]
    for key in strict:
        soft.pop(key, None)
    return Extraction(
        scope=Scope.from_dict(scope_values), confidence=confidence, strict_keys=strict, soft_fields=soft,
        text=st.text, remaining=st.remaining(), topic_groups=sorted({g for gs in topics.by_subject.values() for g in gs}),
        topic_spans=list(topics.spans),
    )
