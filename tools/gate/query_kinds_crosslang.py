"""Cross-language cases: a French, German, Spanish or Chinese query about English material (issue 21, item 1).

The curriculum README's bilingual slice includes "French queries over English evidence": the student writes in
their own language about a topic the corpus holds only in English, often naming the subject and the grade.
Such a query's words do not occur in its targets, so lexical evidence (the probe, the on-topic check) finds
same-language material of other levels and subjects instead. The generator had no such case: its non-English
queries either target non-English items or put English item text inside non-English cue phrases.

A case here is built from one English item whose text contains one or two topic words of :data:`GLOSSARY`
(105 school-topic words in five languages, written for this kind from general knowledge, not from any case file):
the query is the words' translations in a template of the language, wrapped in the subject cue phrase of that
language and, sometimes, its grade and content-type cues. Gold scope: what the query states — the item's
subject always, its level and content type only when the query names them (a topic word alone does not fix
them). Labels, as for the other kinds, the item and its verbatim twins in the scope (2): the case measures
leakage and exact-scope success; its nDCG says little (a topical request has many answers, one is labelled).
Task type ``synthesis`` (a topical request, not one item).
"""

from __future__ import annotations

import random
import re

from tools.gate.corpus_items import CorpusIndex
from tools.gate.query_kinds import Case, cue_text, gold, make_case, relevant_for

LANGS = ("fr", "de", "es", "zh")
SOURCES = ("arc", "openstax_physics", "mmlu", "ccss", "amc")

