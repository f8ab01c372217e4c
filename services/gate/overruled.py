"""The text's value, overruled by the evidence because the index does not hold it, is a relaxation (issue 21).

"grade 5 physics and chemistry: how do you separate salt from water?": the index holds no physics or chemistry
at grade 5 (it files that as general science), and the evidence decides science. That answer is right, but it is
not what the text asked for: it is the nearest scope the index holds. Labelled W0 it claims to be the exact scope
the student named. So when the evidence replaces a stated subject or level and the index holds nothing with the
stated value (given the rest of the exact scope), the ladder starts with the text's own scope as W0 — honestly
empty — and the evidence's scope follows as W1, saying what moved and why.

Where the stated value *is* held ("physics question about the Marshall Plan": physics exists), overruling it is a
correction of a wrong subject, not a relaxation, and W0 stays the evidence's scope (curriculum README: for a wrongly
named subject the gold scope holds the true value).

Where the evidence did not replace the stated subjects but dropped them (nothing confident) or added others beside
them, and the index holds them only at other levels ("8th grade geography + economics: ..."), the field the index
lacks is the level (issue 21, class 2): W0 is the text's subjects at the asked level, then the nearest level that
holds them, then the evidence's own rungs (``dropped_absent``, ``with_stated_subject``). Before, W0 was every
subject at grade 8, labelled exact.

Where the evidence *replaced* the subjects and the index holds them one step from the asked level (``ADJACENT``:
"pregunta de geografía de nivel universitario", geography held at high school), either field may be the one it
lacks: a wrongly named subject ("gr. 10 economics quiz question" about pencils; economics is held at high school)
or the level. The evidence's scope is tried first (W1, as above); when it has nothing on topic, the text's subjects
at the nearest level and then at every level holding them come before the evidence's level widenings
(``replaced_next_door``, ``with_stated_fallback``). The probe of a Spanish or German query finds that language's items
first, whatever their subject, so its subject can be wrong where the text's is right.
"""

from __future__ import annotations

from dataclasses import replace

from chsr.levels import level_distance
from chsr.relaxation import W0, W1, W2
from chsr.scope import Scope
from services.gate.evidence import EvidenceDecision
from services.gate.evidence_features import StatedQuery
from services.gate.ladder import LadderStep, widens_to_parent
from services.gate.nearest import nearest_level_rung
from services.gate.vocabulary import Vocabulary

#: The fields whose stated values are checked against the catalogue's subject x level cells.
CELL_FIELDS: tuple[str, ...] = ("subject", "level")
#: How far (chsr.levels.level_distance) the nearest level holding a stated subject may lie from the asked level for
#: the level, not the subject, to be the field the index lacks: one grade, or high school <-> college.
ADJACENT = 1


def overruled_absent(stated: StatedQuery, decision: EvidenceDecision, vocab: Vocabulary) -> dict[str, tuple]:
    """Field -> the text's values, where the evidence put other values in the exact scope and the index holds
    nothing with the text's (with the rest of the exact scope)."""
    out: dict[str, tuple] = {}
    flt = decision.filter
    for name in CELL_FIELDS:
        chosen = decision.fields.get(name)
        said = stated.get(name)
        if chosen is None or not chosen.conflict or said is None or not said.values:
            continue
        values = tuple(said.values)
        if set(values) & set(getattr(flt, name)) or _held(name, values, flt, vocab):
            continue
        out[name] = values
    return out


def with_stated_w0(steps: list[LadderStep], overruled: dict[str, tuple], flt: Scope) -> list[LadderStep]:
    """``steps`` with the text's own scope as W0 and the evidence's exact scope as the first W1 rung (a W0-only
    ladder, strict or a pure look-up, is left as it is: it answers in the evidence's scope)."""
    if not overruled or len(steps) < 2:
        return steps
    asked = replace(flt, **overruled)
    said = ", ".join(f"{name} {'|'.join(map(str, v))}" for name, v in overruled.items())
    moved = ", ".join(f"{name} {'|'.join(map(str, v))} -> {'|'.join(map(str, getattr(flt, name)))}"
                      for name, v in overruled.items())
    w0 = LadderStep(W0, asked, f"W0 exact scope as the text states it ({said}: not held in the index)")
    first = replace(steps[0], step=W1, description=f"W1 where the evidence holds the material: {moved}")
    return [w0, first, *(s for s in steps[1:] if s.filter != asked)]


