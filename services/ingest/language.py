"""Document language detection with py3langid (offline, BSD-3-Clause, ~4 MB model in the wheel).

Why py3langid: it ships its model inside the package (no download at run time, unlike
fastText-based detectors that fetch ``lid.176.bin``), is deterministic (langdetect is
random unless seeded), covers 97 languages including all of the corpus's (en, fr, de, es,
zh), and classifies a page of text in well under a millisecond
(docs/decisions/ingest-parsers.md). Maths, digits and option letters are stripped first:
they carry no language and skew short texts.
"""

from __future__ import annotations

import re
from functools import lru_cache

SAMPLE_CHARS = 4000
MIN_LETTERS = 20
MIN_CONFIDENCE = 0.6
_NOISE = re.compile(r"\$[^$]*\$|\\[a-zA-Z]+|[0-9]+|\([A-E]\)|[_^{}=+*/<>|\\]")


@lru_cache(maxsize=1)
def _identifier():  # type: ignore[no-untyped-def]
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect_language(text: str) -> tuple[str, float] | None:
    """(ISO 639-1 code, probability), or ``None`` when the text is too short or the model unsure."""
    sample = _NOISE.sub(" ", text[:SAMPLE_CHARS])
    if sum(ch.isalpha() for ch in sample) < MIN_LETTERS:
        return None
    code, prob = _identifier().classify(sample)
    if prob < MIN_CONFIDENCE:
        return None
    return str(code), float(prob)
