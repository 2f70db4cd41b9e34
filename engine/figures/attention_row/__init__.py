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

from .model import AttentionRow

__all__ = ["AttentionRow"]
