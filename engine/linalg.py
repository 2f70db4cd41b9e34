"""Vectors and matrices as plain lists, and the checks that guard every engine entry.

A vector is a list (or tuple) of floats; a matrix is a list of rows of equal length,
``M[i][j]`` being row i, column j, so an (n, m) matrix has n rows of m entries:

    dot(a, b)        = sum_i a_i b_i
    matmul(A, B)_ij  = sum_l A_il B_lj      (n, m) @ (m, p) -> (n, p)
    transpose(A)_ij  = A_ji                 (n, m) -> (m, n)

Sums are taken with ``math.fsum``, which rounds the exact sum once. The result does not
depend on the order of the terms or on the Python version, so CPython at build time and
Pyodide in the browser compute the same bits.

The ``as_*`` helpers turn user input into clean lists of floats or raise ``ValueError``
naming the argument and the offending value or shapes, e.g.
``K has 3 columns but Q has 2; q and k must have the same length d_k``.
"""

from __future__ import annotations

import math
import operator
import sys
from collections.abc import Sequence
from typing import Any, SupportsFloat, SupportsInt, TypeGuard

Vector = Sequence[float]
Matrix = Sequence[Sequence[float]]

FLOAT_MAX = sys.float_info.max  # the largest finite float, about 1.8e308


# ---------------------------------------------------------------------------------------
# checks


def describe(value: object) -> str:
    """A short repr for error messages (a long list is cut)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _real(x: object) -> TypeGuard[SupportsFloat]:
    """Whether x is a real number other than a bool (an int, a float, a Fraction...).
    The ``numbers`` ABCs are asked only for other types: importing them costs the
    worker's start some 10 ms."""
    if type(x) in (int, float):
        return True
    import numbers  # noqa: PLC0415  (not at the worker's start)

    return not isinstance(x, bool) and isinstance(x, numbers.Real)


def is_integral(x: object) -> TypeGuard[SupportsInt]:
    """Whether x is an integer other than a bool (an int, a numpy integer...)."""
    if type(x) is int:
        return True
    import numbers  # noqa: PLC0415  (not at the worker's start)

    return not isinstance(x, bool) and isinstance(x, numbers.Integral)


def as_number(name: str, x: object) -> float:
    """x as a float; ValueError if it is not a finite real number (bools are refused)."""
    if not _real(x):
        raise ValueError(f"{name} must be a number, got {describe(x)}")
    value = float(x)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return value


def as_positive(name: str, x: object) -> float:
    """x as a finite float > 0, e.g. a temperature or a base."""
    if not _real(x) or not math.isfinite(float(x)):
        raise ValueError(f"{name} must be a finite number > 0, got {describe(x)}")
    value = float(x)
    if not value > 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def as_index(name: str, i: object, n: int) -> int:
    """i as an int with 0 <= i < n."""
    if not is_integral(i):
        raise ValueError(f"{name} must be an integer, got {describe(i)}")
    if not 0 <= int(i) < n:
        raise ValueError(f"{name} must be in 0..{n - 1}, got {int(i)}")
    return int(i)


def _is_sequence(x: object) -> TypeGuard[Sequence[Any]]:
    return hasattr(x, "__len__") and hasattr(x, "__getitem__") and not isinstance(x, (str, bytes))


def as_vector(name: str, v: object, length: int | None = None, *, of: str = "") -> list[float]:
    """v as a non-empty list of finite floats, optionally of a given length.

    ``of`` completes the length message: ``as_vector("q", q, 2, of="K has 2 columns")``.
    """
    if not _is_sequence(v):
        raise ValueError(f"{name} must be a list of numbers, got {describe(v)}")
    vector = list(v)
    if not vector:
        raise ValueError(f"{name} is empty: it needs at least one number")
    if not all(type(x) is float for x in vector):  # slow path: ints, numpy scalars, junk
        vector = [as_number(f"{name}[{i}]", x) for i, x in enumerate(vector)]
    if not all(map(math.isfinite, vector)):
        i = next(i for i, x in enumerate(vector) if not math.isfinite(x))
        raise ValueError(f"{name}[{i}] must be a finite number, got {vector[i]!r}")
    if length is not None and len(vector) != length:
        why = f" but {of}" if of else f", expected {length}"
        raise ValueError(f"{name} has {len(vector)} entries{why}")
    return vector


