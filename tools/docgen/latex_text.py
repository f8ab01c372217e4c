"""LaTeX maths in corpus items (AMC, Gaokao) as readable Unicode text for typesetting.

The generator prints maths as text (Typst cannot read LaTeX without a package download);
the point is realistic *extracted* text: maths symbols (≤, π, √, ², ½) that ingestion must
keep through its Unicode normalisation (issue 11).
"""

from __future__ import annotations

import re

_SYMBOLS = {
    "cdot": "·", "times": "×", "div": "÷", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠",
    "pi": "π", "theta": "θ", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "lambda": "λ",
    "mu": "μ", "sigma": "σ", "omega": "ω", "phi": "φ", "infty": "∞", "pm": "±", "circ": "°", "angle": "∠",
    "triangle": "△", "dots": "…", "ldots": "…", "cdots": "⋯", "approx": "≈", "equiv": "≡", "in": "∈",
    "cup": "∪", "cap": "∩", "subset": "⊂", "sum": "∑", "int": "∫", "to": "→", "rightarrow": "→", "perp": "⊥",
    "parallel": "∥", "sqrt": "√", "%": "%", "$": "$", "{": "{", "}": "}", ",": " ", ";": " ", "!": "", "quad": " ",
    "qquad": " ", "left": "", "right": "", "displaystyle": "", "dfrac": "", "tfrac": "",
}
_SUPER = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_WRAP = re.compile(r"\\(?:text|textbf|mathrm|mathbf|boxed|textit|mbox|operatorname|overline|underline)\s*\{([^{}]*)\}")
_SUP = re.compile(r"\^\{([^{}]*)\}|\^(\w)")
_SUB = re.compile(r"_\{([^{}]*)\}|_(\w)")
_CMD = re.compile(r"\\([A-Za-z]+|[%${},;!])")


def latex_to_text(text: str) -> str:
    out = text.replace("$$", "$")
    for _ in range(3):  # nested \frac{\frac{..}{..}}{..}
        out = _FRAC.sub(lambda m: f"({m.group(1)})/({m.group(2)})", out)
        out = _SQRT.sub(lambda m: f"√({m.group(1)})", out)
        out = _WRAP.sub(lambda m: m.group(1), out)
    out = _SUP.sub(lambda m: _superscript(m.group(1) or m.group(2)), out)
    out = _SUB.sub(lambda m: (m.group(1) or m.group(2)), out)
    out = _CMD.sub(lambda m: _SYMBOLS.get(m.group(1), ""), out)
    out = out.replace("$", "").replace("{", "").replace("}", "").replace("~", " ")
    return " ".join(out.split())


def _superscript(text: str) -> str:
    if all(ch in "0123456789+-n" for ch in text):
        return text.translate(_SUPER)
    return f"^({text})"
