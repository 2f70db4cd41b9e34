"""engine.positional: sinusoidal codes against numpy, known similarities, the 2-D code."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from explorables.engine import embed_with_position, frequencies, pe_similarity, position_code, sinusoidal
from explorables.engine.positional import pe_similarity_terms

import engine_reference as ref


@pytest.mark.parametrize("seed", range(40))
def test_sinusoidal_matches_numpy(seed):
    rng = random.Random(seed)
    D = 2 * rng.randint(1, 64)
    base = rng.choice([10000.0, 100.0, 10.0, 1.0, rng.uniform(1.0, 1e5)])
    t = rng.choice([0, 1, 7, rng.uniform(-50, 50), rng.randint(0, 2000)])
    ref.close(sinusoidal(t, D, base), ref.sinusoidal(t, D, base))


@pytest.mark.parametrize("seed", range(40))
def test_similarity_is_the_normalised_dot_product(seed):
    rng = random.Random(100 + seed)
    D = 2 * rng.randint(1, 64)
    base = rng.choice([10000.0, 100.0, rng.uniform(1.0, 1e5)])
    t, k = rng.uniform(0, 100), rng.uniform(-100, 100)
    expected = ref.sinusoidal(t, D, base) @ ref.sinusoidal(t + k, D, base) / (D / 2)
    assert pe_similarity(k, D, base) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_similarity_terms_are_each_clock_s_share_of_the_dot_product(seed):
    rng = random.Random(200 + seed)
    D = 2 * rng.randint(1, 64)
    base = rng.choice([10000.0, 100.0, rng.uniform(1.0, 1e5)])
    t, k = rng.uniform(0, 100), rng.uniform(-100, 100)
    a, b = ref.sinusoidal(t, D, base), ref.sinusoidal(t + k, D, base)
    per_clock = a[0::2] * b[0::2] + a[1::2] * b[1::2]  # (D/2,): sin sin + cos cos of each pair
    ref.close(pe_similarity_terms(k, D, base), per_clock, tol=1e-12)


def test_similarity_is_the_mean_of_its_terms_exactly():
    for k, D, base in [(8, 32, 10000.0), (8, 32, 100.0), (0, 4, 10.0), (3.5, 64, 2.0), (-7, 16, 1e5)]:
        terms = pe_similarity_terms(k, D, base)
        assert len(terms) == D // 2
        assert pe_similarity(k, D, base) == math.fsum(terms) / (D // 2)


def test_similarity_terms_by_hand():
    assert pe_similarity_terms(0, 8) == [1.0, 1.0, 1.0, 1.0]  # no offset: every clock agrees
    assert pe_similarity_terms(2, 4, 100.0) == [math.cos(2.0), math.cos(0.2)]  # theta = 1, 0.1
    assert pe_similarity_terms(math.pi, 2) == pytest.approx([-1.0], abs=1e-15)  # half a turn


def test_known_similarities_from_the_lessons():
    assert round(pe_similarity(8, 32), 3) == 0.658
    assert round(pe_similarity(8, 32, base=100), 3) == 0.401
    assert pe_similarity(8, 32) == pytest.approx(0.6576288585138028, abs=1e-15)
    assert pe_similarity(8, 32, 100.0) == pytest.approx(0.4013262719561504, abs=1e-15)


def test_by_hand():
    assert sinusoidal(0, 4) == [0.0, 1.0, 0.0, 1.0]  # every clock starts at angle 0
    assert frequencies(4, 100.0) == [1.0, 0.1]  # 100^0, 100^(-2/4)
    assert sinusoidal(math.pi / 2, 2) == pytest.approx([1.0, 0.0], abs=1e-15)
    assert pe_similarity(0, 64) == 1.0
    assert pe_similarity(math.pi, 2) == pytest.approx(-1.0, abs=1e-15)  # one clock, half a turn
    assert frequencies(2, 7.0) == [1.0]


def test_two_d_position_code():
    assert position_code(0) == [0.0, 1.0]
    assert position_code(2) == pytest.approx([math.sin(1.2), math.cos(1.2)], abs=1e-15)
    X = embed_with_position([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]], s=0.5)
    p = np.array([[np.sin(0.6 * t), np.cos(0.6 * t)] for t in range(3)])  # (T, 2)
    ref.close(X, np.array([[1, 2], [1, 2], [0, 0]]) + 0.5 * p, tol=1e-15)
    # with s = 0 equal tokens stay equal; with s != 0 their positions tell them apart
    same = embed_with_position([[1.0, 2.0], [1.0, 2.0]], s=0.0)
    assert same[0] == same[1] == [1.0, 2.0]
    apart = embed_with_position([[1.0, 2.0], [1.0, 2.0]], s=1.0)
    assert apart[0] != apart[1]


def test_extreme_positions_stay_finite():
    for t in (1e300, -1e300, 1.7e308):
        assert all(math.isfinite(x) for x in sinusoidal(t, 16))
        assert math.isfinite(pe_similarity(t, 16)) and -1.0 <= pe_similarity(t, 16) <= 1.0
        assert all(math.isfinite(x) for x in position_code(t, omega=1e300))
    X = embed_with_position([[1.7e308, -1.7e308]], s=1e308)
    assert all(math.isfinite(x) for x in X[0])


BAD = [
    (lambda: sinusoidal(1, 3), "dim must be an even integer >= 2, got 3"),
    (lambda: sinusoidal(1, 0), "dim must be an even integer >= 2, got 0"),
    (lambda: sinusoidal(1, 4.0), "dim must be an even integer >= 2, got 4.0"),
    (lambda: sinusoidal(1, True), "dim must be an even integer >= 2, got True"),
    (lambda: sinusoidal(float("nan"), 4), "position must be a finite number, got nan"),
    (lambda: sinusoidal("3", 4), "position must be a number, got '3'"),
    (lambda: sinusoidal(1, 4, base=0.5), "base must be a finite number >= 1, got 0.5"),
    (lambda: sinusoidal(1, 4, base=float("inf")), "base must be a finite number, got inf"),
    (lambda: pe_similarity(float("inf"), 32), "offset must be a finite number, got inf"),
    (lambda: pe_similarity(8, 31), "dim must be an even integer >= 2, got 31"),
    (lambda: pe_similarity_terms(float("nan"), 32), "offset must be a finite number, got nan"),
    (lambda: pe_similarity_terms(8, 5), "dim must be an even integer >= 2, got 5"),
    (lambda: pe_similarity_terms(8, 32, base=0), "base must be a finite number >= 1, got 0.0"),
    (lambda: pe_similarity(8, 32, base=-100), "base must be a finite number >= 1, got -100.0"),
    (lambda: position_code(None), "t must be a number, got None"),
    (lambda: embed_with_position([[1.0, 2.0, 3.0]]), "E has 3 columns but the position code p_t is 2-D"),
    (lambda: embed_with_position([]), "E is empty: it needs at least one row"),
    (lambda: embed_with_position([[1.0, 2.0]], s=float("nan")), "s must be a finite number, got nan"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:50] for _, m in BAD])
def test_bad_input_raises_value_error_with_the_value(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message