def _held(name: str, values: tuple, flt: Scope, vocab: Vocabulary) -> bool:
    """Does the index hold material with ``values`` for ``name``, given the exact scope's other cell field and its
    content type? ("PV = nRT: la sección del libro de texto de Química (bachillerato)": chemistry is held at high
    school, but no chemistry textbook is, so the physics textbook the evidence finds is a relaxation, not a
    corrected subject.)"""
    if not vocab.has_corpus:
        return True  # unknown: keep the evidence's scope as W0
    kinds = tuple(flt.content_type)
    if name == "subject":
        levels = vocab.held_levels(values, kinds)
        return bool(set(flt.level) & levels) if flt.level else bool(levels)
    return bool(set(values) & vocab.held_levels(flt.subject, kinds)) if flt.subject \
        else bool(set(values) & vocab.corpus_values("level"))


def dropped_absent(stated: StatedQuery, decision: EvidenceDecision, vocab: Vocabulary) -> tuple:
    """The text's subjects, where the index holds none of them at the exact scope's level and the evidence put no
    other subject in their place — it dropped the subject (nothing confident) or added others beside it — so the
    field the index lacks is the level, not the subject ("8th grade geography + economics: ..."; the index holds
    both at high school only). () otherwise; a subject the evidence *replaced* is ``overruled_absent``'s case."""
    said = stated.get("subject")
    flt = decision.filter
    if said is None or not said.values or not flt.level or not vocab.has_corpus:
        return ()
    values = tuple(said.values)
    if set(flt.level) & vocab.held_levels(values) or not vocab.held_levels(values):
        return ()
    if flt.subject and not set(values) < set(flt.subject):
        return ()
    return values


def replaced_next_door(overruled: dict[str, tuple], flt: Scope, vocab: Vocabulary) -> tuple:
    """The text's subjects, where the evidence replaced them (``overruled_absent``) and the index holds them one
    step from the asked level (``held_next_door``); () otherwise."""
    subjects = overruled.get("subject", ())
    return subjects if subjects and flt.level and held_next_door(subjects, flt.level, vocab) else ()


def held_next_door(subjects: tuple, levels: tuple, vocab: Vocabulary) -> bool:
    """Does the index hold ``subjects`` at a level within ``ADJACENT`` of an asked level?"""
    held = vocab.held_levels(subjects)
    gaps = [d for lv in held for a in levels if (d := level_distance(lv, a)) is not None]
    return bool(gaps) and min(gaps) <= ADJACENT


