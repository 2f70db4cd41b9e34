"""Hypothesis properties of the engine: the facts the lessons teach, checked on many inputs."""
from __future__ import annotations

import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables.engine import (
    attention,
    convex_hull,
    dot,
    embed_with_position,
    multi_head,
    pe_similarity,
    point_in_hull,
    self_attention,
    sinusoidal,
    softmax,
)

settings.register_profile("engine", max_examples=150, deadline=None)
settings.load_profile("engine")

FLOAT_MAX = sys.float_info.max
TOL = 1e-9  # for identities that rounding changes in the last bits

moderate = st.floats(-50.0, 50.0, allow_nan=False)
any_finite = st.floats(allow_nan=False, allow_infinity=False)
temperatures = st.floats(0.05, 20.0)
any_temperature = st.floats(min_value=5e-324, max_value=FLOAT_MAX, exclude_min=False).filter(lambda t: t > 0)


def vectors(n, elements=moderate):
    return st.lists(elements, min_size=n, max_size=n)


def matrices(rows, cols, elements=moderate):
    return st.lists(vectors(cols, elements), min_size=rows, max_size=rows)


@st.composite
def qkv(draw, elements=moderate, d_v=None):
    """Q (T_q, d_k), K (T_k, d_k), V (T_k, d_v)."""
    T_q, T_k = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    d_k, d_v = draw(st.integers(1, 4)), d_v or draw(st.integers(1, 3))
    return (draw(matrices(T_q, d_k, elements)), draw(matrices(T_k, d_k, elements)),
            draw(matrices(T_k, d_v, elements)))


@st.composite
def row_and_mask(draw, elements=moderate):
    n = draw(st.integers(1, 12))
    scores = draw(vectors(n, elements))
    mask = draw(vectors(n, st.booleans()))
    mask[draw(st.integers(0, n - 1))] = True
    return scores, mask


def close(a, b, tol=TOL):
    return all(math.isclose(x, y, rel_tol=tol, abs_tol=tol) for x, y in zip(a, b)) and len(a) == len(b)


# ---------------------------------------------------------------------------------------
# softmax


@given(row_and_mask(any_finite), any_temperature)
def test_weights_are_non_negative_finite_and_sum_to_one(case, temperature):
    scores, mask = case
    a = softmax(scores, temperature, mask)
    assert all(math.isfinite(x) and x >= 0.0 for x in a)
    assert math.fsum(a) == pytest.approx(1.0, abs=1e-14)


@given(row_and_mask(), temperatures)
def test_masked_weights_are_exactly_zero(case, temperature):
    scores, mask = case
    a = softmax(scores, temperature, mask)
    assert all(x == 0.0 for x, seen in zip(a, mask) if not seen)


@given(row_and_mask(), temperatures, st.floats(-1000.0, 1000.0))
def test_adding_a_constant_to_a_score_row_changes_nothing(case, temperature, c):
    scores, mask = case
    shifted = [s + c for s in scores]
    assert close(softmax(shifted, temperature, mask), softmax(scores, temperature, mask))


# ---------------------------------------------------------------------------------------
# attention


@given(qkv(any_finite), any_temperature, st.booleans())
def test_attention_never_gives_nan_or_inf(case, temperature, causal):
    Q, K, V = case
    r = attention(Q, K, V, temperature=temperature, causal=causal)
    for M in (r.scores, r.weights, r.outputs, [r.entropy]):
        assert all(math.isfinite(x) for row in M for x in row)
    for row in r.weights:
        assert min(row) >= 0.0 and math.fsum(row) == pytest.approx(1.0, abs=1e-14)


@given(qkv(), temperatures, st.floats(0.1, 10.0))
def test_scaling_every_key_by_c_equals_temperature_one_over_c(case, temperature, c):
    Q, K, V = case
    scaled = attention(Q, [[c * x for x in k] for k in K], V)
    tempered = attention(Q, K, V, temperature=1.0 / c)
    for a, b in zip(scaled.weights, tempered.weights):
        assert close(a, b, 1e-8)


@given(qkv(any_finite, d_v=2), any_temperature, st.booleans())
def test_every_output_lies_inside_the_convex_hull_of_the_values(case, temperature, causal):
    Q, K, V = case
    r = attention(Q, K, V, temperature=temperature, causal=causal)
    hull = convex_hull(V)
    for o in r.outputs:
        assert point_in_hull(o, hull)


@given(qkv(), temperatures)
def test_with_the_causal_mask_the_first_output_is_its_own_value(case, temperature):
    Q, K, V = case
    r = attention(Q, K, V, temperature=temperature, causal=True)
    assert r.weights[0][0] == 1.0 and all(a == 0.0 for a in r.weights[0][1:])
    assert r.outputs[0] == V[0]


