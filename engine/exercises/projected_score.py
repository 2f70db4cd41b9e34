"""The exercise "projected-score": s_ij = (x_i W_Q) . (x_j W_K) / sqrt(d_k) from two
token vectors and two 2 x 2 projections (lesson 3). Written with the public kit's names
and the engine only, as an author's exercise type is."""

from __future__ import annotations

import math
import random

from ..linalg import dot, matmul, transpose
from ..locale import Say
from .kit import Exercise, Mistake, random_vector
from .mathml import eq, mathml, mi, mmatrix, mn, mo, mvec, said


def _row(x: list[float], W: list[list[float]]) -> list[float]:
    """The row vector x times the matrix W."""
    return matmul([x], W)[0]


def _raw(x_i: list[float], W_Q: list[list[float]], x_j: list[float], W_K: list[list[float]]) -> float:
    return dot(_row(x_i, W_Q), _row(x_j, W_K))


class ProjectedScore(Exercise):
    """The score of token i for token j after the projections W_Q and W_K, with d_k = 2."""

    name = "projected-score"
    tolerance = 0.01
    mistakes = (
        Mistake(
            "forgot-sqrt-d",
            Say("exercise.projected_score.forgot_sqrt_d"),
            lambda p: _raw(p["x_i"], p["W_Q"], p["x_j"], p["W_K"]),
        ),
        Mistake(
            "w-k-not-transposed",
            Say("exercise.projected_score.w_k_not_transposed"),
            lambda p: dot(_row(_row(p["x_i"], p["W_Q"]), p["W_K"]), p["x_j"]) / math.sqrt(2),
        ),
        Mistake(
            "column-vectors",
            Say("exercise.projected_score.column_vectors"),
            lambda p: _raw(p["x_i"], transpose(p["W_Q"]), p["x_j"], transpose(p["W_K"])) / math.sqrt(2),
        ),
        Mistake(
            "swapped-projections",
            Say("exercise.projected_score.swapped_projections"),
            lambda p: _raw(p["x_i"], p["W_K"], p["x_j"], p["W_Q"]) / math.sqrt(2),
        ),
        Mistake(
            "no-projection",
            Say("exercise.projected_score.no_projection"),
            lambda p: dot(p["x_i"], p["x_j"]) / math.sqrt(2),
        ),
    )

    def draw(self, rng: random.Random) -> dict:
        def matrix() -> list[list[float]]:  # whole numbers from -2 to 2, easy to multiply by hand
            return [[float(rng.randint(-2, 2)) for _ in range(2)] for _ in range(2)]

        return {"x_i": random_vector(rng, 2), "x_j": random_vector(rng, 2), "W_Q": matrix(), "W_K": matrix()}

    def solve(self, p: dict) -> float:
        return _raw(p["x_i"], p["W_Q"], p["x_j"], p["W_K"]) / math.sqrt(2)

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        s_ij = f"<msub>{mi('s')}<mrow>{mi('i')}{mi('j')}</mrow></msub>"  # two italic letters, not one name
        score = mathml(
            s_ij, mo("="), mi("q", "i"), mo("\u22c5"), mi("k", "j"), mo("/"), f"<msqrt>{mi('d', 'k')}</msqrt>"
        )
        return said(
            "exercise.projected_score.statement",
            x_i=eq(mi("x", "i"), mvec(p["x_i"], c)),
            x_j=eq(mi("x", "j"), mvec(p["x_j"], c)),
            W_Q=eq(mi("W", "Q"), mmatrix(p["W_Q"], c)),
            W_K=eq(mi("W", "K"), mmatrix(p["W_K"], c)),
            d_k=eq(mi("d", "k"), mn(2, c)),
            score=score,
            i=mathml(mi("i")),
            j=mathml(mi("j")),
        )
