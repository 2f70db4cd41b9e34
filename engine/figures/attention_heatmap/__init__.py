"""The ``attention-heatmap`` figure: the whole T x T table of attention, cell by cell.

For queries q_i, keys k_j and values v_j (the rows of Q, K and V), Vaswani et al. (2017),
"Attention Is All You Need"::

    s_ij = q_i . k_j / sqrt(d_k)                 # scaled scores: the table before softmax
    a_ij = softmax_j(s_ij)   (masked: s = -inf)  # weights: each row sums to 1
    o_i  = sum_j a_ij v_j                        # outputs: weighted averages of the values
    H_i  = -sum_j a_ij ln a_ij  <=  ln m_i       # row entropy; m_i keys visible in row i

The table has n^2 cells for n tokens. Two masks hide keys before the softmax: the causal
mask (query i reads only the keys j <= i) and a padding mask: p [PAD] tokens appended to
the sentence (zero vectors, filler that makes it as long as a longer sentence in its
batch) whose keys no query may read; their own rows are computed but muted, as a model
throws those outputs away. The view "unscaled" shows the weights the table would have
without the division by sqrt(d_k). Every number comes from ``engine.attention``.

Modules: ``presets`` (the tokens and vectors), ``table`` (the maths, from the engine),
``model`` (parameters, options, values, events), ``scene`` (the panels), ``experiments``
("Try this"), ``words`` (the wording). Imported here: what the lessons' tests read.
"""

from .experiments import EXPERIMENTS  # noqa: F401
from .model import AttentionHeatmap  # noqa: F401
from .presets import KINDS, OMEGA, built_in  # noqa: F401
from .table import FLAT, PAD_MAX, PEAKED, kind_of_row, result  # noqa: F401