#: English word pattern -> (fr, de, es, zh). Whole-word, case-insensitive matches in an item's text.
GLOSSARY: dict[str, tuple[str, str, str, str]] = {
    r"magnets?|magnetic": ("les aimants", "Magnete", "los imanes", "磁铁"),
    r"photosynthesis": ("la photosynthèse", "die Photosynthese", "la fotosíntesis", "光合作用"),
    r"ice": ("la glace", "das Eis", "el hielo", "冰"),
    r"melt(?:s|ing|ed)?": ("la fonte", "das Schmelzen", "derretirse", "融化"),
    r"evaporat(?:e|es|ion|ed)": ("l'évaporation", "die Verdunstung", "la evaporación", "蒸发"),
    r"condensation": ("la condensation", "die Kondensation", "la condensación", "凝结"),
    r"moon": ("la Lune", "der Mond", "la Luna", "月亮"),
    r"sun": ("le Soleil", "die Sonne", "el Sol", "太阳"),
    r"planets?": ("les planètes", "die Planeten", "los planetas", "行星"),
    r"stars?": ("les étoiles", "die Sterne", "las estrellas", "恒星"),
    r"orbits?": ("l'orbite", "die Umlaufbahn", "la órbita", "轨道"),
    r"gravity|gravitational": ("la gravité", "die Schwerkraft", "la gravedad", "重力"),
    r"friction": ("le frottement", "die Reibung", "la fricción", "摩擦力"),
    r"energy": ("l'énergie", "die Energie", "la energía", "能量"),
    r"electricity|electric|electrical": ("l'électricité", "der Strom", "la electricidad", "电"),
    r"circuits?": ("un circuit électrique", "der Stromkreis", "el circuito eléctrico", "电路"),
    r"sound": ("le son", "der Schall", "el sonido", "声音"),
    r"light": ("la lumière", "das Licht", "la luz", "光"),
    r"mirrors?": ("les miroirs", "der Spiegel", "los espejos", "镜子"),
    r"lens|lenses": ("les lentilles", "die Linse", "las lentes", "透镜"),
    r"heat": ("la chaleur", "die Wärme", "el calor", "热"),
    r"temperature": ("la température", "die Temperatur", "la temperatura", "温度"),
    r"rocks?": ("les roches", "die Gesteine", "las rocas", "岩石"),
    r"soil": ("le sol", "der Boden", "el suelo", "土壤"),
    r"erosion": ("l'érosion", "die Erosion", "la erosión", "侵蚀"),
    r"fossils?": ("les fossiles", "die Fossilien", "los fósiles", "化石"),
    r"volcano(?:es|s)?": ("les volcans", "die Vulkane", "los volcanes", "火山"),
    r"earthquakes?": ("les séismes", "die Erdbeben", "los terremotos", "地震"),
    r"weather": ("la météo", "das Wetter", "el tiempo atmosférico", "天气"),
    r"clouds?": ("les nuages", "die Wolken", "las nubes", "云"),
    r"rain": ("la pluie", "der Regen", "la lluvia", "雨"),
    r"roots?": ("les racines", "die Wurzeln", "las raíces", "根"),
    r"leaf|leaves": ("les feuilles", "die Blätter", "las hojas", "叶子"),
    r"seeds?": ("les graines", "die Samen", "las semillas", "种子"),
    r"flowers?": ("les fleurs", "die Blüten", "las flores", "花"),
    r"cells?": ("la cellule", "die Zelle", "la célula", "细胞"),
    r"genes?|genetic": ("les gènes", "die Gene", "los genes", "基因"),
    r"dna": ("l'ADN", "die DNA", "el ADN", "DNA"),
    r"inherit(?:ed|ance)|heredity": ("l'hérédité", "die Vererbung", "la herencia", "遗传"),
    r"ecosystems?": ("l'écosystème", "das Ökosystem", "el ecosistema", "生态系统"),
    r"food (?:chain|web)s?": ("la chaîne alimentaire", "die Nahrungskette", "la cadena alimentaria", "食物链"),
    r"predators?": ("les prédateurs", "die Raubtiere", "los depredadores", "捕食者"),
    r"habitats?": ("l'habitat", "der Lebensraum", "el hábitat", "栖息地"),
    r"bacteria": ("les bactéries", "die Bakterien", "las bacterias", "细菌"),
    r"digestion|digestive": ("la digestion", "die Verdauung", "la digestión", "消化"),
    r"blood": ("le sang", "das Blut", "la sangre", "血液"),
    r"heart": ("le cœur", "das Herz", "el corazón", "心脏"),
    r"lungs?": ("les poumons", "die Lunge", "los pulmones", "肺"),
    r"bones?": ("les os", "die Knochen", "los huesos", "骨骼"),
    r"muscles?": ("les muscles", "die Muskeln", "los músculos", "肌肉"),
    r"oxygen": ("l'oxygène", "der Sauerstoff", "el oxígeno", "氧气"),
    r"carbon dioxide": ("le dioxyde de carbone", "das Kohlendioxid", "el dióxido de carbono", "二氧化碳"),
    r"atoms?": ("les atomes", "die Atome", "los átomos", "原子"),
    r"molecules?": ("les molécules", "die Moleküle", "las moléculas", "分子"),
    r"electrons?": ("les électrons", "die Elektronen", "los electrones", "电子"),
    r"chemical reactions?": ("une réaction chimique", "eine chemische Reaktion", "una reacción química", "化学反应"),
    r"mixtures?": ("les mélanges", "das Gemisch", "las mezclas", "混合物"),
    r"acids?": ("les acides", "die Säuren", "los ácidos", "酸"),
    r"metals?": ("les métaux", "die Metalle", "los metales", "金属"),
    r"density": ("la masse volumique", "die Dichte", "la densidad", "密度"),
    r"speed": ("la vitesse", "die Geschwindigkeit", "la rapidez", "速度"),
    r"acceleration": ("l'accélération", "die Beschleunigung", "la aceleración", "加速度"),
    r"momentum": ("la quantité de mouvement", "der Impuls", "la cantidad de movimiento", "动量"),
    r"waves?": ("les ondes", "die Wellen", "las ondas", "波"),
    r"wavelength": ("la longueur d'onde", "die Wellenlänge", "la longitud de onda", "波长"),
    r"frequency": ("la fréquence", "die Frequenz", "la frecuencia", "频率"),
    r"pressure": ("la pression", "der Druck", "la presión", "压强"),
    r"voltage": ("la tension électrique", "die Spannung", "el voltaje", "电压"),
    r"resistance|resistor": ("la résistance", "der Widerstand", "la resistencia", "电阻"),
    r"radioactiv(?:e|ity)": ("la radioactivité", "die Radioaktivität", "la radiactividad", "放射性"),
    r"fractions?": ("les fractions", "die Brüche", "las fracciones", "分数"),
    r"decimals?": ("les nombres décimaux", "die Dezimalzahlen", "los decimales", "小数"),
    r"multiplication|multiply": ("la multiplication", "die Multiplikation", "la multiplicación", "乘法"),
    r"division|divide": ("la division", "die Division", "la división", "除法"),
    r"prime numbers?|primes?": ("les nombres premiers", "die Primzahlen", "los números primos", "质数"),
    r"probability": ("la probabilité", "die Wahrscheinlichkeit", "la probabilidad", "概率"),
    r"triangles?": ("les triangles", "das Dreieck", "los triángulos", "三角形"),
    r"circles?": ("le cercle", "der Kreis", "el círculo", "圆"),
    r"perimeter": ("le périmètre", "der Umfang", "el perímetro", "周长"),
    r"area": ("l'aire", "der Flächeninhalt", "el área", "面积"),
    r"volume": ("le volume", "das Volumen", "el volumen", "体积"),
    r"angles?": ("les angles", "die Winkel", "los ángulos", "角"),
    r"ratios?": ("les ratios", "die Verhältnisse", "las razones", "比"),
    r"percent(?:age)?s?": ("les pourcentages", "die Prozente", "los porcentajes", "百分比"),
    r"equations?": ("les équations", "die Gleichungen", "las ecuaciones", "方程"),
    r"polynomials?": ("les polynômes", "die Polynome", "los polinomios", "多项式"),
    r"slope": ("la pente", "die Steigung", "la pendiente", "斜率"),
    r"integers?": ("les entiers", "die ganzen Zahlen", "los enteros", "整数"),
    r"square roots?": ("la racine carrée", "die Quadratwurzel", "la raíz cuadrada", "平方根"),
    r"median": ("la médiane", "der Median", "la mediana", "中位数"),
    r"coordinates?": ("les coordonnées", "die Koordinaten", "las coordenadas", "坐标"),
    r"inflation": ("l'inflation", "die Inflation", "la inflación", "通货膨胀"),
    r"demand": ("la demande", "die Nachfrage", "la demanda", "需求"),
    r"supply": ("l'offre", "das Angebot", "la oferta", "供给"),
    r"unemployment": ("le chômage", "die Arbeitslosigkeit", "el desempleo", "失业"),
    r"taxe?s?|taxation": ("les impôts", "die Steuern", "los impuestos", "税"),
    r"money": ("la monnaie", "das Geld", "el dinero", "货币"),
    r"banks?": ("les banques", "die Banken", "los bancos", "银行"),
    r"war": ("la guerre", "der Krieg", "la guerra", "战争"),
    r"revolution": ("la révolution", "die Revolution", "la revolución", "革命"),
    r"constitution": ("la constitution", "die Verfassung", "la constitución", "宪法"),
    r"elections?": ("les élections", "die Wahlen", "las elecciones", "选举"),
    r"empire": ("l'empire", "das Reich", "el imperio", "帝国"),
    r"memory": ("la mémoire", "das Gedächtnis", "la memoria", "记忆"),
    r"algorithms?": ("les algorithmes", "die Algorithmen", "los algoritmos", "算法"),
}
_PATTERNS = {pattern: re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE) for pattern in GLOSSARY}

