"""engine.linalg: arithmetic against numpy, exact sums, saturation, and the input checks."""
from __future__ import annotations

import math
import random
import sys

import numpy as np
import pytest

from explorables.engine.linalg import (
    as_index,
    as_mask,
    as_matrix,
    as_number,
    as_positive,
    as_vector,
    clamp,
    dot,
    fsum_saturating,
    ldexp_clamped,
    matmul,
    shape,
    transpose,
)

import engine_reference as ref

FLOAT_MAX = sys.float_info.max


@pytest.mark.parametrize("seed", range(40))
def test_dot_matmul_transpose_match_numpy(seed):
    rng = random.Random(seed)
    n, m, p = rng.randint(1, 7), rng.randint(1, 7), rng.randint(1, 7)
    A = [[rng.uniform(-5, 5) for _ in range(m)] for _ in range(n)]
    B = [[rng.uniform(-5, 5) for _ in range(p)] for _ in range(m)]
    ref.close(matmul(A, B), np.asarray(A) @ np.asarray(B))
    assert transpose(A) == np.asarray(A).T.tolist()
    assert shape(A) == (n, m)
    ref.close(dot(A[0], B[0][:1] * m), np.dot(A[0], B[0][:1] * m))


def test_dot_is_correctly_rounded_whatever_the_order():
    a = [1e16, 1.0, -1e16, 1.0]
    assert dot(a, [1.0] * 4) == 2.0  # a plain left-to-right sum gives 1.0 or 0.0
    assert dot(a[::-1], [1.0] * 4) == 2.0


def test_dot_saturates_instead_of_overflowing():
    assert dot([1e300, 1e300], [1e300, 1e300]) == FLOAT_MAX
    assert dot([1e300, -1e300], [1e300, 1e300]) == 0.0  # inf - inf would be nan
    assert dot([1e300], [-1e300]) == -FLOAT_MAX
    assert matmul([[1e300]], [[1e300]]) == [[FLOAT_MAX]]


def test_saturating_helpers():
    assert clamp(math.inf) == FLOAT_MAX and clamp(-math.inf) == -FLOAT_MAX and clamp(1.5) == 1.5
    assert ldexp_clamped(1.0, 5000) == FLOAT_MAX and ldexp_clamped(-3.0, 5000) == -FLOAT_MAX
    assert ldexp_clamped(3.0, 2) == 12.0
    assert fsum_saturating([FLOAT_MAX, FLOAT_MAX, -FLOAT_MAX]) == FLOAT_MAX
    assert fsum_saturating([FLOAT_MAX] * 5) == FLOAT_MAX
    assert fsum_saturating([0.1] * 10) == 1.0


def test_checks_convert_to_floats():
    assert as_vector("v", (1, 2.5, np.float64(3), np.int64(4))) == [1.0, 2.5, 3.0, 4.0]
    assert as_matrix("M", np.array([[1, 2], [3, 4]])) == [[1.0, 2.0], [3.0, 4.0]]
    assert as_mask("mask", [True, np.bool_(False)], 2) == [True, False]
    assert as_number("x", 3) == 3.0 and as_positive("T", 0.5) == 0.5 and as_index("i", 2, 3) == 2


BAD = [
    (lambda: as_number("x", None), "x must be a number, got None"),
    (lambda: as_number("x", False), "x must be a number, got False"),
    (lambda: as_number("x", float("nan")), "x must be a finite number, got nan"),
    (lambda: as_positive("base", -2), "base must be a finite number > 0, got -2.0"),
    (lambda: as_vector("v", [1.0, 2.0], 3), "v has 2 entries, expected 3"),
    (lambda: as_vector("q", [1.0, 2.0], 3, of="K has 3 columns"), "q has 2 entries but K has 3 columns"),
    (lambda: as_vector("v", [1.0, [2.0]]), "v[1] must be a number, got [2.0]"),
    (lambda: as_matrix("M", [[1.0], [2.0]], rows=3), "M has 2 rows, expected 3"),
    (lambda: as_matrix("M", [[1.0], [2.0]], cols=3), "M has 1 columns, expected 3"),
    (lambda: as_matrix("M", [[1.0, 2.0], [3.0], [4.0, 5.0]]), "M is ragged: row 0 has 2 entries but row 1 has 1"),
    (lambda: as_matrix("M", None), "M must be a matrix (a list of rows), got None"),
    (lambda: as_matrix("M", [[1.0], "ab"]), "M must be a matrix (a list of rows), but M[1] is 'ab'"),
    (lambda: as_matrix("M", [[1.0], [float("inf")]]), "M[1][0] must be a finite number, got inf"),
    (lambda: as_mask("mask", [True, None], 2), "mask[1] must be True or False, got None"),
    (lambda: as_mask("mask", True, 2), "mask must be a list of booleans, got True"),
    (lambda: as_index("i", -1, 3), "i must be in 0..2, got -1"),
    (lambda: as_index("i", True, 3), "i must be an integer, got True"),
    (lambda: dot([1.0], [1.0, 2.0]), "dot needs vectors of one length, got 1 and 2"),
    (lambda: matmul([[1.0, 2.0]], [[1.0]]), "B has 1 rows but A has 2 columns"),
    (lambda: matmul([[1.0, 2.0]], [[1.0]], names=("X", "W_Q")), "W_Q has 1 rows but X has 2 columns"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:50] for _, m in BAD])
def test_bad_input_raises_value_error_with_the_value(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_long_values_are_cut_in_messages():
    with pytest.raises(ValueError) as info:
        as_number("x", "a" * 500)
    assert len(str(info.value)) < 100 and str(info.value).endswith("...")
