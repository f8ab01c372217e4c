"""Deterministic curriculum-aware query expansion and the query's topic terms.

Expansion (pipeline E, seed 000 s.3.4 stage 2) does two things, both driven by
the extraction and the vocabulary, no model involved:

1. **Strip scope-only words** (board and paper names, years, "question 12",
   grade words, subject labels, content-type words). The gate already enforces
   them as a filter; left in the text they only match noise (a year inside a
   formula, "problem" in every AMC item). A query made only of scope words
   ("2017年新课标I卷理科数学第17题") is kept whole.
2. **Append the other-language variants of the topic concepts it mentions**
   (Wellenlänge -> wavelength, longueur d'onde, 波长...), so a French or German
   query also reaches the English/Chinese evidence of the same item (curriculum
   README, bilingual slice).
3. **Append the Chinese words for an English description of Chinese material**
   ("gaokao 2019 ... hot isostatic pressing, argon" -> 氩, 炉; ``chsr.glossary``):
   the Gaokao's items are in Chinese and share no word with such a query.

``topic_terms`` are the query's content words minus scope words: what the
gateway's on-topic check looks for in results (seed 000: widen only when no
on-topic result exists). An empty list means a pure look-up ("2025 AMC 10A
problem 5 solution"): relaxing cannot be checked against the topic.
"""

from __future__ import annotations

import re

from chsr.glossary import glosses
from services.gate.extract import Extraction
from services.gate.vocabulary import Vocabulary

#: Cap on appended variants so a long query does not drown in synonyms.
MAX_EXPANSION_TERMS = 24
_LATIN = re.compile(r"[0-9A-Za-z\u00c0-\u024f][0-9A-Za-z\u00c0-\u024f_\-]*")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_APOSTROPHES = re.compile(r"['\u2019`]")


def topic_terms(extraction: Extraction, vocab: Vocabulary) -> list[str]:
    """Matched topic cues whole (阿伏加德罗常数 is not split at 加), then the other content words."""
    remaining = list(extraction.remaining)
    terms: list[str] = []
    for start, end in extraction.topic_spans:
        cue = extraction.text[start:end].lower()
        if cue not in vocab.stopwords and (len(cue) >= 3 or _CJK.fullmatch(cue)):
            terms.append(cue)
        remaining[start:end] = " " * (end - start)
    text = _APOSTROPHES.sub(" ", "".join(remaining))
    for token in _LATIN.findall(text):
        token = token.lower().strip("-_")
        has_alpha = any(ch.isalpha() for ch in token)
        if not has_alpha or token in vocab.stopwords:
            continue
        if len(token) >= 3 or (len(token) >= 2 and any(ch.isdigit() for ch in token)):
            terms.append(token)
    terms += _cjk_terms(text, vocab)
    return list(dict.fromkeys(terms))


def _cjk_terms(text: str, vocab: Vocabulary) -> list[str]:
    out: list[str] = []
    for run in _CJK.findall(text):
        for word in vocab.cjk_stopwords:
            run = run.replace(word, " ")
        out += [piece for piece in run.split() if len(piece) >= 2]
    return out


def expand_query(query: str, extraction: Extraction, vocab: Vocabulary) -> str:
    """Scope words removed + cross-language variants of the matched topic concepts + the Chinese words for an
    English description of Chinese material."""
    base = " ".join(extraction.remaining.split())
    if not topic_terms(extraction, vocab):
        base = " ".join(query.split())
    present = extraction.text.lower()
    additions = [term for term in concept_variants(extraction, vocab) if term.lower() not in present]
    chinese = [word for word in glosses(query) if word not in additions]
    return " ".join([base, *additions[:MAX_EXPANSION_TERMS], *chinese]).strip()


def concept_variants(extraction: Extraction, vocab: Vocabulary) -> list[str]:
    """Every language's words for the topic concepts the query mentions (regex aliases left out), each once."""
    terms = [variant.lstrip("=") for group in extraction.topic_groups for variant in vocab.topic_groups.get(group, [])
             if not variant.startswith("~")]
    return list(dict.fromkeys(terms))
