"""Exam papers and their mark schemes from AMC, Gaokao and ARC items; worksheets from MMLU/EXAMS.

Each paper is the real paper's items under their printed numbers (ARC released-item
booklets keep their gapped original numbers); the cover states board, subject, level,
year, session and paper the way such covers do, and ``cover_fields`` records exactly the
corpus values those words stand for.
"""

from __future__ import annotations

import hashlib
import random
import re

from tools.docgen.corpus_items import Item, clean, group_by, split_options, split_subparts, strip_number
from tools.docgen.specs import DocSpec, Question
from tools.docgen.styles import INSTRUCTIONS, pick_style

_GK_SUBJECTS = {
    "Mathematics I (science track)": "理科数学", "Mathematics II (liberal-arts track)": "文科数学",
    "Physics": "理科综合能力测试（物理）", "Chemistry": "理科综合能力测试（化学）", "Biology": "理科综合能力测试（生物）",
    "History": "文科综合能力测试（历史）", "Geography": "文科综合能力测试（地理）", "Political Science": "文科综合能力测试（政治）",
}
_ORDINAL = {1: "st", 2: "nd", 3: "rd"}


def _question(item: Item, number: int, zh: bool = False) -> Question:
    text = clean(strip_number(item.text) if zh else item.text)
    stem, options = split_options(text)
    stem, parts = split_subparts(stem)
    return Question(number=number, corpus_id=item.id, stem=stem, parts=parts, options=options)


def _fields(meta: dict, *names: str) -> dict:
    return {n: meta.get(n) for n in names if meta.get(n) is not None}


def amc_papers(items: list[Item], rng: random.Random, count: int) -> list[DocSpec]:
    groups = group_by([i for i in items if i.meta.get("source") == "amc"], "paper", "year", "content_type")
    keys = sorted({(p, y) for (p, y, ct) in groups if ct == "exam_question" and len(groups[(p, y, ct)]) >= 20})
    out = []
    for paper, year in rng.sample(keys, min(count, len(keys))):
        questions = sorted(groups[(paper, year, "exam_question")], key=lambda i: i.meta["question_number"])
        meta = questions[0].meta
        grade = meta["level"].split("_")[1]
        contest = paper.replace("AMC ", "")
        edition = year - (1999 if grade != "8" else 1984)
        title = rng.choice([f"{year} AMC {contest}", f"AMC {contest[:-1]} {contest[-1]} {year}" if meta.get("session") else f"AMC 8 {year}"])
        cover = ["Mathematical Association of America", "American Mathematics Competitions",
                 f"{edition}{_ORDINAL.get(edition % 10 if edition % 100 not in (11, 12, 13) else 0, 'th')} Annual", title,
                 f"Mathematics — for students in grade {grade} and below"]
        fields = _fields(meta, "exam_board", "paper", "year", "session", "subject", "level")
        slug = f"amc-{contest.lower()}-{year}"
        style = pick_style(rng, "en")
        out.append(DocSpec(f"{slug}-paper", "exam", "en", cover, {**fields, "content_type": "exam_question"},
                           f"{year} AMC {contest}", "Mathematics", INSTRUCTIONS["en"][:3],
                           [_question(q, q.meta["question_number"]) for q in questions], marker=style["marker"], style=style))
        sols = sorted(groups.get((paper, year, "solution"), []), key=lambda i: i.meta["question_number"])
        if sols:
            ms_style = pick_style(rng, "en", answers=True)
            out.append(DocSpec(f"{slug}-solutions", "mark_scheme", "en", cover + ["Solutions Pamphlet"],
                               {**fields, "content_type": "solution"}, f"{year} AMC {contest} Solutions", "Mathematics", [],
                               [Question(s.meta["question_number"], s.id, clean(s.text)) for s in sols],
                               marker=ms_style["marker"], style=ms_style))
    return out


def gaokao_papers(items: list[Item], rng: random.Random, count: int) -> list[DocSpec]:
    pool = [i for i in items if i.meta.get("source") == "gaokao_bench" and i.meta.get("question_number")]
    groups = group_by(pool, "paper", "year", "content_type")
    keys = sorted({(p, y) for (p, y, ct) in groups if ct == "exam_question" and len(groups[(p, y, ct)]) >= 6
                   and "unknown" not in p})
    out = []
    for paper, year in rng.sample(keys, min(count, len(keys))):
        by_number: dict[int, Item] = {}
        for item in sorted(groups[(paper, year, "exam_question")], key=lambda i: i.meta["question_number"]):
            by_number.setdefault(item.meta["question_number"], item)
        meta = next(iter(by_number.values())).meta
        variant, label = re.match(r"Gaokao (\S+) (.+)", paper).groups()
        cover = ["绝密★启用前", f"{year}年普通高等学校招生全国统一考试（{variant}卷）", _GK_SUBJECTS.get(label, label)]
        fields = _fields(meta, "exam_board", "paper", "year", "subject", "level")
        style = pick_style(rng, "zh")
        slug = f"gaokao-{year}-{hashlib.sha1(paper.encode()).hexdigest()[:6]}"
        out.append(DocSpec(f"{slug}-paper", "exam", "zh", cover, {**fields, "content_type": "exam_question"},
                           f"{year}年普通高等学校招生全国统一考试", _GK_SUBJECTS.get(label, label), INSTRUCTIONS["zh"],
                           [_question(q, n, zh=True) for n, q in by_number.items()], marker=style["marker"], style=style))
        answers = {}
        for ct in ("mark_scheme", "solution"):
            for item in groups.get((paper, year, ct), []):
                if item.meta["question_number"] in by_number:
                    answers.setdefault(item.meta["question_number"], item)
        if len(answers) >= 3:
            ms_style = pick_style(rng, "zh", answers=True)
            out.append(DocSpec(f"{slug}-answers", "mark_scheme", "zh", cover + ["参考答案"],
                               {**fields, "content_type": "mark_scheme"}, f"{year}年高考 参考答案",
                               _GK_SUBJECTS.get(label, label), [],
                               [Question(n, a.id, clean(a.text)) for n, a in sorted(answers.items())],
                               marker=ms_style["marker"], style=ms_style))
    return out


