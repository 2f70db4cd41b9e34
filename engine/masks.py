"""Masks: which keys each query may read. A mask is a list of booleans, True where an
entry may be read; the causal mask lets the query at position i read only the keys
j <= i (attention.py hides what a mask hides: its weight is exactly 0)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from .linalg import as_mask, describe


def causal_mask(T_q: int, T_k: int | None = None) -> list[list[bool]]:
    """(T_q, T_k) mask where query i may read key j exactly when j <= i."""
    for name, n in (("T_q", T_q), ("T_k", T_k if T_k is not None else T_q)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {describe(n)}")
    T_k = T_q if T_k is None else T_k
    return [[j <= i for j in range(T_k)] for i in range(T_q)]  # (T_q, T_k)


def _mask_rows(mask: object) -> TypeGuard[Sequence[Any]]:
    """Whether ``mask`` is a matrix: non-empty, each row with a length (a list, a numpy array...)."""
    rows: Any = mask  # anything with a length, a Sequence or not (numpy's arrays are not)
    return hasattr(rows, "__len__") and len(rows) > 0 and all(hasattr(r, "__len__") for r in rows)


def visibility(T_q: int, T_k: int, causal: bool, mask: object) -> list[list[bool]]:
    """The (T_q, T_k) mask actually used: the explicit mask AND the causal mask.

    ``mask`` may be None, one row of T_k booleans used for every query (a key mask), or a
    (T_q, T_k) matrix of booleans.
    """
    if mask is None:
        visible = [[True] * T_k for _ in range(T_q)]
    elif _mask_rows(mask):
        if len(mask) != T_q:
            raise ValueError(f"mask has {len(mask)} rows but there are {T_q} queries")
        visible = [as_mask(f"mask[{i}]", row, T_k) for i, row in enumerate(mask)]
    else:
        row = as_mask("mask", mask, T_k)
        visible = [list(row) for _ in range(T_q)]
    if causal:
        visible = [[seen and j <= i for j, seen in enumerate(row)] for i, row in enumerate(visible)]
    for i, row in enumerate(visible):
        if not any(row):
            why = " (with the causal mask)" if causal else ""
            raise ValueError(f"mask hides every key from query {i}{why}; each row needs one True")
    return visible  # (T_q, T_k)
