"""The toy sentence's vectors, decoding with and without the cache, and the counts. Per
layer, for width D = h·d_k and g key/value heads (g = h, the groups, or 1):

    projections of one token    D·D (its query) + 2·D·g·d_k (its key and value)
    step i with the cache       projections + 2·(i+1)·D       (row i: scores and AV)
    step i without it           (i+1)·projections + (i+1)(i+2)·D   (rows 0..i again)
    the cache after n tokens    2 · n · L · g · d_k · bytes    (K and V, every layer)
"""

from __future__ import annotations

import math

from explorables.engine import attention, attention_row

TOKENS = ("the", "cat", "sat", "on", "the", "mat", "and", "purred")
LAST = len(TOKENS) - 1
NOUNS, VERBS = {"cat", "mat"}, {"sat", "purred"}
OMEGA = 0.5  # the toy position tag turns half a radian a token, as in lesson 2


def vectors(tokens=TOKENS) -> tuple[list, list, list]:
    """Q, K, V = K (d_k = 4): a key says noun, verb, where; a query asks for a noun (or verb), and where."""
    Q, K = [], []
    for t, w in enumerate(tokens):
        noun, verb = float(w in NOUNS), float(w in VERBS)
        K.append([noun, verb, math.sin(OMEGA * t), math.cos(OMEGA * t)])
        Q.append([2 * (1 - noun), 2 * noun, math.sin(OMEGA * (t - 1)), math.cos(OMEGA * (t - 1))])
    return Q, K, [list(k) for k in K]


def decode(Q, K, V, steps: int) -> list:
    """With a cache: step i appends k_i and v_i to what is kept and computes row i alone."""
    kept_k, kept_v, rows = [], [], []
    for i in range(steps):
        kept_k.append(K[i])
        kept_v.append(V[i])
        rows.append(attention_row(Q[i], kept_k, kept_v))
    return rows


def recompute(Q, K, V, steps: int) -> list:
    """Without a cache: step i runs the causal table of tokens 0..i again; its last row."""
    return [attention(Q[: i + 1], K[: i + 1], V[: i + 1], causal=True).row(i) for i in range(steps)]


def projection(D: int, g: int, d_k: int) -> int:  # one token's query (D·D), key and value (D·g·d_k each)
    return D * D + 2 * D * g * d_k


def step_cost(i: int, D: int, g: int, d_k: int, cached: bool) -> int:  # one layer's multiply-adds at step i
    p = projection(D, g, d_k)
    return p + 2 * (i + 1) * D if cached else (i + 1) * p + (i + 1) * (i + 2) * D


def cache_bytes(n: int, layers: int, g: int, d_k: int, size: int) -> int:  # K and V, g·d_k numbers each
    return 2 * n * layers * g * d_k * size


def divisors(h: int) -> list[int]:
    return [g for g in range(1, h + 1) if h % g == 0]


def kv_heads(state: dict) -> int:  # the key/value heads the cache keeps: h, the groups, or one
    return {"none": state["heads"], "grouped": state["groups"], "one": 1}[state["share"]]
