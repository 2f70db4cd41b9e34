"""engine.attention against a numpy reference, by hand, and on bad or extreme input."""
from __future__ import annotations

import math
import random
import sys

import numpy as np
import pytest

from explorables import engine
from explorables.engine import attention, attention_row, causal_mask, entropy, scaled_scores, softmax

import engine_reference as ref

FLOAT_MAX = sys.float_info.max


def random_case(rng: random.Random):
    """Random shapes, entries, temperature and mask (never a fully hidden row)."""
    T_q, T_k = rng.randint(1, 12), rng.randint(1, 12)
    d_k, d_v = rng.randint(1, 9), rng.randint(1, 5)
    spread = rng.choice([0.1, 1.0, 3.0])
    Q = [[rng.gauss(0, spread) for _ in range(d_k)] for _ in range(T_q)]
    K = [[rng.gauss(0, spread) for _ in range(d_k)] for _ in range(T_k)]
    V = [[rng.gauss(0, 2) for _ in range(d_v)] for _ in range(T_k)]
    temperature = rng.choice([1.0, 0.1, 0.5, 2.0, 10.0, rng.uniform(0.1, 5.0)])
    causal = rng.random() < 0.4
    kind = rng.choice(["none", "row", "matrix"])
    mask = None
    if kind == "row":
        mask = [rng.random() < 0.7 for _ in range(T_k)]
        mask[0] = True  # key 0 keeps every row, causal or not, readable
    elif kind == "matrix":
        mask = [[rng.random() < 0.6 for _ in range(T_k)] for _ in range(T_q)]
        for row in mask:
            row[0] = True
    return Q, K, V, temperature, causal, mask


# ---------------------------------------------------------------------------------------
# the numpy reference, to 1e-12


@pytest.mark.parametrize("seed", range(300))
def test_attention_matches_numpy(seed):
    Q, K, V, temperature, causal, mask = random_case(random.Random(seed))
    got = attention(Q, K, V, temperature=temperature, causal=causal, mask=mask)
    S, A, O, H = ref.attention(Q, K, V, temperature, mask, causal)
    ref.close(got.scores, S)
    ref.close(got.weights, A)
    ref.close(got.outputs, O)
    ref.close(got.entropy, H)


@pytest.mark.parametrize("seed", range(100))
def test_attention_row_matches_numpy_and_the_full_matrix(seed):
    rng = random.Random(1000 + seed)
    Q, K, V, temperature, causal, _ = random_case(rng)
    i = rng.randrange(len(K))
    q = [rng.gauss(0, 1) for _ in Q[0]]
    mask = [rng.random() < 0.7 for _ in K]
    mask[0] = True
    row = attention_row(q, K, V, index=i, temperature=temperature, causal=causal, mask=mask)
    full_mask = [mask] * len(K)
    S, A, O, H = ref.attention([q] * len(K), K, V, temperature, full_mask, causal)
    ref.close(row.scores, S[i])
    ref.close(row.weights, A[i])
    ref.close(row.output, O[i])
    ref.close(row.entropy, H[i])
    # the same numbers, bit for bit, as row i of the full computation
    full = attention([q] * len(K), K, V, temperature=temperature, causal=causal, mask=mask)
    assert (full.scores[i], full.weights[i], full.outputs[i], full.entropy[i]) == (
        row.scores, row.weights, row.output, row.entropy
    )


@pytest.mark.parametrize("seed", range(100))
def test_softmax_matches_numpy(seed):
    rng = random.Random(2000 + seed)
    n = rng.randint(1, 20)
    scores = [rng.uniform(-30, 30) for _ in range(n)]
    temperature = rng.uniform(0.05, 20)
    mask = [rng.random() < 0.6 for _ in range(n)]
    mask[rng.randrange(n)] = True
    ref.close(softmax(scores, temperature, mask), ref.softmax(scores, temperature, mask))
    ref.close(softmax(scores, temperature), ref.softmax(scores, temperature))


@pytest.mark.parametrize("seed", range(50))
def test_scaled_scores_match_numpy(seed):
    rng = random.Random(3000 + seed)
    Q, K, *_ = random_case(rng)
    ref.close(scaled_scores(Q, K), np.asarray(Q) @ np.asarray(K).T / math.sqrt(len(Q[0])))