def arc_papers(items: list[Item], rng: random.Random, count: int) -> list[DocSpec]:
    pool = [i for i in items if i.meta.get("source") == "arc" and i.meta.get("paper") and i.meta.get("year")
            and i.meta.get("question_number")]
    groups = group_by(pool, "paper", "year")
    keys = sorted(k for k, v in groups.items() if len({i.meta["question_number"] for i in v}) >= 8)
    out = []
    for paper, year in rng.sample(keys, min(count, len(keys))):
        by_number: dict[int, Item] = {}
        for item in sorted(groups[(paper, year)], key=lambda i: i.meta["question_number"]):
            by_number.setdefault(item.meta["question_number"], item)
        meta = next(iter(by_number.values())).meta
        grade = meta["level"].split("_")[1]
        cover = [meta["exam_board"], f"Grade {grade} Science", rng.choice([f"{year} Released Test Items", f"Spring {year}"])]
        style = pick_style(rng, "en")
        fields = _fields(meta, "exam_board", "paper", "year", "subject", "level")
        slug = re.sub(r"[^a-z0-9]+", "-", f"{paper} {year}".lower()).strip("-")
        out.append(DocSpec(slug, "exam", "en", cover, {**fields, "content_type": "exam_question"}, f"{paper} {year}",
                           "Science", INSTRUCTIONS["en"][1:3], [_question(q, n) for n, q in by_number.items()],
                           marker=style["marker"], style=style))
    return out


_WS_WORDS = {
    "fr": ({"physics": "Physique", "chemistry": "Chimie", "economics": "Économie", "geography": "Géographie",
            "tourism": "Tourisme"}, "Fiche d'exercices", "Classe de terminale"),
    "de": ({"physics": "Physik", "chemistry": "Chemie", "economics": "Wirtschaft", "geography": "Geographie",
            "tourism": "Tourismus"}, "Arbeitsblatt", "Klasse 12"),
    "es": ({"physics": "Física", "chemistry": "Química", "economics": "Economía", "geography": "Geografía",
            "tourism": "Turismo"}, "Hoja de ejercicios", "2º de Bachillerato"),
}


def worksheets(items: list[Item], rng: random.Random, count: int) -> list[DocSpec]:
    """MMLU (en) and EXAMS (fr/de/es) items as numbered practice worksheets."""
    out = []
    mmlu = group_by([i for i in items if i.meta.get("source") == "mmlu"], "subject", "level")
    for subject, level in rng.sample(sorted(k for k in mmlu if k[1] in ("high_school", "college")), count):
        chosen = rng.sample(mmlu[(subject, level)], min(12, len(mmlu[(subject, level)])))
        name = f"{level.replace('_', ' ').title()} {subject.replace('_', ' ').title()}"
        style = pick_style(rng, "en")
        out.append(DocSpec(f"worksheet-{subject}-{level}", "worksheet", "en", [name, "Practice Worksheet"],
                           {"subject": subject, "level": level, "content_type": "exam_question"}, name, "Worksheet", [],
                           [_question(q, n) for n, q in enumerate(chosen, start=1)], marker=style["marker"], style=style))
    exams = group_by([i for i in items if i.meta.get("source") == "exams_qa"], "language", "subject")
    for language in ("fr", "de", "es"):
        keys = sorted(k for k in exams if k[0] == language and k[1] in _WS_WORDS[language][0] and len(exams[k]) >= 10)
        if not keys:
            continue
        _, subject = rng.choice(keys)
        names, kind_word, level_word = _WS_WORDS[language]
        chosen = rng.sample(exams[(language, subject)], 10)
        style = pick_style(rng, language)
        out.append(DocSpec(f"worksheet-{language}-{subject}", "worksheet", language,
                           [names[subject], kind_word, level_word],
                           {"subject": subject, "level": "grade_12", "content_type": "exam_question"},
                           f"{names[subject]} — {kind_word}", level_word, INSTRUCTIONS[language],
                           [_question(q, n) for n, q in enumerate(chosen, start=1)], marker=style["marker"], style=style))
    return out
