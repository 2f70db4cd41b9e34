"""Scaled dot-product attention (Vaswani et al. 2017, "Attention Is All You Need").

For queries q_i, keys k_j and values v_j (the rows of Q, K and V):

    s_ij = q_i . k_j / sqrt(d_k)                          scaled scores
    a_ij = exp(s_ij / T) / sum_l exp(s_il / T)            softmax with temperature T
    o_i  = sum_j a_ij v_j                                 outputs, O = A V
    H_i  = -sum_j a_ij ln a_ij                            entropy of row i, in nats

A mask is a list of booleans, True where an entry may be read. A hidden entry counts as
a score of -inf: its weight is exactly 0 and it is left out of every sum. The causal
mask lets the query at position i read only the keys j <= i.

Numerical care, so that no finite input gives NaN or infinity:

- The softmax uses exp((s_j - s_max) / T), with s_max the largest visible score. The
  largest term is exp(0) = 1, so nothing overflows and the sum is at least 1.
- Sums are ``math.fsum`` (exact, then rounded once): CPython and Pyodide agree bit for bit.
- When a dot product would overflow (entries near 1e300), q and K are first divided by
  powers of two, which is exact, and the row of scores is carried as m_j * 2**E. The
  weights are still exact; the scores reported saturate at +-1.8e308.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from .linalg import (
    Matrix,
    Vector,
    as_index,
    as_mask,
    as_matrix,
    as_positive,
    as_vector,
    clamp,
    describe,
    exponent,
    fsum_saturating,
    ldexp_clamped,
    scale,
    transpose,
)
from .masks import causal_mask, visibility
from .projections import projections

# ---------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class TraceStep:
    """The arithmetic of one key j in one query row, in the order it happens."""

    j: int  # key position
    dot: float  # q . k_j
    scaled: float  # s_j = q . k_j / sqrt(d_k), the score
    tempered: float  # s_j / T
    masked: bool  # True where the mask hides key j (then exp and weight are exactly 0)
    exp: float  # exp(s_j / T - max over visible l of s_l / T)
    weight: float  # a_j = exp / (sum of the exp terms)
    weighted_value: list[float]  # (d_v,) a_j v_j, one term of the output


@dataclass(frozen=True)
class RowTrace:
    """The steps of "Show the arithmetic" for one query row: one step a key, then the sums.

    Iterating over a trace (or indexing it) gives its steps.
    """

    steps: list[TraceStep]  # (T_k,) one step per key
    d_k: int  # length of q and of each key
    sqrt_d_k: float  # the scale sqrt(d_k)
    temperature: float  # T
    max_tempered: float  # max over visible j of s_j / T, subtracted before exp
    exp_sum: float  # sum_j exp_j, the softmax denominator
    output: list[float]  # (d_v,) o = sum_j a_j v_j, the sum of the weighted values

    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, j: int) -> TraceStep:
        return self.steps[j]


@dataclass(frozen=True)
class AttentionRow:
    """Attention for one query q over all keys."""

    scores: list[float]  # (T_k,) s_j = q . k_j / sqrt(d_k), before the temperature
    weights: list[float]  # (T_k,) a_j, softmax of s / T over the visible keys
    output: list[float]  # (d_v,) o = sum_j a_j v_j
    entropy: float  # H = -sum_j a_j ln a_j, in nats
    mask: list[bool]  # (T_k,) True where the query may read key j
    index: int | None  # the query's position, if it was given
    trace: RowTrace = field(repr=False)  # every intermediate number, key by key


@dataclass(frozen=True)
class Attention:
    """Attention for every query: the rows of the score and weight matrices.

    ``result.row(i)`` gives query i's row again, with its trace.
    """

    scores: list[list[float]]  # (T_q, T_k) s_ij = q_i . k_j / sqrt(d_k)
    weights: list[list[float]]  # (T_q, T_k) a_ij, each row sums to 1
    outputs: list[list[float]]  # (T_q, d_v) o_i = sum_j a_ij v_j
    entropy: list[float]  # (T_q,) H_i in nats
    mask: list[list[bool]]  # (T_q, T_k) True where query i may read key j
    temperature: float  # T
    Q: list[list[float]] = field(repr=False)  # (T_q, d_k) the queries, as floats
    K: list[list[float]] = field(repr=False)  # (T_k, d_k) the keys
    V: list[list[float]] = field(repr=False)  # (T_k, d_v) the values

    def row(self, i: int) -> AttentionRow:
        """Query i's row with its step-by-step trace (equal to the row computed here)."""
        i = as_index("i", i, len(self.Q))
        return _row(self.Q[i], self.K, self.V, self.temperature, self.mask[i], index=i)


# ---------------------------------------------------------------------------------------
# the pieces