def test_causal_mask_matches_numpy_tril():
    for T_q, T_k in [(1, 1), (3, 3), (2, 5), (5, 2)]:
        assert causal_mask(T_q, T_k) == np.tril(np.ones((T_q, T_k), dtype=bool)).tolist()
    assert causal_mask(3) == [[True, False, False], [True, True, False], [True, True, True]]


# ---------------------------------------------------------------------------------------
# small cases worked by hand


def test_softmax_by_hand():
    # e^0 = 1 and e^(ln 3) = 3, so the weights are 1/4 and 3/4
    assert softmax([0.0, math.log(3.0)]) == pytest.approx([0.25, 0.75], abs=1e-15)
    assert softmax([5.0, 5.0, 5.0, 5.0]) == [0.25, 0.25, 0.25, 0.25]
    # temperature 2 halves the scores: ln 9 / 2 = ln 3
    assert softmax([0.0, math.log(9.0)], temperature=2.0) == pytest.approx([0.25, 0.75], abs=1e-15)
    # one score alone takes everything
    assert softmax([-123.0]) == [1.0]


def test_masked_entries_are_exactly_zero_and_left_out():
    a = softmax([10.0, 0.0, math.log(3.0), 50.0], mask=[False, True, True, False])
    assert a[0] == 0.0 and a[3] == 0.0
    assert a[1:3] == pytest.approx([0.25, 0.75], abs=1e-15)


def test_one_query_row_by_hand():
    # q = (1, 0); keys (1, 0) and (0, 1); d_k = 2, so the scores are 1/sqrt(2) and 0
    r = attention_row([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]])
    s = 1 / math.sqrt(2)
    a0 = math.exp(s) / (math.exp(s) + 1.0)
    assert r.scores == pytest.approx([s, 0.0], abs=1e-15)
    assert r.weights == pytest.approx([a0, 1 - a0], abs=1e-15)
    assert r.output == pytest.approx([2 * a0, 2 * (1 - a0)], abs=1e-15)
    assert r.entropy == pytest.approx(-(a0 * math.log(a0) + (1 - a0) * math.log(1 - a0)), abs=1e-15)


def test_sqrt_d_k_scaling_by_hand():
    # q = k = (1, 1, 1, 1): q . k = 4, sqrt(d_k) = 2, score 2
    assert scaled_scores([[1, 1, 1, 1]], [[1, 1, 1, 1], [0, 0, 0, 0]]) == [[2.0, 0.0]]


def test_zero_queries_and_the_causal_mask_give_running_means():
    # The lab's quick check: W_Q = 0, causal mask, v0 = (3, 0), v1 = (0, 3), v2 = (0, 0)
    V = [[3.0, 0.0], [0.0, 3.0], [0.0, 0.0]]
    r = attention([[0.0, 0.0]] * 3, [[1.0, 2.0], [-1.0, 0.5], [3.0, 3.0]], V, causal=True)
    assert r.weights[2] == pytest.approx([1 / 3] * 3, abs=1e-15)
    ref.close(r.outputs, [[3.0, 0.0], [1.5, 1.5], [1.0, 1.0]], tol=1e-15)
    assert r.entropy == pytest.approx([0.0, math.log(2), math.log(3)], abs=1e-15)


def test_temperature_half_equals_doubled_scores():
    K = [[1.0, 0.0], [0.3, 0.8], [-1.0, 0.2]]
    V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    halved = attention_row([1.0, 0.5], K, V, temperature=0.5)
    doubled = attention_row([2.0, 1.0], K, V)
    assert halved.weights == pytest.approx(doubled.weights, abs=1e-15)


def test_entropy_by_hand():
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    assert entropy([0.25] * 4) == pytest.approx(math.log(4), abs=1e-15)
    assert entropy([0.5, 0.5, 0.0]) == pytest.approx(math.log(2), abs=1e-15)