@given(qkv(), temperatures, st.booleans(), st.data())
def test_masked_weights_in_attention_are_exactly_zero(case, temperature, causal, data):
    Q, K, V = case
    mask = data.draw(matrices(len(Q), len(K), st.booleans()))
    for i, row in enumerate(mask):
        row[0] = True  # key 0 keeps every row readable, causal or not
    r = attention(Q, K, V, temperature=temperature, causal=causal, mask=mask)
    for i, row in enumerate(r.weights):
        hidden = [j for j in range(len(K)) if not mask[i][j] or (causal and j > i)]
        assert all(row[j] == 0.0 for j in hidden)
        one = r.row(i)
        assert all(one.trace[j].masked and one.trace[j].exp == 0.0 for j in hidden)


@given(qkv(), temperatures, vectors(3))
def test_identical_keys_give_uniform_weights(case, temperature, _):
    Q, K, V = case
    same = [K[0]] * len(K)
    r = attention(Q, same, V, temperature=temperature)
    for row in r.weights:
        assert row == [row[0]] * len(row)
        assert row[0] == pytest.approx(1 / len(row), rel=1e-15)


@st.composite
def tokens_and_weights(draw):
    T, D = draw(st.integers(1, 7)), draw(st.integers(1, 3))
    d_k, d_v = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return (draw(matrices(T, D)), draw(matrices(D, d_k)), draw(matrices(D, d_v)))


@given(tokens_and_weights(), temperatures)
def test_zero_queries_give_uniform_rows_and_causal_running_means(case, temperature):
    X, W_K, W_V = case
    W_Q = [[0.0] * len(W_K[0]) for _ in W_K]
    full = self_attention(X, W_Q, W_K, W_V, temperature=temperature)
    T = len(X)
    V = full.V
    mean = [math.fsum(column) / T for column in zip(*V)]
    for row, o in zip(full.weights, full.outputs):
        assert row == [1.0 / T] * T
        assert close(o, mean)
    causal = self_attention(X, W_Q, W_K, W_V, temperature=temperature, causal=True)
    for i, (row, o) in enumerate(zip(causal.weights, causal.outputs)):
        assert row == [1.0 / (i + 1)] * (i + 1) + [0.0] * (T - i - 1)
        running = [math.fsum(column) / (i + 1) for column in zip(*V[: i + 1])]
        assert close(o, running)


@given(matrices(4, 2), st.integers(0, 3), st.integers(0, 3), matrices(2, 2), matrices(2, 2), matrices(2, 2),
       temperatures)
def test_two_identical_tokens_with_no_position_code_get_identical_outputs(E, a, b, W_Q, W_K, W_V, temperature):
    E = [list(e) for e in E]
    E[b] = list(E[a])  # the same word at two places
    X = embed_with_position(E, s=0.0)
    r = self_attention(X, W_Q, W_K, W_V, temperature=temperature)
    assert r.weights[a] == r.weights[b]
    assert r.outputs[a] == r.outputs[b]


@given(tokens_and_weights(), temperatures, st.booleans(), st.data())
def test_two_identical_heads_with_w_o_blocks_of_half_identity_equal_one_head(case, temperature, causal, data):
    X, W_K, W_V = case
    W_Q = data.draw(matrices(len(W_K), len(W_K[0])))
    head = {"W_Q": W_Q, "W_K": W_K, "W_V": W_V}
    d_v = len(W_V[0])
    I = [[1.0 if r == c else 0.0 for c in range(d_v)] for r in range(d_v)]  # (d_v, d_v)
    half = [[0.5 * x for x in row] for row in I]
    both = multi_head(X, [head, head], half + half, temperature=temperature, causal=causal)
    one = multi_head(X, [head], I, temperature=temperature, causal=causal)
    for x, y, o in zip(both.outputs, one.outputs, both.heads[0].outputs):
        assert close(x, y, 1e-12) and close(x, o, 1e-12)


# ---------------------------------------------------------------------------------------
# positions


@given(st.integers(1, 32).map(lambda n: 2 * n), st.floats(-200.0, 200.0), st.floats(-200.0, 200.0),
       st.floats(-50.0, 50.0), st.sampled_from([10.0, 100.0, 10000.0]))
def test_positional_similarity_depends_only_on_the_offset(D, t1, t2, k, base):
    def similarity(t):
        return dot(sinusoidal(t, D, base), sinusoidal(t + k, D, base)) / (D / 2)

    assert similarity(t1) == pytest.approx(similarity(t2), abs=1e-9)
    assert similarity(t1) == pytest.approx(pe_similarity(k, D, base), abs=1e-9)


@given(st.integers(1, 32).map(lambda n: 2 * n), st.floats(-1e6, 1e6), st.floats(1.0, 1e6))
def test_encodings_are_points_on_unit_circles(D, t, base):
    pe = sinusoidal(t, D, base)
    for i in range(0, D, 2):
        assert pe[i] ** 2 + pe[i + 1] ** 2 == pytest.approx(1.0, abs=1e-12)
    assert -1.0 <= pe_similarity(t, D, base) <= 1.0