def _dot_row(q: list[float], K: list[list[float]]) -> tuple[list[float], int]:
    """(dots, E) with q . k_j = dots_j * 2**E for every key j.

    Usually E = 0. If a dot product overflows, q and K are divided by powers of two
    first (exact), so that every dots_j is finite and E carries the scale.
    """
    try:
        dots = [math.fsum(map(operator.mul, q, k)) for k in K]  # (T_k,)
        if all(map(math.isfinite, dots)):
            return dots, 0
    except (OverflowError, ValueError):  # a product or a partial sum overflowed
        pass
    e_q = exponent(q)
    e_K = max(exponent(k) for k in K)
    q_hat = scale(q, -e_q)  # entries below 1 in size
    dots = [math.fsum(map(operator.mul, q_hat, scale(k, -e_K))) for k in K]  # (T_k,)
    return dots, e_q + e_K


def _unscale(x: float, E: int) -> float:
    """x * 2**E, saturating at +-FLOAT_MAX: the true value of a scaled number."""
    return clamp(x) if E == 0 else ldexp_clamped(x, E)


def _exp_terms(scores: list[float], E: int, temperature: float, visible: list[bool]) -> list[float]:
    """exp((s_j - s_max) / T) for the visible j and 0.0 for the hidden, s_j = scores_j * 2**E."""
    s_max = max(compress(scores, visible))
    if E == 0:
        # (s_j - s_max) / T <= 0, so exp is in [0, 1]; an overflow to -inf gives exp = 0.
        return [math.exp((s - s_max) / temperature) if seen else 0.0 for s, seen in zip(scores, visible, strict=True)]
    return [
        math.exp(ldexp_clamped((s - s_max) / temperature, E)) if seen else 0.0
        for s, seen in zip(scores, visible, strict=True)
    ]


def _weighted_sum(a: list[float], column: list[float]) -> float:
    """sum_j a_j v_j for one coordinate of the values (a convex combination)."""
    try:
        return math.fsum(map(operator.mul, a, column))  # raises rather than return inf
    except OverflowError:  # values within a hair of FLOAT_MAX
        return fsum_saturating(map(operator.mul, a, column))


def entropy(weights: Vector) -> float:
    """H = -sum_j a_j ln a_j in nats (0 ln 0 = 0): 0 for one-hot, ln n for n equal weights."""
    return 0.0 - math.fsum(a * math.log(a) for a in weights if a > 0.0)


def _check_temperature(temperature: object) -> float:
    return as_positive("temperature", temperature)


def _check_flag(name: str, flag: object) -> bool:
    if flag is not True and flag is not False:
        raise ValueError(f"{name} must be True or False, got {describe(flag)}")
    return flag


# ---------------------------------------------------------------------------------------
# public functions


def softmax(scores: Vector, temperature: float = 1.0, mask: Sequence[bool] | None = None) -> list[float]:
    """a_j = exp(s_j / T) / sum_l exp(s_l / T) over the visible l; a_j = 0.0 where hidden.

    >>> softmax([0.0, 0.0, 0.0, 0.0])
    [0.25, 0.25, 0.25, 0.25]
    """
    scores = as_vector("scores", scores)
    temperature = _check_temperature(temperature)
    visible = [True] * len(scores) if mask is None else as_mask("mask", mask, len(scores))
    if not any(visible):
        raise ValueError(f"mask hides every entry of scores: {describe(mask)}; at least one must be True")
    exps = _exp_terms(scores, 0, temperature, visible)
    total = math.fsum(exps)
    return [e / total for e in exps]


def scaled_scores(Q: Matrix, K: Matrix) -> list[list[float]]:
    """S = Q K^T / sqrt(d_k), shape (T_q, T_k); saturates at +-FLOAT_MAX."""
    Q = as_matrix("Q", Q)
    d_k = len(Q[0])
    K = as_matrix("K", K, cols=d_k, cols_of=f"Q has {d_k}; queries and keys must have the same length d_k")
    sqrt_d_k = math.sqrt(d_k)
    S = []  # (T_q, T_k)
    for q in Q:
        dots, E = _dot_row(q, K)
        S.append([_unscale(d / sqrt_d_k, E) for d in dots])
    return S


def _row(
    q: list[float],
    K: list[list[float]],
    V: list[list[float]],
    temperature: float,
    visible: list[bool],
    index: int | None = None,
) -> AttentionRow:
    """One row with its trace, from inputs already checked."""
    d_k = len(q)
    sqrt_d_k = math.sqrt(d_k)
    dots, E = _dot_row(q, K)  # (T_k,) scaled by 2**-E
    scores = [d / sqrt_d_k for d in dots]  # (T_k,) scaled by 2**-E
    exps = _exp_terms(scores, E, temperature, visible)  # (T_k,)
    exp_sum = math.fsum(exps)
    weights = [e / exp_sum for e in exps]  # (T_k,)
    output = [_weighted_sum(weights, column) for column in transpose(V)]  # (d_v,)
    steps = [
        TraceStep(
            j=j,
            dot=_unscale(dots[j], E),
            scaled=_unscale(scores[j], E),
            tempered=_unscale(scores[j] / temperature, E),
            masked=not visible[j],
            exp=exps[j],
            weight=weights[j],
            weighted_value=[weights[j] * v for v in V[j]],
        )
        for j in range(len(K))
    ]
    s_max = max(compress(scores, visible))
    trace = RowTrace(
        steps=steps,
        d_k=d_k,
        sqrt_d_k=sqrt_d_k,
        temperature=temperature,
        max_tempered=_unscale(s_max / temperature, E),
        exp_sum=exp_sum,
        output=output,
    )
    return AttentionRow(
        scores=[_unscale(s, E) for s in scores],
        weights=weights,
        output=output,
        entropy=entropy(weights),
        mask=list(visible),
        index=index,
        trace=trace,
    )