def test_causal_needs_the_query_position():
    K = [[1.0], [2.0], [3.0]]
    V = [[1.0], [2.0], [3.0]]
    r = attention_row([1.0], K, V, index=1, causal=True)
    assert r.weights[2] == 0.0 and r.mask == [True, True, False] and r.index == 1
    assert r.weights[:2] == pytest.approx(softmax([1 / 1, 2 / 1]), abs=1e-15)


def test_key_mask_row_applies_to_every_query():
    Q = [[1.0, 0.0], [0.0, 1.0]]
    K = [[1.0, 1.0], [2.0, 0.0], [0.0, 2.0]]
    V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    r = attention(Q, K, V, mask=[True, False, True])
    assert [row[1] for row in r.weights] == [0.0, 0.0]
    assert r.mask == [[True, False, True], [True, False, True]]


def test_tuples_and_ints_are_accepted():
    r = attention(((1, 0),), ((1, 0), (0, 1)), ((1, 2), (3, 4)))
    assert all(isinstance(x, float) for x in r.outputs[0])
    assert r.Q == [[1.0, 0.0]]


# ---------------------------------------------------------------------------------------
# the trace: "show the arithmetic"


def test_trace_follows_the_arithmetic_step_by_step():
    q = [1.0, 2.0]
    K = [[0.5, 1.0], [2.0, -1.0], [1.0, 1.0], [0.0, 3.0]]
    V = [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [-1.0, 1.0]]
    T = 0.7
    r = attention_row(q, K, V, index=2, temperature=T, causal=True)
    tr = r.trace
    assert len(tr) == 4 and [step.j for step in tr] == [0, 1, 2, 3]
    assert tr.d_k == 2 and tr.sqrt_d_k == math.sqrt(2) and tr.temperature == T
    for step, k, v in zip(tr, K, V):
        assert step.dot == pytest.approx(q[0] * k[0] + q[1] * k[1], abs=1e-15)
        assert step.scaled == step.dot / math.sqrt(2)
        assert step.tempered == step.scaled / T
    assert [step.masked for step in tr] == [False, False, False, True]
    visible = [step for step in tr if not step.masked]
    assert tr.max_tempered == max(step.tempered for step in visible)
    for step in visible:
        assert step.exp == pytest.approx(math.exp(step.tempered - tr.max_tempered), rel=1e-14)
    assert tr[3].exp == 0.0 and tr[3].weight == 0.0 and tr[3].weighted_value == [0.0, 0.0]
    assert tr.exp_sum == math.fsum(step.exp for step in tr)
    for step, v in zip(tr, V):
        assert step.weight == step.exp / tr.exp_sum == r.weights[step.j]
        assert step.weighted_value == [step.weight * x for x in v]
    for c in range(2):  # the output is the sum of the weighted values
        assert tr.output[c] == pytest.approx(sum(step.weighted_value[c] for step in tr), abs=1e-15)
    assert tr.output == r.output
    assert [step.scaled for step in tr] == r.scores


def test_row_of_the_full_result_is_the_same_row_with_a_trace():
    rng = random.Random(7)
    Q, K, V, temperature, causal, mask = random_case(rng)
    full = attention(Q, K, V, temperature=temperature, causal=causal, mask=mask)
    for i in range(len(Q)):
        row = full.row(i)
        assert row.scores == full.scores[i]
        assert row.weights == full.weights[i]
        assert row.output == full.outputs[i]
        assert row.entropy == full.entropy[i]
        assert row.mask == full.mask[i]
        assert row.index == i
        assert row.trace.output == full.outputs[i]


# ---------------------------------------------------------------------------------------
# extreme but finite input: never NaN or inf


def _all_finite(*arrays) -> bool:
    return all(math.isfinite(x) for a in arrays for x in np.ravel(np.asarray(a, dtype=float)))


