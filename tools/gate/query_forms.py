"""Surface forms for generated scope queries: how students write subjects, levels, content
types, papers and item numbers in the corpus's five languages (issue 14, item 1).

Written independently of ``services/gate/vocabulary.json`` on purpose: a generated set
rendered from the gate's own alias lists would only measure that the gate knows its own
lists. Some forms here are ones the gate has never seen (that is the point of a
generalisation set). Each table is data; the renderers pick from them with the caller's
``random.Random`` so the whole set is reproducible from one seed.
"""

from __future__ import annotations

import random
import re

LANGS = ("en", "zh", "fr", "de", "es")

SUBJECTS: dict[str, dict[str, list[str]]] = {
    "en": {"physics": ["physics", "phys"], "chemistry": ["chemistry", "chem"], "biology": ["biology", "bio"],
           "mathematics": ["math", "maths", "mathematics"], "science": ["science", "general science"],
           "computer_science": ["computer science", "CS"], "economics": ["economics", "econ"],
           "history": ["history"], "geography": ["geography", "geo"], "politics": ["politics", "government", "civics"],
           "psychology": ["psychology", "psych"], "english": ["English", "ELA"], "tourism": ["tourism"]},
    "zh": {"physics": ["物理"], "chemistry": ["化学"], "biology": ["生物"], "mathematics": ["数学"],
           "science": ["科学"], "computer_science": ["计算机"], "economics": ["经济"], "history": ["历史"],
           "geography": ["地理"], "politics": ["政治"], "psychology": ["心理学"], "english": ["英语"], "tourism": ["旅游"]},
    "fr": {"physics": ["physique"], "chemistry": ["chimie"], "biology": ["biologie", "SVT"],
           "mathematics": ["maths", "mathématiques"], "science": ["sciences"], "computer_science": ["informatique"],
           "economics": ["économie", "éco"], "history": ["histoire"], "geography": ["géographie", "géo"],
           "politics": ["sciences politiques", "politique"], "psychology": ["psychologie"], "english": ["anglais"],
           "tourism": ["tourisme"]},
    "de": {"physics": ["Physik"], "chemistry": ["Chemie"], "biology": ["Biologie", "Bio"],
           "mathematics": ["Mathe", "Mathematik"], "science": ["Naturwissenschaften", "Sachkunde"],
           "computer_science": ["Informatik"], "economics": ["Wirtschaft", "VWL"], "history": ["Geschichte"],
           "geography": ["Erdkunde", "Geographie"], "politics": ["Politik"], "psychology": ["Psychologie"],
           "english": ["Englisch"], "tourism": ["Tourismus"]},
    "es": {"physics": ["física"], "chemistry": ["química"], "biology": ["biología"], "mathematics": ["matemáticas", "mates"],
           "science": ["ciencias"], "computer_science": ["informática"], "economics": ["economía"], "history": ["historia"],
           "geography": ["geografía"], "politics": ["política"], "psychology": ["psicología"], "english": ["inglés"],
           "tourism": ["turismo"]},
}

#: Subjects a confused student plausibly names instead of the true one (wrong-subject phrasing).
CONFUSERS: dict[str, list[str]] = {
    "physics": ["chemistry", "mathematics", "economics", "biology", "history"],
    "chemistry": ["physics", "biology", "mathematics"], "biology": ["chemistry", "physics", "history"],
    "mathematics": ["physics", "chemistry", "economics"], "science": ["chemistry", "physics", "biology", "economics"],
    "economics": ["mathematics", "history", "politics"], "history": ["politics", "economics", "physics"],
    "geography": ["economics", "history", "physics"], "politics": ["history", "economics"],
    "psychology": ["biology", "history"], "english": ["history", "psychology"], "computer_science": ["mathematics", "physics"],
    "tourism": ["geography", "economics"],
}

_ORD = {1: "1st", 2: "2nd", 3: "3rd"}
_FR_GRADE = {1: "CP", 2: "CE1", 3: "CE2", 4: "CM1", 5: "CM2", 6: "6e", 7: "5e", 8: "4e", 9: "3e", 10: "seconde",
             11: "première", 12: "terminale"}
_ZH_NUM = "零一二三四五六七八九十"


def _zh_grade(n: int) -> str:
    if n <= 6:
        return f"小学{_ZH_NUM[n]}年级"
    if n <= 9:
        return f"初{_ZH_NUM[n - 6]}"
    return f"高{_ZH_NUM[n - 9]}"


