"""engine.heads: multi-head attention against numpy, the sum-of-blocks form, bad heads."""
from __future__ import annotations

import random

import numpy as np
import pytest

from explorables.engine import attention, multi_head, projections, split_blocks, sum_of_blocks

import engine_reference as ref


def random_heads(rng: random.Random):
    T, D, d_out = rng.randint(1, 8), rng.randint(1, 5), rng.randint(1, 4)
    X = [[rng.gauss(0, 1) for _ in range(D)] for _ in range(T)]
    heads = []
    for _ in range(rng.randint(1, 4)):
        d_k, d_v = rng.randint(1, 4), rng.randint(1, 3)
        heads.append({
            "W_Q": [[rng.gauss(0, 1) for _ in range(d_k)] for _ in range(D)],
            "W_K": [[rng.gauss(0, 1) for _ in range(d_k)] for _ in range(D)],
            "W_V": [[rng.gauss(0, 1) for _ in range(d_v)] for _ in range(D)],
        })
    rows = sum(len(h["W_V"][0]) for h in heads)
    W_O = [[rng.gauss(0, 1) for _ in range(d_out)] for _ in range(rows)]
    return X, heads, W_O


@pytest.mark.parametrize("seed", range(60))
def test_multi_head_matches_numpy(seed):
    rng = random.Random(seed)
    X, heads, W_O = random_heads(rng)
    temperature, causal = rng.choice([1.0, 0.5, 3.0]), rng.random() < 0.5
    got = multi_head(X, heads, W_O, temperature=temperature, causal=causal)
    concat, outputs = ref.multi_head(X, heads, W_O, temperature, causal)
    ref.close(got.concat, concat)
    ref.close(got.outputs, outputs)
    # each head is plain attention on its own projections
    for head, result in zip(heads, got.heads):
        Q, K, V = projections(X, head["W_Q"], head["W_K"], head["W_V"])
        alone = attention(Q, K, V, temperature=temperature, causal=causal)
        assert result.weights == alone.weights and result.outputs == alone.outputs
    # the sum-of-blocks form gives the same outputs
    ref.close(sum_of_blocks([r.outputs for r in got.heads], W_O), outputs)
    ref.close(np.sum(np.asarray(got.contributions), axis=0), outputs)
    assert [len(b) for b in got.blocks] == [len(h["W_V"][0]) for h in heads]


def test_two_identical_heads_with_halves_are_one_head_by_hand():
    X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    I = [[1.0, 0.0], [0.0, 1.0]]
    head = {"W_Q": I, "W_K": I, "W_V": I}
    half = [[0.5, 0.0], [0.0, 0.5]]
    both = multi_head(X, [head, head], half + half)
    one = attention(X, X, X)
    ref.close(both.outputs, one.outputs, tol=1e-15)
    assert both.concat[0] == one.outputs[0] + one.outputs[0]
    assert len(both.heads) == 2


def test_split_blocks_by_hand():
    W_O = [[1.0], [2.0], [3.0]]
    assert split_blocks(W_O, [2, 1]) == [[[1.0], [2.0]], [[3.0]]]
    assert sum_of_blocks([[[1.0, 1.0]], [[1.0]]], W_O) == [[6.0]]


X1 = [[1.0, 0.0], [0.0, 1.0]]
I2 = [[1.0, 0.0], [0.0, 1.0]]
HEAD = {"W_Q": I2, "W_K": I2, "W_V": I2}

BAD = [
    (lambda: multi_head(X1, [], I2), "heads must be a non-empty list of mappings with W_Q, W_K and W_V, got []"),
    (lambda: multi_head(X1, HEAD, I2),
     "heads must be a list of mappings, got a single mapping; write heads=[head]"),
    (lambda: multi_head(X1, "W_Q", I2), "heads must be a non-empty list of mappings with W_Q, W_K and W_V, got 'W_Q'"),
    (lambda: multi_head(X1, [HEAD, I2], I2 + I2),
     "heads[1] must be a mapping with W_Q, W_K and W_V, got [[1.0, 0.0], [0.0, 1.0]]"),
    (lambda: multi_head(X1, [{"W_Q": I2, "W_K": I2}], I2),
     "heads[0] is missing 'W_V' (each head needs W_Q, W_K and W_V)"),
    (lambda: multi_head(X1, [{"W_Q": I2, "W_K": I2, "W_V": I2, "Wo": I2}], I2),
     "heads[0] has an unknown key 'Wo' (each head needs W_Q, W_K and W_V)"),
    (lambda: multi_head(X1, [HEAD, {"W_Q": I2, "W_K": [[1.0]], "W_V": I2}], I2 + I2),
     "heads[1]['W_K'] has 1 rows but X has 2 columns; each W needs one row per coordinate of a token vector"),
    (lambda: multi_head(X1, [HEAD, HEAD], I2),
     "W_O has 2 rows but the heads' outputs have 4 columns in all (2 + 2)"),
    (lambda: multi_head(X1, [HEAD], [[1.0, 2.0], [3.0]]), "W_O is ragged: row 0 has 2 entries but row 1 has 1"),
    (lambda: multi_head([[1.0, float("nan")]], [HEAD], I2), "X[0][1] must be a finite number, got nan"),
    (lambda: multi_head(X1, [HEAD], I2, temperature=-1), "temperature must be a finite number > 0, got -1.0"),
    (lambda: sum_of_blocks([], I2), "head_outputs is empty: there must be at least one head"),
    (lambda: sum_of_blocks([[[1.0]], [[1.0], [2.0]]], I2), "head_outputs[1] has 2 rows but head_outputs[0] has 1"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:50] for _, m in BAD])
def test_bad_input_raises_value_error_with_the_value(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message