#: One or two translated topic words in a sentence of the language.
TEMPLATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "fr": (("{a}", "question sur {a}", "c'est quoi {a} ?", "exercice : {a}"),
           ("{a} et {b}", "{a} : {b}", "question sur {a} et {b}", "comment {a} agit sur {b} ?")),
    "de": (("{a}", "Frage: {a}", "was ist {a}?", "Aufgabe: {a}"),
           ("{a} und {b}", "{a}: {b}", "Frage: {a} und {b}", "wie hängen {a} und {b} zusammen?")),
    "es": (("{a}", "pregunta sobre {a}", "¿qué es {a}?", "ejercicio: {a}"),
           ("{a} y {b}", "{a}: {b}", "pregunta sobre {a} y {b}", "¿cómo afecta {a} a {b}?")),
    "zh": (("{a}", "关于{a}的题", "什么是{a}", "{a}的问题"),
           ("{a}和{b}", "{a}与{b}", "关于{a}和{b}的题", "{a}对{b}有什么影响")),
}


def topics(text: str) -> list[str]:
    """The glossary patterns that occur in ``text``, in glossary order."""
    return [pattern for pattern, rx in _PATTERNS.items() if rx.search(text)]


def cross_language(idx: CorpusIndex, rng: random.Random, kind: str) -> Case | None:
    item = idx.pick(rng, lambda i: i.lang == "en" and i.source in SOURCES and i.meta["subject"] != "english"
                    and bool(topics(i.stem)))
    if item is None:
        return None
    found = topics(item.stem)
    chosen = rng.sample(found, min(len(found), 2 if rng.random() < 0.6 else 1))
    lang = rng.choice(LANGS)
    column = LANGS.index(lang)
    words = [GLOSSARY[pattern][column] for pattern in chosen]
    template = rng.choice(TEMPLATES[lang][len(words) - 1])
    text = template.format(a=words[0], b=words[-1])
    m = item.meta
    stated_level = rng.random() < 0.6
    stated_content = rng.random() < 0.5
    query = cue_text(lang, text, rng, subject=m["subject"], level=m["level"] if stated_level else None,
                     content=m["content_type"] if stated_content else None)
    scope = gold(item, level=stated_level, content_type="item" if stated_content else None)
    return make_case(kind, query, scope, relevant_for(idx, [item.id], scope), slice_="bilingual", task="synthesis",
                     items=[item.id], notes=f"{lang} query over English material: {', '.join(chosen)}")
