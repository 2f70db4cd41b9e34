"""An independent numpy reference for the engine's maths (numpy is a test dependency only).

Written the textbook way with arrays, so that it shares no code and no order of
operations with engine/: the scores are Q K^T / sqrt(d_k), a hidden entry is -inf, the
softmax subtracts the row maximum of S / T.
"""
from __future__ import annotations

import numpy as np

TOL = 1e-12  # agreement asked of the engine, absolute and relative


def softmax(scores, temperature=1.0, mask=None):
    z = np.asarray(scores, dtype=float) / temperature
    if mask is not None:
        z = np.where(np.asarray(mask, dtype=bool), z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def entropy(A):
    A = np.asarray(A, dtype=float)
    safe = np.where(A > 0, A, 1.0)
    return -np.sum(np.where(A > 0, A * np.log(safe), 0.0), axis=-1)


def attention(Q, K, V, temperature=1.0, mask=None, causal=False):
    """(scores, weights, outputs, entropy) as arrays."""
    Q, K, V = (np.asarray(M, dtype=float) for M in (Q, K, V))
    S = Q @ K.T / np.sqrt(Q.shape[1])
    visible = np.ones(S.shape, dtype=bool)
    if mask is not None:
        visible &= np.asarray(mask, dtype=bool)  # a row broadcasts over the queries
    if causal:
        visible &= np.tril(np.ones(S.shape, dtype=bool))
    A = softmax(S, temperature, visible)
    return S, A, A @ V, entropy(A)


def sinusoidal(t, D, base=10000.0):
    i = np.arange(D // 2)
    theta = base ** (-2.0 * i / D)
    pe = np.empty(D)
    pe[0::2] = np.sin(theta * t)
    pe[1::2] = np.cos(theta * t)
    return pe


def multi_head(X, heads, W_O, temperature=1.0, causal=False):
    X = np.asarray(X, dtype=float)
    outs = []
    for head in heads:
        Q, K, V = (X @ np.asarray(head[name], dtype=float) for name in ("W_Q", "W_K", "W_V"))
        outs.append(attention(Q, K, V, temperature, causal=causal)[2])
    concat = np.concatenate(outs, axis=1)
    return concat, concat @ np.asarray(W_O, dtype=float)


def close(actual, expected, tol=TOL):
    np.testing.assert_allclose(np.asarray(actual, dtype=float), expected, rtol=tol, atol=tol)
