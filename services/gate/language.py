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
}
_NAME = "|".join(sorted(map(re.escape, _NAMES), key=len, reverse=True))
_NOUNS = r"version|versions|item|items|question|questions|translation|text|original|exam|test|matura|fassung|aufgabe|frage|pregunta|versión"
_PATTERNS = [
    re.compile(rf"\b(?P<lang>{_NAME})(?:-language|-speaking)?\s+(?:\w+\s+){{0,2}}?(?:{_NOUNS})\b"),
    re.compile(rf"\b(?:in|en|auf|version|versión)\s+(?P<lang>{_NAME})\b"),
]
#: "法文的选择题", "法语的物理选择题", "德语经济学选择题": the language before an item word, a subject (up to four Han
#: characters, or one Latin word: "找几道英文 biology 选择题") between them at most ("学法语的题" elsewhere is not matched: the
#: language must come first)
_CJK_ITEM = r"(?=的?(?:[\u3400-\u9fff]{0,4}?|\s*[A-Za-z]{2,12}\s*)(?:选择题|试题|题目|题|版))"
_CJK = [(re.compile(r"中文版|中文题|汉语版"), "zh"), (re.compile(rf"英文版|英语版|英文{_CJK_ITEM}"), "en"),
        (re.compile(rf"法文版|法语版|法文{_CJK_ITEM}|法语{_CJK_ITEM}"), "fr"),
        (re.compile(rf"德文版|德语版|德文{_CJK_ITEM}|德语{_CJK_ITEM}"), "de"),
        (re.compile(rf"西班牙文版|西班牙语版|西文版|西班牙文{_CJK_ITEM}|西班牙语{_CJK_ITEM}"), "es"),
        # Japanese: 仏語 / フランス語 (French), 独語 / ドイツ語 (German), スペイン語 (Spanish), as the gate reads them after
        # chsr.chinese.simplified (語 -> 语; the query is converted before extraction)
        (re.compile(r"仏语|フランス语"), "fr"), (re.compile(r"独语|ドイツ语"), "de"), (re.compile(r"スペイン语"), "es")]
_ALL_VERSIONS = re.compile(r"\ball (?:the )?(?:language )?versions\b|\btoutes les versions\b|\balle fassungen\b"
                           r"|所有(?:语言)?版本|全部(?:语言)?版本|各(?:个|种)?语言?版本|版本.{0,3}(?:全都|全部|都)要|全部の语言版|全语言版")


def find_languages(st: SpanText) -> tuple | None:
    """(codes, confidence, evidence) or None; claims the language words it uses."""
    view = st.view()
    if _ALL_VERSIONS.search(view):
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
    return tuple(dict.fromkeys(codes)), CONFIDENCE, ", ".join(evidence)
