"""The ``attention-row`` figure: one query row of scaled dot-product attention, drawn.

For the asking token's query q, the keys K and the values V (one row each per token)::

    s_j = q . k_j / sqrt(d)                    # scaled score, as the score row shows it
    a   = softmax(s / T)   (masked j: a_j = 0)   # weights: non-negative, sum to 1
    o   = sum_j a_j v_j                          # the asking token's new vector

This is one row of ``softmax(Q K^T / sqrt(d_k)) V`` from Vaswani et al. (2017),
"Attention Is All You Need", with a temperature T added (T = 1 is the paper's formula)
and the decoder's causal mask as a switch. Every number comes from the engine; the
package declares the figure (model.py), draws it (scene.py), runs its experiments
(experiments.py) and words it (words.py).
"""

from ..sentences import T_MAX, T_MIN
from .experiments import (
    EXPERIMENTS,
    FLAT_T,
    SHARP_T,
    STEP_BLEND,
    STEP_MASK,
    STEP_MATCH,
    STEP_SCALE,
    STEP_SOFTMAX,
    STEP_TEMPERATURE,
    share,
)
from .model import AttentionRow
from .scene import STEP
from .vectors import KEYS, QUERIES, TOKENS, VALUES, parse_pairs
from .words import mark_label

__all__ = [
    "EXPERIMENTS",
    "FLAT_T",
    "KEYS",
    "QUERIES",
    "SHARP_T",
    "STEP",
    "STEP_BLEND",
    "STEP_MASK",
    "STEP_MATCH",
    "STEP_SCALE",
    "STEP_SOFTMAX",
    "STEP_TEMPERATURE",
    "TOKENS",
    "T_MAX",
    "T_MIN",
    "VALUES",
    "AttentionRow",
    "mark_label",
    "parse_pairs",
    "share",
]
