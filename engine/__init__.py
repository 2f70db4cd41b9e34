"""The attention engine: exact, readable, standard-library-only maths for the lessons.

Runs unchanged in CPython 3.11+ and in Pyodide. Vectors and matrices are lists (or
tuples) of floats; a mask is a list of booleans, True where an entry may be read.

    >>> import engine
    >>> r = engine.attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> [round(a, 3) for a in r.weights[0]]
    [0.67, 0.33]

Modules, one concept each: ``linalg`` (lists as vectors and matrices, input checks),
``attention`` (softmax, scores, attention), ``masks`` (which keys a query reads),
``projections`` (queries, keys and values from tokens), ``positional`` (position codes),
``heads`` (multi-head attention), ``geometry`` (hull and projections). The figure models
live in the ``engine.figures`` subpackage, imported on its own.
"""

from __future__ import annotations

from . import ahead  # noqa: F401  (first: in Pyodide, the dataclasses below come compiled ahead)
from .attention import (
    Attention,
    AttentionRow,
    RowTrace,
    TraceStep,
    attention,
    attention_row,
    causal_mask,
    entropy,
    projections,
    scaled_scores,
    self_attention,
    softmax,
)
from .geometry import convex_hull, point_in_hull, scalar_projection, unit, vector_projection
from .heads import MultiHead, multi_head, split_blocks, sum_of_blocks
from .linalg import dot, matmul, transpose
from .positional import (
    OMEGA,
    embed_with_position,
    frequencies,
    pe_similarity,
    pe_similarity_terms,
    position_code,
    sinusoidal,
)

__all__ = [  # noqa: RUF022  (in sorted() order, as tests/test_engine_api.py checks)
    "Attention",
    "AttentionRow",
    "MultiHead",
    "OMEGA",
    "RowTrace",
    "TraceStep",
    "attention",
    "attention_row",
    "causal_mask",
    "convex_hull",
    "dot",
    "embed_with_position",
    "entropy",
    "frequencies",
    "matmul",
    "multi_head",
    "pe_similarity",
    "pe_similarity_terms",
    "point_in_hull",
    "position_code",
    "projections",
    "scalar_projection",
    "scaled_scores",
    "self_attention",
    "sinusoidal",
    "softmax",
    "split_blocks",
    "sum_of_blocks",
    "transpose",
    "unit",
    "vector_projection",
]