def level_phrase(level: str, lang: str, rng: random.Random) -> str:
    """A way to say ``level`` in ``lang`` (grade_k .. grade_12, elementary, high_school, college)."""
    if level.startswith("grade_"):
        raw = level.removeprefix("grade_")
        n = 0 if raw == "k" else int(raw)
        if n == 0:
            return rng.choice({"en": ["kindergarten", "grade K"], "zh": ["幼儿园"], "fr": ["maternelle"],
                               "de": ["Kindergarten"], "es": ["preescolar"]}[lang])
        forms = {"en": [f"grade {n}", f"{_ORD.get(n, f'{n}th')} grade", f"{_ORD.get(n, f'{n}th')} graders", f"gr. {n}"],
                 "zh": [_zh_grade(n), f"{n}年级"], "fr": [_FR_GRADE[n], f"niveau {_FR_GRADE[n]}"],
                 "de": [f"Klasse {n}", f"{n}. Klasse", f"Jahrgangsstufe {n}"], "es": [f"{n}º grado", f"grado {n}"]}
        return rng.choice(forms[lang])
    forms = {
        "high_school": {"en": ["high school", "HS"], "zh": ["高中"], "fr": ["lycée"], "de": ["Oberstufe", "Gymnasium"],
                        "es": ["preparatoria", "secundaria"]},
        "college": {"en": ["college", "university", "undergrad"], "zh": ["大学"], "fr": ["université", "fac"],
                    "de": ["Uni", "Hochschule"], "es": ["universidad"]},
        "elementary": {"en": ["elementary school", "elementary"], "zh": ["小学"], "fr": ["école primaire"],
                       "de": ["Grundschule"], "es": ["primaria"]},
    }
    return rng.choice(forms[level][lang])


CONTENT: dict[str, dict[str, list[str]]] = {
    "exam_question": {"en": ["question", "exam question", "problem", "MCQ", "test item", "quiz question"],
                      "zh": ["题", "选择题", "试题", "考题"], "fr": ["question", "QCM", "exercice"],
                      "de": ["Frage", "Aufgabe", "Prüfungsfrage"], "es": ["pregunta", "ejercicio", "pregunta de examen"]},
    "solution": {"en": ["solution", "worked solution", "answer explanation", "how to solve", "step-by-step solution"],
                 "zh": ["答案解析", "详解", "解析", "解题过程"], "fr": ["corrigé", "solution détaillée"],
                 "de": ["Lösung", "Lösungsweg"], "es": ["solución", "resolución"]},
    "mark_scheme": {"en": ["mark scheme", "marking guidelines", "official answer key", "scoring rubric"],
                    "zh": ["参考答案", "评分标准", "参考答案和评分"], "fr": ["barème", "grille de correction"],
                    "de": ["Bewertungsschema", "Erwartungshorizont"], "es": ["criterios de corrección", "solucionario oficial"]},
    "textbook": {"en": ["textbook", "textbook section", "in the physics book", "textbook chapter"],
                 "zh": ["课本", "教材"], "fr": ["manuel", "cours"], "de": ["Lehrbuch", "Schulbuch"],
                 "es": ["libro de texto", "manual"]},
    "syllabus": {"en": ["standard", "curriculum standard", "syllabus", "learning standard"],
                 "zh": ["课程标准", "课标"], "fr": ["programme", "référentiel"], "de": ["Lehrplan", "Bildungsstandard"],
                 "es": ["currículo", "estándar"]},
}


def question_number_phrase(n: int, lang: str, rng: random.Random) -> str:
    forms = {"en": [f"question {n}", f"problem {n}", f"#{n}", f"Q{n}", f"item {n}", f"number {n}", f"no. {n}"],
             "zh": [f"第{n}题", f"{n}题", f"第{n}小题"], "fr": [f"question {n}", f"exercice {n}", f"n° {n}"],
             "de": [f"Aufgabe {n}", f"Nr. {n}", f"Frage {n}"], "es": [f"pregunta {n}", f"ejercicio {n}", f"nº {n}"]}
    return rng.choice(forms[lang])


def year_phrase(year: int, lang: str, rng: random.Random) -> str:
    if lang == "zh":
        return rng.choice([f"{year}年", f"{year}", f"{year}年高考"])
    return rng.choice([str(year), str(year), f"({year})", f"{year}'s"]) if lang == "en" else str(year)


# ---- papers ---------------------------------------------------------------------------
_GK_VARIANTS = {
    "新课标": ["新课标卷", "课标卷", "新课标"], "新课标I": ["新课标I卷", "全国I卷", "全国一卷", "全国卷I", "新课标1卷"],
    "新课标II": ["新课标II卷", "全国II卷", "全国二卷", "全国卷II", "新课标2卷"],
    "新课标III": ["新课标III卷", "全国III卷", "全国三卷", "全国卷III"], "全国II": ["全国II卷", "全国卷II", "全国二卷"],
    "全国III": ["全国III卷", "全国卷III", "全国三卷"], "全国甲": ["全国甲卷", "甲卷"], "全国乙": ["全国乙卷", "乙卷"],
}
_GK_VARIANTS_EN = {"新课标": "national paper", "新课标I": "national paper I", "新课标II": "national paper II",
                   "新课标III": "national paper III", "全国II": "national paper II", "全国III": "national paper III",
                   "全国甲": "national paper A (甲)", "全国乙": "national paper B (乙)"}
