"""Layout and wording variants, drawn per document from a seeded RNG (nothing is fixed per kind)."""

from __future__ import annotations

import random

MARKERS = {
    "en": ["{n}.", "Question {n}", "Q{n}.", "{n})", "{n}\t"],
    "zh": ["{n}．", "第{n}题", "{n}、"],
    "fr": ["Exercice {n}", "Question {n}", "{n}."],
    "de": ["Aufgabe {n}", "{n}."],
    "es": ["Ejercicio {n}", "Pregunta {n}", "{n}."],
}
ANSWER_MARKERS = {"en": ["Problem {n}", "Solution {n}", "{n}."], "zh": ["{n}．", "第{n}题"]}
INSTRUCTION_LABELS = {"en": ["INSTRUCTIONS", "Instructions", "Information for candidates"], "zh": ["注意事项：", "考生须知"],
                      "fr": ["Consignes"], "de": ["Hinweise"], "es": ["Instrucciones"]}
FOOTERS = ["Page {p}", "{p}", "– {p} –", "Page {p} of {total}"]
INSTRUCTIONS = {
    "en": ["Do not open this booklet until you are told to do so.",
           "Answer all questions. Write your answers in the spaces provided.",
           "Calculators are not permitted unless stated otherwise.",
           "The use of electronic devices is not allowed."],
    "zh": ["答卷前，考生务必将自己的姓名、准考证号填写在答题卡上。",
           "回答选择题时，选出每小题答案后，用铅笔把答题卡上对应题目的答案标号涂黑。",
           "考试结束后，将本试卷和答题卡一并交回。"],
    "fr": ["Lisez attentivement chaque énoncé.", "Toutes les réponses doivent être justifiées."],
    "de": ["Lesen Sie jede Aufgabe sorgfältig.", "Begründen Sie Ihre Antworten."],
    "es": ["Lea atentamente cada enunciado.", "Justifique todas sus respuestas."],
}


def pick_style(rng: random.Random, language: str, *, answers: bool = False) -> dict:
    markers = (ANSWER_MARKERS if answers else MARKERS).get(language) or MARKERS["en"]
    return {
        "marker": rng.choice(markers),
        "columns": rng.choice([1, 2, 2]),
        "font_size": rng.choice([9.5, 10, 10.5, 11]),
        "footer": ("第{p}页 共{total}页" if language == "zh" and rng.random() < 0.5 else rng.choice(FOOTERS)),
        "numbered_instructions": rng.random() < 0.6,
        "instructions_label": rng.choice(INSTRUCTION_LABELS.get(language, INSTRUCTION_LABELS["en"]))
        if rng.random() < 0.75 else None,
        "justify": rng.random() < 0.7,
        "bold_markers": rng.random() < 0.7,
        "options_inline": rng.random() < 0.3,
        "docx_auto_numbering": rng.random() < 0.3,
        "markdown_lists": rng.random() < 0.4,
    }
