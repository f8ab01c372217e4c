"""The level a requested language version implies, where the index holds that language at one level only (issue 21).

"French economics MCQ: lots of poultry had to be culled because of bird flu ...", "Spanish physics question about
thermal cameras ...": the text names no level, but it asks for the French (Spanish) version, and the index holds
French economics (Spanish physics) at grade 12 only — the EXAMS matura items. The item asked for is at grade 12, so
the exact scope is grade 12 (the curriculum README's gold scope is where the item is); without it the rest of the
answer came from English high-school and college items of the subject, labelled exact, while the scope the curator
wrote holds grade 12 only (a blind batch of round 57: leakage 1.0 and 0.88 on two such cases).

The level comes from the catalogue (``Vocabulary.levels_in_language``), not from the words: a language held at
several levels for the scope's subjects and content type (English, or a subject the index holds in Chinese at more
than one level) implies nothing, and a level the text put in the scope is left as it is. A level the evidence alone
put there is replaced: the probe's hits of an English query are mostly other languages' items ("French economics
multiple-choice question: bird flu ...": the English high-school economics items), and their level is not the asked
version's (round 58). The level filters like any other; the ladder relaxes it at W2 where the language's items hold
nothing on topic.

Its counterpart for a level the text *does* state is ``services.gate.nearest.with_language_level`` (a rung to the
nearest level holding the subject in the asked language). That one reads the language a client hint asks for too;
this one reads the text's request only (``StatedQuery``), so a client's language hint implies no level.
"""

from __future__ import annotations

from dataclasses import replace

from services.gate.evidence import EvidenceDecision, FieldDecision
from services.gate.evidence_features import StatedQuery
from services.gate.vocabulary import Vocabulary


def level_of_language(decision: EvidenceDecision, stated: StatedQuery, vocab: Vocabulary) -> EvidenceDecision | None:
    """The decision with the one level the requested languages are held at for its subjects and content types, and a
    note; None where no language is requested, the scope has a level the text stated, or the languages are held at
    several levels (or none)."""
    flt = decision.filter
    decided = decision.fields.get("level")
    from_evidence = decided is not None and decided.source == "evidence" and "level" not in stated
    if "language" not in stated or (flt.level and not from_evidence) or not vocab.knows_languages:
        return None
    codes = tuple(stated["language"].values)
    levels = set().union(*(vocab.levels_in_language(flt.subject, code, flt.content_type) for code in codes))
    if len(levels) != 1:
        return None
    level = next(iter(levels))
    what = "/".join(flt.subject) or "material"
    note = (f"level {level}: the index holds {what} in {'/'.join(codes)} at {level} only (the language version asked "
            f"for)")
    fields = {**decision.fields, "level": FieldDecision("level", (level,), 1.0, "catalogue", "filter")}
    penalties = {k: v for k, v in decision.penalties.items() if k != "level"}
    soft = {k: v for k, v in decision.soft_fields.items() if k != "level"}
    return replace(decision, filter=replace(flt, level=(level,)), fields=fields, penalties=penalties,
                   soft_fields=soft, label="gated", notes=[*decision.notes, note])