def attention_row(
    q: Vector,
    K: Matrix,
    V: Matrix,
    *,
    index: int | None = None,
    temperature: float = 1.0,
    causal: bool = False,
    mask: Sequence[bool] | None = None,
) -> AttentionRow:
    """softmax(q K^T / sqrt(d_k) / T) V for one query, with a trace of every step.

    ``index`` is the query's position; the causal mask needs it (keys j <= index are read).
    ``mask`` is a list of T_k booleans, True where a key may be read.
    """
    q = as_vector("q", q)
    d_k = len(q)
    K = as_matrix("K", K, cols=d_k, cols_of=f"q has {d_k} entries; q and every key must have the same length d_k")
    V = as_matrix("V", V, rows=len(K), rows_of=f"K has {len(K)}; every key needs one value")
    temperature = _check_temperature(temperature)
    causal = _check_flag("causal", causal)
    if index is not None:
        index = as_index("index", index, len(K))
    elif causal:
        raise ValueError(f"causal=True needs index, the query's position in 0..{len(K) - 1}, got None")
    visible = [True] * len(K) if mask is None else as_mask("mask", mask, len(K))
    if causal and index is not None:  # (causal=True without an index was refused above)
        visible = [seen and j <= index for j, seen in enumerate(visible)]
    if not any(visible):
        why = f" (with the causal mask at index {index})" if causal else ""
        raise ValueError(f"mask hides every key{why}: {describe(mask)}; at least one must be True")
    return _row(q, K, V, temperature, visible, index=index)


def attention(
    Q: Matrix,
    K: Matrix,
    V: Matrix,
    *,
    temperature: float = 1.0,
    causal: bool = False,
    mask: object = None,
) -> Attention:
    """A = softmax(Q K^T / sqrt(d_k) / T) row by row, O = A V.

    ``mask`` is None, a list of T_k booleans applied to every query, or a (T_q, T_k)
    matrix of booleans; ``causal=True`` also hides the keys j > i from query i.
    """
    Q = as_matrix("Q", Q)
    d_k = len(Q[0])
    K = as_matrix("K", K, cols=d_k, cols_of=f"Q has {d_k}; queries and keys must have the same length d_k")
    V = as_matrix("V", V, rows=len(K), rows_of=f"K has {len(K)}; every key needs one value")
    temperature = _check_temperature(temperature)
    causal = _check_flag("causal", causal)
    visible = visibility(len(Q), len(K), causal, mask)  # (T_q, T_k)

    sqrt_d_k = math.sqrt(d_k)
    V_T = transpose(V)  # (d_v, T_k): one column of values per output coordinate
    scores, weights, outputs, entropies = [], [], [], []
    for q, seen in zip(Q, visible, strict=True):
        dots, E = _dot_row(q, K)  # (T_k,) scaled by 2**-E
        s = [d / sqrt_d_k for d in dots]  # (T_k,) scaled by 2**-E
        exps = _exp_terms(s, E, temperature, seen)  # (T_k,)
        exp_sum = math.fsum(exps)
        a = [e / exp_sum for e in exps]  # (T_k,)
        scores.append(s if E == 0 else [_unscale(x, E) for x in s])
        weights.append(a)
        outputs.append([_weighted_sum(a, column) for column in V_T])  # (d_v,)
        entropies.append(entropy(a))
    return Attention(
        scores=scores,  # (T_q, T_k)
        weights=weights,  # (T_q, T_k)
        outputs=outputs,  # (T_q, d_v)
        entropy=entropies,  # (T_q,)
        mask=visible,
        temperature=temperature,
        Q=Q,
        K=K,
        V=V,
    )


def self_attention(X: Matrix, W_Q: Matrix, W_K: Matrix, W_V: Matrix, **options: Any) -> Attention:
    """attention(X W_Q, X W_K, X W_V, **options): every token attends over the same sequence.

    The options are attention's, with its defaults: ``temperature``, ``causal`` and ``mask``.
    """
    return attention(*projections(X, W_Q, W_K, W_V), **options)


__all__ = [
    "Attention",
    "AttentionRow",
    "RowTrace",
    "TraceStep",
    "attention",
    "attention_row",
    "causal_mask",
    "entropy",
    "projections",
    "scaled_scores",
    "self_attention",
    "softmax",
]
