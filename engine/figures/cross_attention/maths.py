"""The numbers: an English source sentence and its German translation, each word a 2-D
vector the figure declares (a direction of meaning, length 1). Cross-attention reads the
target's queries against the source's keys and values:

    q_i = x_i W_Q (W_Q = 4 I),  k_j = v_j = z_j,   A = softmax(Q K^T / (sqrt(d_k) T)),  o_i = sum_j a_ij v_j

an n' x n table with no mask. The block adds o_i W_O back to x_i (the residual stream).
"""

from __future__ import annotations

import math

from explorables.engine import attention, matmul

SOURCE = ("the", "black", "cat", "is", "sleeping")  # the encoder's sentence: keys and values
TARGET = ("die", "schwarze", "Katze", "schläft")  # the decoder's sentence: queries
SOURCE_ANGLES = (90, 30, -30, 150, -150)  # degrees: each source word a direction of meaning
TARGET_ANGLES = (90, 30, -30, 180)  # "schläft" between "is" and "sleeping"
QUERY_SCALE = 4.0  # W_Q = 4 I: a query is its word's vector, longer
W_O = [[0.5, -0.3], [0.3, 0.5]]  # the layer's output matrix (2 x 2)


def unit(degrees: float) -> list[float]:
    a = math.radians(degrees)
    return [round(math.cos(a), 4), round(math.sin(a), 4)]


Z = [unit(a) for a in SOURCE_ANGLES]  # the source vectors: K = V = Z
X0 = [unit(a) for a in TARGET_ANGLES]  # the target vectors x_i (a reader may drag them)


def cross(X: list[list[float]], temperature: float):
    """The cross-attention of the target rows X over the source: weights, scores, outputs."""
    Q = [[QUERY_SCALE * c for c in x] for x in X]
    return attention(Q, Z, Z, temperature=temperature)


def residual(x: list[float], o: list[float], on: bool = True) -> tuple[list[float], list[float]]:
    """(o W_O, the block's new vector): x + o W_O with the residual, o W_O alone without."""
    moved = matmul([o], W_O)[0]
    return moved, [a + b for a, b in zip(x, moved, strict=True)] if on else list(moved)


def rms_norm(v: list[float]) -> list[float]:
    """v divided by the root of its entries' mean square (the RMS norm, gain 1): length sqrt(D).
    Lesson 8's layer norm also subtracts the mean, which in two entries leaves only +-(1, -1)."""
    rms = math.sqrt(sum(c * c for c in v) / len(v))
    return [c / rms for c in v] if rms else list(v)