_GK_SUBJECT = {"Mathematics I (science track)": (["理数", "理科数学", "数学(理)"], "science-track maths"),
               "Mathematics II (liberal-arts track)": (["文数", "文科数学", "数学(文)"], "liberal-arts maths"),
               "Physics": (["物理", "理综物理"], "physics"), "Chemistry": (["化学", "理综化学"], "chemistry"),
               "Biology": (["生物", "理综生物"], "biology"), "History": (["历史", "文综历史"], "history"),
               "Politics": (["政治", "文综政治"], "politics"), "Geography": (["地理", "文综地理"], "geography")}
_GK_PAPER = re.compile(r"^Gaokao (?P<variant>\S+) (?P<subject>.+)$")
_ARC_PAPER = re.compile(r"^(?P<board>.+?) Grade (?P<n>\d+) Science$")
_BOARD_FORMS = {
    "NYSED": ["NY", "New York", "NYSED", "New York State"], "MCAS": ["MCAS", "Massachusetts MCAS", "Massachusetts"],
    "Virginia SOL": ["Virginia SOL", "VA SOL", "Virginia"], "Maryland MSA": ["Maryland MSA", "Maryland", "MSA"],
    "North Carolina READY EOG": ["North Carolina EOG", "NC end of grade", "North Carolina end-of-grade"],
    "ACTAAP": ["Arkansas ACTAAP", "ACTAAP", "Arkansas"], "Ohio Achievement Test": ["Ohio achievement test", "Ohio"],
    "TIMSS": ["TIMSS"], "NAEP": ["NAEP"], "LEAP": ["Louisiana LEAP", "LEAP"], "MEA": ["Maine MEA", "Maine"],
    "Alaska SBA": ["Alaska SBA", "Alaska"], "California Standards Test": ["California CST", "California standards test"],
    "AIMS": ["Arizona AIMS", "AIMS"], "TAKS": ["Texas TAKS", "TAKS"], "MEAP": ["Michigan MEAP", "MEAP"],
    "WASL": ["Washington WASL", "WASL"], "FCAT": ["Florida FCAT", "FCAT"], "AMP": ["AMP"],
}


def citable(paper: str | None) -> bool:
    """Papers a query can cite by name (exam papers; textbook chapters and standards are not 'papers' to students)."""
    return bool(paper) and bool(_GK_PAPER.match(paper) or _ARC_PAPER.match(paper) or paper.startswith("AMC "))


def paper_phrase(paper: str, lang: str, rng: random.Random) -> str:
    """A colloquial reference to an exam paper (board + paper name), in ``lang`` where the family allows."""
    if paper.startswith("AMC "):
        code = paper.removeprefix("AMC ")
        return rng.choice([paper, f"AMC{code}", f"AMC {code[:-1]} {code[-1]}" if code[-1] in "AB" else f"the AMC {code}"])
    m = _GK_PAPER.match(paper)
    if m:
        variants = _GK_VARIANTS.get(m["variant"], [m["variant"]])
        zh_subjects, en_subject = _GK_SUBJECT.get(m["subject"], ([m["subject"]], m["subject"].lower()))
        if lang == "zh" or rng.random() < 0.6:
            return f"{rng.choice(variants)}{rng.choice(['', ' '])}{rng.choice(zh_subjects)}"
        return f"gaokao {en_subject} {_GK_VARIANTS_EN.get(m['variant'], m['variant'])}"
    m = _ARC_PAPER.match(paper)
    if m:
        board = rng.choice(_BOARD_FORMS.get(m["board"], [m["board"]]))
        grade = level_phrase(f"grade_{m['n']}", "en", rng)
        return rng.choice([f"{board} {grade} science", f"{board} {grade} science test", f"{board} science {grade}"])
    return paper


#: Exam families the corpus does not hold (abstention look-ups): (family, subject, phrasing).
FOREIGN_FAMILIES = [
    ("GCSE", "physics", "GCSE physics paper 2"), ("GCSE", "chemistry", "GCSE chemistry higher tier paper 1"),
    ("A-level", "mathematics", "A-level maths paper 3"), ("A-level", "biology", "A level biology paper 1"),
    ("WAEC", "chemistry", "WAEC chemistry"), ("WAEC", "economics", "WAEC economics objective"),
    ("IB", "mathematics", "IB maths HL paper 1"), ("IB", "physics", "IB physics SL paper 2"),
    ("SAT", "mathematics", "SAT math section"), ("KCSE", "biology", "KCSE biology paper 2"),
    ("Abitur", "physics", "Abitur Physik Leistungskurs"), ("Bac", "mathematics", "bac S maths sujet"),
    ("Selectividad", "chemistry", "selectividad química"), ("中考", "physics", "中考物理"),
]