def as_matrix(
    name: str,
    M: object,
    *,
    rows: int | None = None,
    cols: int | None = None,
    rows_of: str = "",
    cols_of: str = "",
) -> list[list[float]]:
    """M as a non-empty rectangular list of rows of finite floats.

    ``rows``/``cols`` require a shape; ``rows_of``/``cols_of`` say why, for the message:
    ``as_matrix("K", K, cols=2, cols_of="Q has 2")`` -> ``K has 3 columns but Q has 2``.
    """
    if not _is_sequence(M):
        raise ValueError(f"{name} must be a matrix (a list of rows), got {describe(M)}")
    if len(M) == 0:
        raise ValueError(f"{name} is empty: it needs at least one row")
    for i, row in enumerate(M):
        if not _is_sequence(row):
            raise ValueError(f"{name} must be a matrix (a list of rows), but {name}[{i}] is {describe(row)}")
    width = len(M[0])
    for i, row in enumerate(M):
        if len(row) != width:
            raise ValueError(f"{name} is ragged: row 0 has {width} entries but row {i} has {len(row)}")
    matrix = [as_vector(f"{name}[{i}]", row) for i, row in enumerate(M)]  # (n, m)
    if rows is not None and len(matrix) != rows:
        why = f" but {rows_of}" if rows_of else f", expected {rows}"
        raise ValueError(f"{name} has {len(matrix)} rows{why}")
    if cols is not None and width != cols:
        why = f" but {cols_of}" if cols_of else f", expected {cols}"
        raise ValueError(f"{name} has {width} columns{why}")
    return matrix


def as_mask(name: str, mask: object, length: int) -> list[bool]:
    """mask as a list of ``length`` booleans (True where the entry may be read)."""
    if not _is_sequence(mask):
        raise ValueError(f"{name} must be a list of booleans, got {describe(mask)}")
    if len(mask) != length:
        raise ValueError(f"{name} has {len(mask)} entries, expected {length}")
    out = []
    for j, m in enumerate(mask):
        if isinstance(m, bool) or type(m).__name__ in ("bool", "bool_"):  # also numpy's bool
            out.append(bool(m))
        else:
            raise ValueError(f"{name}[{j}] must be True or False, got {describe(m)}")
    return out


def shape(M: Matrix) -> tuple[int, int]:
    """(rows, columns) of a rectangular matrix."""
    return (len(M), len(M[0]) if len(M) else 0)


# ---------------------------------------------------------------------------------------
# arithmetic


def dot(a: Vector, b: Vector) -> float:
    """a . b = sum_i a_i b_i, correctly rounded.

    A result beyond the float range saturates at +-FLOAT_MAX instead of becoming inf.
    """
    if len(a) != len(b):
        raise ValueError(f"dot needs vectors of one length, got {len(a)} and {len(b)}")
    try:
        total = math.fsum(map(operator.mul, a, b))
        if math.isfinite(total):
            return total
    except (OverflowError, ValueError):  # a product or a partial sum overflowed
        pass
    e_a, e_b = exponent(a), exponent(b)
    return ldexp_clamped(math.fsum(map(operator.mul, scale(a, -e_a), scale(b, -e_b))), e_a + e_b)


def transpose(A: Matrix) -> list[list[float]]:
    """A^T: (n, m) -> (m, n)."""
    return [list(column) for column in zip(*A, strict=True)]  # (m, n)


def matmul(A: Matrix, B: Matrix, *, names: tuple[str, str] = ("A", "B")) -> list[list[float]]:
    """A B for A of shape (n, m) and B of shape (m, p); ``names`` label the error."""
    a, b = names
    A = as_matrix(a, A)
    B = as_matrix(b, B, rows=len(A[0]), rows_of=f"{a} has {len(A[0])} columns")
    B_T = transpose(B)  # (p, m): the columns of B, so each entry is one dot product
    return [[dot(row, col) for col in B_T] for row in A]  # (n, p)


def fsum_saturating(terms) -> float:
    """sum of finite terms, correctly rounded, saturating at +-FLOAT_MAX instead of raising."""
    terms = list(terms)
    try:
        return clamp(math.fsum(terms))
    except OverflowError:  # the exact sum leaves the float range: sum 2**-e-th parts
        e = len(terms).bit_length()
        return ldexp_clamped(math.fsum(math.ldexp(x, -e) for x in terms), e)


def clamp(x: float) -> float:
    """x limited to the finite floats [-FLOAT_MAX, FLOAT_MAX] (an inf becomes the bound)."""
    return max(-FLOAT_MAX, min(FLOAT_MAX, x))


def ldexp_clamped(x: float, e: int) -> float:
    """x * 2**e, clamped to the finite floats instead of overflowing."""
    try:
        return clamp(math.ldexp(x, e))
    except OverflowError:
        return math.copysign(FLOAT_MAX, x)


def exponent(values: Vector) -> int:
    """The power of two e with max_i |values_i| < 2**e, the scale of a vector.

    Dividing by 2**e is exact, so ``scale(v, -exponent(v))`` has entries below 1 in size
    and products of such vectors cannot overflow.
    """
    return math.frexp(max(map(abs, values)))[1]


def scale(values: Vector, e: int) -> list[float]:
    """values * 2**e, exact unless it leaves the float range."""
    return [math.ldexp(x, e) for x in values]
