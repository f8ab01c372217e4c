"""An explicitly requested language version ("German physics item", "the Spanish version",
"en français", "中文版") becomes a ``language`` constraint.

Why: the curriculum corpus carries parallel items in several languages, and a query that
names one asks for that version (curriculum README, bilingual policy: "unless the query asks
for a specific language version"). A query merely *written* in French is not a request for
French evidence, and "all versions" asks for none, so both leave the field open.
"""

from __future__ import annotations

import re

from services.gate.lexicon import SpanText

CONFIDENCE = 0.75
_NAMES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "chinese": "zh",
    "français": "fr", "française": "fr", "francais": "fr", "allemand": "de", "allemande": "de",
    "espagnol": "es", "espagnole": "es", "anglais": "en", "anglaise": "en",
    "deutsch": "de", "deutsche": "de", "deutschen": "de", "englisch": "en", "französisch": "fr", "spanisch": "es",
    "español": "es", "española": "es", "castellano": "es", "inglés": "en", "francés": "fr", "alemán": "de",
    # Portuguese (Brazilian teachers ask for the other versions: "a versão em alemão")
    "alemão": "de", "francês": "fr", "espanhol": "es", "inglês": "en",
}
_NAME = "|".join(sorted(map(re.escape, _NAMES), key=len, reverse=True))
_NOUNS = (r"version|versions|item|items|question|questions|translation|text|original|exam|test|matura|fassung|aufgabe"
          r"|frage|pregunta|versión|versão|questão|mcq|mcqs|qcm|quiz|problem|problems|exercise|exercises")
#: A language's name that begins a topic, not a version: "French Revolution question", "German reunification quiz",
#: "English grammar test".
_TOPIC_AFTER = (r"(?!(?:revolution|revolutionary|reunification|empire|republic|war|wars|colonial|colonies|grammar"
                r"|literature|literary|language|vocabulary|writing|essay|essays|reading|spelling)\b)")
_PATTERNS = [
    re.compile(rf"\b(?P<lang>{_NAME})(?:-language|-speaking)?\s+{_TOPIC_AFTER}(?:\w[\w-]*\s+){{0,2}}?(?:{_NOUNS})\b"),
    re.compile(rf"\b(?:in|en|auf|em|version|versión|versão)\s+(?P<lang>{_NAME})\b"),
]
#: "法文的选择题", "法语的物理选择题", "德语经济学选择题": the language before an item word, a subject (up to four Han
#: characters, or one Latin word: "找几道英文 biology 选择题") between them at most ("学法语的题" elsewhere is not matched: the
#: language must come first)
_CJK_ITEM = r"(?=的?(?:[\u3400-\u9fff]{0,4}?|\s*[A-Za-z]{2,12}\s*)(?:选择题|试题|题目|题|版))"
_CJK = [(re.compile(r"中文版|中文题|汉语版"), "zh"), (re.compile(rf"英文版|英语版|英文{_CJK_ITEM}"), "en"),
        (re.compile(rf"法文版|法语版|法文{_CJK_ITEM}|法语{_CJK_ITEM}"), "fr"),
        (re.compile(rf"德文版|德语版|德文{_CJK_ITEM}|德语{_CJK_ITEM}"), "de"),
        (re.compile(rf"西班牙文版|西班牙语版|西文版|西语版|西班牙文{_CJK_ITEM}|西班牙语{_CJK_ITEM}|西语{_CJK_ITEM}"), "es"),
        # Japanese: 仏語 / フランス語 (French), 独語 / ドイツ語 (German), スペイン語 (Spanish), as the gate reads them after
        # chsr.chinese.simplified (語 -> 语; the query is converted before extraction)
        (re.compile(r"仏语|フランス语"), "fr"), (re.compile(r"独语|ドイツ语"), "de"), (re.compile(r"スペイン语"), "es")]
_ALL_VERSIONS = re.compile(r"\ball (?:the )?(?:language )?versions\b|\btoutes les versions\b|\balle fassungen\b"
                           r"|所有(?:语言)?版本|全部(?:语言)?版本|各(?:个|种)?语言?版本|版本.{0,3}(?:全都|全部|都)要|全部の语言版|全语言版")