@pytest.mark.parametrize("big", [1e300, -1e300, FLOAT_MAX, 1e-300, 5e-324])
def test_huge_and_tiny_entries_stay_finite(big):
    Q = [[big, big], [big, -big], [0.0, big]]
    K = [[big, big], [-big, big], [big, 0.5 * big]]
    V = [[big, -big], [big, big], [0.0, big]]
    for temperature in (1.0, 1e-300, 1e300):
        r = attention(Q, K, V, temperature=temperature)
        assert _all_finite(r.scores, r.weights, r.outputs, r.entropy)
        for row in r.weights:
            assert min(row) >= 0.0 and math.fsum(row) == pytest.approx(1.0, abs=1e-15)
        row = attention_row(Q[0], K, V, temperature=temperature)
        assert _all_finite(
            row.scores, row.weights, row.output, [row.entropy, row.trace.exp_sum, row.trace.max_tempered],
            [s.dot for s in row.trace], [s.tempered for s in row.trace], [s.exp for s in row.trace],
        )


def test_overflowing_scores_still_pick_the_larger_dot_product():
    # q . k_j is about 2e600, 1e600 and 2.0000001e600: beyond any float, yet ordered.
    q = [1e300, 1e300]
    K = [[1e300, 1e300], [-1e300, 2e300], [1e300, 1.0000001e300]]
    V = [[1.0, 0.0], [0.0, 1.0], [5.0, 6.0]]
    r = attention_row(q, K, V)
    assert r.weights == [0.0, 0.0, 1.0]
    assert r.output == [5.0, 6.0]
    assert r.scores == [FLOAT_MAX] * 3  # reported scores saturate
    # equal huge keys split the weight evenly
    assert attention_row(q, [[1e300, 1e300]] * 4, [[1.0]] * 4).weights == [0.25] * 4


def test_huge_but_representable_scores_use_the_plain_path():
    # scores of about 1e200 are finite: the weights follow them exactly
    r = attention_row([1e100], [[1e100], [0.5e100], [-1e100]], [[1.0], [2.0], [3.0]], temperature=1e200)
    ref.close(r.weights, ref.softmax([1.0, 0.5, -1.0]))


def test_tiny_temperature_is_a_hard_argmax_without_overflow():
    r = attention_row([1.0, 0.0], [[1.0, 0.0], [0.9, 0.0], [-5.0, 0.0]], [[1.0], [2.0], [3.0]], temperature=1e-300)
    assert r.weights == [1.0, 0.0, 0.0]
    assert all(math.isfinite(s.tempered) for s in r.trace)


def test_huge_values_near_the_float_limit_give_a_finite_output():
    V = [[FLOAT_MAX, -FLOAT_MAX], [FLOAT_MAX, -FLOAT_MAX], [FLOAT_MAX, -FLOAT_MAX]]
    r = attention([[0.0]] * 3, [[0.0]] * 3, V)
    assert _all_finite(r.outputs)
    assert r.outputs[0][0] == pytest.approx(FLOAT_MAX, rel=1e-15)


# ---------------------------------------------------------------------------------------
# bad input: ValueError naming the argument and the value or shapes

Q2 = [[1.0, 0.0], [0.0, 1.0]]
K2 = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
V2 = [[1.0], [2.0], [3.0]]

