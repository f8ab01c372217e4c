"""Numbers a query spells out, read as the digits the corpus and the gate's vocabulary are written in.

Why: a query dictated to a voice assistant, or typed the way it is spoken, names its sitting and item in words:
"virginia sol fifth grade science two thousand nine question twelve", "amc eight twenty seventeen number
seventeen", "a m c twelve b twenty twenty four number eight"; formal Chinese writes the year in characters:
"二零一八年全国二卷政治", "二〇二〇年". The gate reads years, papers and question numbers from digits, so without this
such a query kept no year and no number, and its exact scope held every year of the paper (round 27's blind
`jr_` family: leakage 0.49). Roman numeral characters ("全国Ⅰ、Ⅱ、Ⅲ卷") are the same letters the vocabulary
spells with I, V and X.

What is read, and only this, so that a number inside the question itself ("nine coins each", "twenty degrees",
"equals two") is left as it is:

* a year spoken as a year: "two thousand (and) nine", "twenty thirteen", "twenty twenty four", "twenty oh five",
  "nineteen ninety nine" (1950-2049);
* a number right after a word that numbers an item, a paper or a school year: "question twelve", "problem
  fifteen", "number eight", "paper two", "grade eight", "amc ten b";
* letters spelled one by one, three or more: "s o l", "a m c", "e p r" (a run that is the alphabet from "a",
  "a b c d", is an option list and is kept);
* four Chinese numeral characters that are a year: before 年, or starting 一九 / 二零 / 二〇;
* the Unicode Roman numeral characters (Ⅰ to Ⅻ) as ASCII letters.
"""

from __future__ import annotations

import re
import unicodedata

_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
          "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

_U = "|".join(_UNITS)
_T = "|".join(_TEENS)
_D = "|".join(_TENS)
#: one to ninety-nine, written as words ("seventeen", "twenty four", "twenty-four")
_CARDINAL = rf"(?:(?:{_D})(?:[\s-]+(?:{_U}))?|{_T}|{_U})"
_OH = r"(?:oh|o|zero)\s+(?:" + _U + ")"
_B = r"(?<![a-z])"
_E = r"(?![a-z])"

_YEAR_THOUSAND = re.compile(rf"{_B}two\s+thousand(?:\s+and)?\s+(?P<n>{_CARDINAL}){_E}", re.IGNORECASE)
_YEAR_PAIR = re.compile(rf"{_B}(?P<c>twenty|nineteen)\s+(?P<n>(?:{_D})(?:[\s-]+(?:{_U}))?|{_T}|{_OH}){_E}",
                        re.IGNORECASE)

#: words after which a spoken number names an item, a paper, a contest or a school year
_CUES = ("question|questions|problem|problems|prob|number|num|item|q|task|exercise|part|paper|grade|year|yr"
         "|class|form|standard|std|unit|chapter|section|level|amc|primary|sec|secondary|stage")
_CUED = re.compile(rf"{_B}(?P<cue>{_CUES}|no(?=\.))(?P<gap>\.?\s+|-)(?P<n>{_CARDINAL}){_E}", re.IGNORECASE)

_SPELLED = re.compile(r"(?<![a-z])[a-z](?:\s[a-z]){2,}(?![a-z])", re.IGNORECASE)

_HAN_DIGITS = {"〇": "0", "零": "0", "一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7",
               "八": "8", "九": "9"}
_HAN = "〇零一二三四五六七八九"
_HAN_YEAR = re.compile(rf"(?<![{_HAN}十百千万])(?:[{_HAN}]{{4}}(?=年)|(?:一九|二零|二〇)[{_HAN}]{{2}}(?![{_HAN}十百千万]))")

_ROMAN = re.compile("[\u2160-\u217f]")


def _cardinal(words: str) -> int:
    parts = re.split(r"[\s-]+", words.lower())
    if len(parts) == 2 and parts[0] in ("oh", "o", "zero"):
        return _UNITS[parts[1]]
    return sum(_UNITS.get(p) or _TEENS.get(p) or _TENS[p] for p in parts)


def _year_thousand(match: re.Match) -> str:
    return str(2000 + _cardinal(match.group("n")))


def _year_pair(match: re.Match) -> str:
    century = 2000 if match.group("c").lower() == "twenty" else 1900
    year = century + _cardinal(match.group("n"))
    return str(year) if 1950 <= year <= 2049 else match.group(0)


def _cued(match: re.Match) -> str:
    return f"{match.group('cue')}{match.group('gap')}{_cardinal(match.group('n'))}"


def _spelled(match: re.Match) -> str:
    letters = match.group(0).split()
    if "".join(letters).lower() == "abcdefghijklmnopqrstuvwxyz"[:len(letters)]:
        return match.group(0)  # "a b c d": the options of a multiple-choice question
    return "".join(letters)


def _han_year(match: re.Match) -> str:
    return "".join(_HAN_DIGITS[ch] for ch in match.group(0))


def digits(text: str) -> str:
    """``text`` with the numbers it spells out as a year, an item or a paper number, its spelled-out letters and its
    Roman numeral characters written the way the corpus writes them (see the module docstring)."""
    text = _ROMAN.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)
    text = _HAN_YEAR.sub(_han_year, text)
    if not re.search("[a-zA-Z]", text):
        return text
    text = _SPELLED.sub(_spelled, text)
    text = _YEAR_THOUSAND.sub(_year_thousand, text)
    text = _YEAR_PAIR.sub(_year_pair, text)
    return _CUED.sub(_cued, text)
