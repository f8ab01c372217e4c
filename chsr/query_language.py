"""The language a query is written in, with a confidence: which version of an item it wants first.

Why: the corpus carries parallel versions of some items (the same paper, year, question and
content type in several languages). A query written in English that names such an item wants
the English original first; the translations stay in the answer, after it, labelled (curriculum
README, bilingual policy: same-language item = 2, the same item in another language = 1). A
language the query *asks for* ("the French version", ``services.gate.language``) wins over the
one it is written in.

How: deterministic and small, in the corpus's five languages (en, fr, de, es, zh). Han script
decides Chinese; otherwise each Latin-script language scores its function words and its letters
(é/è/ç, ä/ö/ü/ß, ñ/¿/á). A query with no mark of any language, in plain ASCII letters, is English
at a low confidence: the names, numbers and subject words such queries are made of ("Northfield
2019 physics paper 1 question 3") are the English vocabulary of the corpus's paper names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chsr.glossary import glosses

#: Confidence of the fallback for plain-ASCII text with no language marks.
ASCII_FALLBACK_CONFIDENCE = 0.55
#: Plain ASCII letters count this much towards English (the other four languages' accents are missing).
ASCII_PRIOR = 0.5

#: Each language's grammatical words: articles, prepositions, pronouns, question words.
_GRAMMAR_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("""the a an of and or to in on for with from by at is are was were be what which who
        how why does do did this that these those it its as into than then there their""".split()),
    "fr": frozenset("""le la les un une des du de et ou à au aux en dans sur pour avec par est sont était
        que qui quoi quel quelle quels quelles comment pourquoi ce cette ces il elle on ne pas plus""".split()),
    "de": frozenset("""der die das den dem des ein eine einen einem einer und oder zu im in auf für mit
        von bei ist sind war waren was welche welcher welches wie warum nicht auch sich es sie er""".split()),
    "es": frozenset("""el la los las un una unos unas del de y o a al en con por para es son era que
        qué cual cuál cuales cómo como por qué porque este esta estos estas no se su sus""".split()),
}
#: The words of a request in each language ("explain", "question", "mark scheme"): marks of the language too, but
#: part of what the query asks for.
_TASK_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("""find show explain calculate question questions paper papers mark scheme answer answers item
        items grade version""".split()),
    "fr": frozenset("""calculer expliquer trouver montrer sujet épreuve corrigé réponse version question
        questions""".split()),
    "de": frozenset("""berechnen erklären bestimmen aufgabe aufgaben frage prüfung lösung fassung""".split()),
    "es": frozenset("""calcular explicar encontrar pregunta preguntas examen respuesta solución versión""".split()),
}
_FUNCTION_WORDS: dict[str, frozenset[str]] = {code: _GRAMMAR_WORDS[code] | _TASK_WORDS[code] for code in _GRAMMAR_WORDS}
_LETTERS: dict[str, str] = {"fr": "éèêëàâçîïôûùœ", "de": "äöüß", "es": "ñáíóú¿¡"}
_HAN = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@dataclass(frozen=True)
class LanguageGuess:
    code: str           # en | fr | de | es | zh
    confidence: float   # 0-1
    evidence: str       # what decided it, for the response's notes
    requested: bool = False   # the query (or a client hint) asks for this language; False: how it is written


#: What an English sentence encoder can read in a Chinese query: a Latin word of three letters or more.
_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
#: Han characters a query needs to count as written in Chinese for :func:`written_in_han`.
HAN_QUERY_MIN = 4


def written_in_han(text: str) -> bool:
    """Whether ``text`` is written in Chinese characters only (at least ``HAN_QUERY_MIN``, and no Latin word of three
    letters or more): all-MiniLM-L6-v2, the dense leg's encoder, was trained on English and reads such a query
    as little more than noise (gateway: the dense list's weight in pipeline E's fusion)."""
    return len(_HAN.findall(text)) >= HAN_QUERY_MIN and not _LATIN_WORD.search(text)


def detect_language(text: str) -> LanguageGuess | None:
    """The language ``text`` is written in, or None when there are no letters at all."""
    han = len(_HAN.findall(text))
    words = [w.lower() for w in _WORD.findall(_HAN.sub(" ", text))]
    if han:
        latin = sum(len(w) for w in words)
        share = han / (han + latin)
        if share >= 0.25:
            return LanguageGuess("zh", round(min(1.0, 0.5 + share), 3), f"{han} Han characters")
    if not words:
        return None
    scores = {code: 0.0 for code in _FUNCTION_WORDS}
    for word in words:
        owners = [code for code, vocab in _FUNCTION_WORDS.items() if word in vocab]
        for code in owners:  # a word several languages share ("de", "la", "a") counts for each in part
            scores[code] += 1.0 / len(owners)
        for code, letters in _LETTERS.items():
            if any(ch in letters for ch in word):
                scores[code] += 1.5
    if all(w.isascii() for w in words):
        scores["en"] += ASCII_PRIOR
    total = sum(scores.values())
    best = max(scores, key=lambda code: (scores[code], code == "en"))
    if total == ASCII_PRIOR and scores["en"] == ASCII_PRIOR:
        return LanguageGuess("en", ASCII_FALLBACK_CONFIDENCE, "plain ASCII, no marks of another language")
    if total == 0:
        return None
    share = scores[best] / total
    confidence = round(share * min(1.0, 0.6 + 0.2 * scores[best]), 3)
    return LanguageGuess(best, confidence, f"{scores[best]:g} of {total:g} language marks")


#: The languages whose grammatical words :func:`probe_text` drops: English's are dropped by the index's own tokenizer
#: (``chsr.text``), Chinese has none to split off.
PROBE_STRIPPED = ("fr", "de", "es")
#: How sure the detection must be for :func:`probe_text` to drop a language's words.
PROBE_MIN_CONFIDENCE = 0.5
_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def probe_text(text: str) -> str:
    """The query as the gate's evidence probe searches it: without the grammatical words of the language it is
    written in, when that is French, German or Spanish (detected surely enough); the text itself otherwise. Where it
    names Chinese material in another script, the Chinese words for its description follow (``chsr.glossary``:
    "gaokao 2019 physics ... argon, furnace" finds the item, written in Chinese, only by 氩 and 炉).

    Why: the index tokenizer drops English function words only, and French, German and Spanish items are a small
    part of the index, so "de", "la", "que", "el" are rare there and weigh heavily: a Spanish question about
    economics or biology found the Spanish physics items first (the only subjects the index holds in Spanish
    besides geography), and the evidence decided physics against the text's subject (issue 21, round 21). Without
    them the probe matches the query's topic words. The ladder's own retrieval keeps the full text."""
    added = " ".join(glosses(text))
    guess = detect_language(text)
    if guess is None or guess.code not in PROBE_STRIPPED or guess.confidence < PROBE_MIN_CONFIDENCE:
        return f"{text} {added}" if added else text
    grammar = _GRAMMAR_WORDS[guess.code]
    kept = [token for token in _TOKEN.findall(text) if _EDGE.sub("", token).lower() not in grammar]
    stripped = " ".join(kept) if kept else text
    return f"{stripped} {added}" if added else stripped