BAD = [
    # (call, exact message)
    (lambda: softmax([]), "scores is empty: it needs at least one number"),
    (lambda: softmax([1.0, float("nan")]), "scores[1] must be a finite number, got nan"),
    (lambda: softmax([1.0, float("inf")]), "scores[1] must be a finite number, got inf"),
    (lambda: softmax([1.0, "2"]), "scores[1] must be a number, got '2'"),
    (lambda: softmax("12"), "scores must be a list of numbers, got '12'"),
    (lambda: softmax(3.0), "scores must be a list of numbers, got 3.0"),
    (lambda: softmax([1.0, 2.0], temperature=0.0), "temperature must be a finite number > 0, got 0.0"),
    (lambda: softmax([1.0, 2.0], temperature=-1.0), "temperature must be a finite number > 0, got -1.0"),
    (lambda: softmax([1.0], temperature=float("nan")), "temperature must be a finite number > 0, got nan"),
    (lambda: softmax([1.0], temperature=float("inf")), "temperature must be a finite number > 0, got inf"),
    (lambda: softmax([1.0], temperature="1"), "temperature must be a finite number > 0, got '1'"),
    (lambda: softmax([1.0], temperature=True), "temperature must be a finite number > 0, got True"),
    (lambda: softmax([1.0, 2.0], mask=[False, False]),
     "mask hides every entry of scores: [False, False]; at least one must be True"),
    (lambda: softmax([1.0, 2.0], mask=[True]), "mask has 1 entries, expected 2"),
    (lambda: softmax([1.0, 2.0], mask=[True, 1]), "mask[1] must be True or False, got 1"),
    (lambda: scaled_scores([[1.0, 2.0], [3.0]], K2), "Q is ragged: row 0 has 2 entries but row 1 has 1"),
    (lambda: scaled_scores(Q2, [[1.0, 2.0, 3.0]]),
     "K has 3 columns but Q has 2; queries and keys must have the same length d_k"),
    (lambda: scaled_scores([], K2), "Q is empty: it needs at least one row"),
    (lambda: scaled_scores([[]], K2), "Q[0] is empty: it needs at least one number"),
    (lambda: scaled_scores([1.0, 2.0], K2), "Q must be a matrix (a list of rows), but Q[0] is 1.0"),
    (lambda: attention(Q2, K2, [[1.0], [2.0]]), "V has 2 rows but K has 3; every key needs one value"),
    (lambda: attention(Q2, K2, [[1.0], [float("-inf")], [3.0]]), "V[1][0] must be a finite number, got -inf"),
    (lambda: attention(Q2, [[1.0, 0.0], [0.0, float("nan")], [1.0, 1.0]], V2), "K[1][1] must be a finite number, got nan"),
    (lambda: attention(Q2, K2, V2, temperature=0), "temperature must be a finite number > 0, got 0.0"),
    (lambda: attention(Q2, K2, V2, causal="yes"), "causal must be True or False, got 'yes'"),
    (lambda: attention(Q2, K2, V2, mask=[False, False, False]),
     "mask hides every key from query 0; each row needs one True"),
    (lambda: attention(Q2, K2, V2, mask=[[True, True, True], [False, False, False]]),
     "mask hides every key from query 1; each row needs one True"),
    (lambda: attention(Q2, K2, V2, causal=True, mask=[False, True, True]),
     "mask hides every key from query 0 (with the causal mask); each row needs one True"),
    (lambda: attention(Q2, K2, V2, mask=[[True, True, True]]), "mask has 1 rows but there are 2 queries"),
    (lambda: attention(Q2, K2, V2, mask=[[True, True], [True, True]]), "mask[0] has 2 entries, expected 3"),
    (lambda: attention_row([1.0, 0.0], K2, V2, causal=True),
     "causal=True needs index, the query's position in 0..2, got None"),
    (lambda: attention_row([1.0, 0.0], K2, V2, index=3), "index must be in 0..2, got 3"),
    (lambda: attention_row([1.0, 0.0], K2, V2, index=1.0), "index must be an integer, got 1.0"),
    (lambda: attention_row([1.0], K2, V2),
     "K has 2 columns but q has 1 entries; q and every key must have the same length d_k"),
    (lambda: attention_row([], K2, V2), "q is empty: it needs at least one number"),
    (lambda: attention_row([1.0, 0.0], K2, V2, mask=[False, False, False]),
     "mask hides every key: [False, False, False]; at least one must be True"),
    (lambda: attention_row([1.0, 0.0], K2, V2, index=0, causal=True, mask=[False, True, True]),
     "mask hides every key (with the causal mask at index 0): [False, True, True]; at least one must be True"),
    (lambda: attention(Q2, K2, V2).row(2), "i must be in 0..1, got 2"),
    (lambda: causal_mask(0), "T_q must be an integer >= 1, got 0"),
    (lambda: causal_mask(2, 2.5), "T_k must be an integer >= 1, got 2.5"),
    (lambda: engine.projections([[1.0, 2.0]], [[1.0]], [[1.0]], [[1.0]]),
     "W_Q has 1 rows but X has 2 columns; each W needs one row per coordinate of a token vector"),
    (lambda: engine.projections([[1.0]], [[1.0, 0.0]], [[1.0]], [[1.0]]),
     "W_K has 1 columns but W_Q has 2; queries and keys must have the same length d_k"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:50] for _, m in BAD])
def test_bad_input_raises_value_error_with_the_value(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message