#: A language named alone, not before an item word: counted only where the text asks for versions and names two or
#: more ("all three language versions (French, German, Spanish)", "en français + les versions allemande et
#: espagnole", "法文、德文、西文版本我全都要"). 西文 / 西语 are the Chinese short forms of 西班牙文 / 西班牙语.
_BARE_NAME = re.compile(rf"\b(?P<lang>{_NAME})\b")
_CJK_NAMES = [(re.compile(r"法文|法语"), "fr"), (re.compile(r"德文|德语"), "de"),
              (re.compile(r"西班牙文|西班牙语|西文|西语"), "es"), (re.compile(r"英文|英语"), "en"),
              (re.compile(r"中文|汉语"), "zh")]
#: Japanese one-character names, which count only inside a list of them ("仏・独・西", "仏独西").
_CJK_LETTERS = {"仏": "fr", "独": "de", "西": "es", "英": "en"}
_LETTER = f"[{''.join(_CJK_LETTERS)}]"
_CJK_LIST = re.compile(rf"{_LETTER}(?:[・、,，/]?{_LETTER}){{1,3}}(?![\u3400-\u9fff])")
#: Two-letter codes, only as a list ("(FR, DE, ES)", "de/fr/es"): alone, "de" and "es" are French and Spanish words.
_CODE = re.compile(r"fr|de|es|en")
_CODE_LIST = re.compile(rf"\b(?:{_CODE.pattern})(?:\s*[,/]\s*(?:{_CODE.pattern})){{1,3}}\b")
#: Words of a request for several versions.
_SEVERAL = re.compile(r"\b(?:versions|fassungen|sprachfassungen|sprachversionen|versiones|versões)\b"
                      r"|\b(?:all three|both|alle drei|alle beide|les trois|les deux|los tres|las tres)\b"
                      r"|版本|语言版|言语版")


def find_languages(st: SpanText) -> tuple | None:
    """(codes, confidence, evidence) or None; claims the language words it uses.

    "All versions" asks for no one language, so the field stays open; but a request for versions that names two or
    more languages asks for those, in the order named ("all versions (French, German, Spanish)", and "la version
    française mais aussi l'allemande et l'espagnole", where only the first is named before an item word)."""
    view = st.view()
    named = _named_languages(view)
    listed = tuple(dict.fromkeys(code for _, _, code, _ in named))
    every_version = bool(_ALL_VERSIONS.search(view))
    if len(listed) >= 2 and (every_version or _SEVERAL.search(view)):
        return _claim_all(st, named, listed)
    if every_version:
        return None
    codes: list[str] = []
    evidence: list[str] = []
    for pattern in _PATTERNS:
        for match in pattern.finditer(view):
            codes.append(_NAMES[match.group("lang")])
            evidence.append(match.group(0))
            st.claim(match.start("lang"), match.end("lang"), "language")
    for pattern, code in _CJK:
        for match in pattern.finditer(view):
            codes.append(code)
            evidence.append(match.group(0))
            st.claim(match.start(), match.end(), "language")
    if not codes:
        return None
    if len(listed) >= 2:
        return _claim_all(st, named, listed)
    return tuple(dict.fromkeys(codes)), CONFIDENCE, ", ".join(evidence)


def _claim_all(st: SpanText, named: list[tuple[int, int, str, str]], codes: tuple[str, ...]) -> tuple:
    for start, end, _, _ in named:
        st.claim(start, end, "language")
    return codes, CONFIDENCE, ", ".join(word for _, _, _, word in named)


def _named_languages(view: str) -> list[tuple[int, int, str, str]]:
    """(start, end, code, word) for every language the text names, in order of mention."""
    found = [(m.start("lang"), m.end("lang"), _NAMES[m.group("lang")], m.group(0)) for m in _BARE_NAME.finditer(view)]
    for pattern, code in _CJK_NAMES:
        found += [(m.start(), m.end(), code, m.group(0)) for m in pattern.finditer(view)]
    for m in _CODE_LIST.finditer(view):
        found += [(m.start() + c.start(), m.start() + c.end(), c.group(0), c.group(0))
                  for c in _CODE.finditer(m.group(0))]
    for m in _CJK_LIST.finditer(view):
        found += [(m.start() + i, m.start() + i + 1, _CJK_LETTERS[ch], ch) for i, ch in enumerate(m.group(0))
                  if ch in _CJK_LETTERS]
    return sorted(found)