def with_stated_subject(steps: list[LadderStep], subjects: tuple, flt: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with the text's subjects at the asked level as W0 (honestly empty) and the nearest level that holds
    them next, before the evidence's rungs (its own W0 follows as a W1); a W0-only ladder is left as it is."""
    stated = _stated_rungs(subjects, flt, vocab) if len(steps) >= 2 else None
    if stated is None:
        return steps
    asked, rungs = stated
    w0 = LadderStep(W0, asked, f"W0 exact scope as the text states it (subject {'/'.join(subjects)}: none held at "
                               f"{'|'.join(flt.level)})")
    first = replace(steps[0], step=W1, description=f"W1 the evidence's scope: {steps[0].description}")
    own = (asked, *(r.filter for r in rungs))
    rest = [s for s in steps[1:] if s.filter not in own]
    return [w0, *rungs, first, *rest]


def with_stated_fallback(steps: list[LadderStep], subjects: tuple, flt: Scope, vocab: Vocabulary) -> list[LadderStep]:
    """``steps`` with the text's subjects at the nearest level holding them, then at every level holding them, after
    the evidence's W1 rungs and before its level widenings: tried when the evidence's own scope has nothing on topic
    ("pregunta de geografía de nivel universitario": the evidence's physics at college has nothing about meanders)."""
    stated = _stated_rungs(subjects, flt, vocab) if len(steps) >= 2 else None
    if stated is None or any(s.filter == stated[1][0].filter for s in steps):
        return steps
    added = [r for r in stated[1] if all(s.filter != r.filter for s in steps)]
    at = next((i for i, s in enumerate(steps) if i > 0 and s.step >= W2), len(steps))
    return steps[:at] + added + steps[at:]


def _stated_rungs(subjects: tuple, flt: Scope, vocab: Vocabulary) -> tuple[Scope, list[LadderStep]] | None:
    """The text's subjects at the asked level, and the rungs that move them: the nearest level holding them, then
    every level holding them (where that adds a level); None without subjects or without a nearer level held."""
    if not subjects:
        return None
    asked = replace(flt, subject=subjects)
    rung = nearest_level_rung(asked, vocab)
    if rung is None:
        return None
    every = _every_level_held(asked, rung, vocab)
    parent = _parent_rung(asked, vocab)
    return asked, [*([parent] if parent else []), rung, *([every] if every else [])]


def _parent_rung(asked: Scope, vocab: Vocabulary) -> LadderStep | None:
    """The disciplines' parent subject at the asked level, where the index files them under it ("7th grade chem and
    bio review": grade 7 holds general science, not chemistry or biology): nearer than another level, so it comes
    first (dev's "grade 5 physics and chemistry" relaxes to science at grade 5); None otherwise (decision 61)."""
    parents = vocab.subject_parents
    if not widens_to_parent(asked.level) or not all(s in parents for s in asked.subject):
        return None
    widened = tuple(dict.fromkeys(parents[s] for s in asked.subject))
    if not set(asked.level) & vocab.held_levels(widened):
        return None
    return LadderStep(W1, replace(asked, subject=widened),
                      f"W1 subject {'/'.join(asked.subject)} -> {'/'.join(widened)}: the index files them under "
                      f"{'/'.join(widened)} at {'|'.join(asked.level)}")


def _every_level_held(asked: Scope, nearest: LadderStep, vocab: Vocabulary) -> LadderStep | None:
    """The text's subjects at every level the index holds them at (nearest first on the grade line), tried before
    the evidence's other subjects when the nearest level has nothing on topic; None when that adds no level."""
    held = vocab.held_levels(asked.subject, asked.content_type) or vocab.held_levels(asked.subject)
    if set(held) <= set(nearest.filter.level):
        return None
    levels = (*nearest.filter.level, *sorted(held - set(nearest.filter.level)))
    return LadderStep(W2, replace(asked, level=levels), f"W2 every level held for {'/'.join(asked.subject)}: "
                                                         f"{'|'.join(levels)}")


def named_paper_subject(flt: Scope, vocab: Vocabulary) -> tuple[Scope, str] | None:
    """The scope with the named paper's subject, and a note, when the evidence's subject is one no named paper has
    (None otherwise).

    "... the 2019 gaokao politics (national II) question on the Chinese shipping firm at Piraeus port 比港": the
    English words find Chinese history items in the probe, and the evidence overrules politics (0.53 against 0.24),
    while the paper stays the politics paper the text names: subject history and paper 新课标II Politics hold nothing
    together, and every rung after W0 kept both. A paper the text names and the index holds carries its subject;
    where the words point to a sibling paper of the sitting, :func:`services.gate.sibling.corrected_sitting` has
    already moved the paper (and the subject with it) before this runs."""
    if not flt.paper or not flt.subject:
        return None
    infos = [vocab.paper(name) for name in flt.paper]
    if any(info is None for info in infos):
        return None
    subjects = tuple(dict.fromkeys(s for info in infos if info is not None for s in info.subject))
    if not subjects or set(subjects) & set(flt.subject):
        return None
    note = (f"subject: the named paper {' | '.join(flt.paper)} is {'/'.join(subjects)}; the evidence's "
            f"{'/'.join(flt.subject)} is not kept beside it")
    return replace(flt, subject=subjects), note
