"""The relaxation ladder's step labels, in one place.

``RelaxationStep`` (common.proto) names the steps ``RELAXATION_STEP_W0_EXACT`` ...; run
files, metrics labels and reports use the paper's short labels ``W0`` .. ``W3`` and the
long ``W0_EXACT`` form (what ``../shared/tools/curriculum_score.py`` reads: it keeps the
part before the first underscore).
"""

from __future__ import annotations

from chsr.v1 import common_pb2

_PREFIX = "RELAXATION_STEP_"
W0 = common_pb2.RELAXATION_STEP_W0_EXACT
W1 = common_pb2.RELAXATION_STEP_W1_DROP_TOPIC
W2 = common_pb2.RELAXATION_STEP_W2_DROP_LEVEL
W3 = common_pb2.RELAXATION_STEP_W3_UNFILTERED_LEXICAL
STEPS: tuple[int, ...] = (W0, W1, W2, W3)


def step_name(step: int) -> str:
    """``W1_DROP_TOPIC`` for W1; ``?`` for an unknown value."""
    for name, value in common_pb2.RelaxationStep.items():
        if value == step and name.startswith(_PREFIX):
            return name[len(_PREFIX):]
    return "?"


def step_label(step: int) -> str:
    """``W1`` for W1; ``W?`` for an unknown value."""
    name = step_name(step)
    return name.split("_", 1)[0] if name != "?" else "W?"
