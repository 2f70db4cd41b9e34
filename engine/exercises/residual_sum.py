"""The exercise "residual-sum": a word's vector x, its attention output o and the layer's
W_O (2 x 2); the vector the block passes on, x + o W_O (lesson 8). Written as an author
writes an exercise type, with the public kit only, and registered with it: the
cross-attention figure's package imports this module.
"""

from __future__ import annotations

import random

from explorables.figures import (
    Exercise,
    Mistake,
    Say,
    eq,
    mathml,
    mi,
    mmatrix,
    mo,
    mvec,
    random_vector,
    register,
    said,
)

HALVES = (-1.0, -0.5, 0.0, 0.5, 1.0)  # W_O's entries: whole numbers and halves, multiplied by hand


def times(v: list[float], W: list[list[float]]) -> list[float]:
    """The row vector v times W."""
    return [sum(v[r] * W[r][c] for r in range(len(v))) for c in range(len(W[0]))]


def plus(a: list[float], b: list[float]) -> list[float]:
    return [x + y for x, y in zip(a, b, strict=True)]


def transposed(W: list[list[float]]) -> list[list[float]]:
    return [list(col) for col in zip(*W, strict=True)]


@register
class ResidualSum(Exercise):
    """x + o W_O for a 2-D x and o and a 2 x 2 W_O."""

    name = "residual-sum"
    kind = "vector"
    tolerance = 0.01
    mistakes = (
        Mistake("no-residual", Say("exercise.residual_sum.no_residual"), lambda p: times(p["o"], p["W_O"])),
        Mistake("no-w-o", Say("exercise.residual_sum.no_w_o"), lambda p: plus(p["x"], p["o"])),
        Mistake(
            "columns", Say("exercise.residual_sum.columns"), lambda p: plus(p["x"], times(p["o"], transposed(p["W_O"])))
        ),
        Mistake(
            "x-times-w-o", Say("exercise.residual_sum.x_times_w_o"), lambda p: plus(times(p["x"], p["W_O"]), p["o"])
        ),
    )

    draws = 100

    def draw(self, rng: random.Random) -> dict:
        """Numbers from the seed (``generate`` draws again while a mistake lands near the answer)."""
        x, o = random_vector(rng, 2), random_vector(rng, 2)
        return {"x": x, "o": o, "W_O": [[rng.choice(HALVES) for _ in range(2)] for _ in range(2)]}

    def solve(self, p: dict) -> list[float]:
        return plus(p["x"], times(p["o"], p["W_O"]))

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        out = mathml(mi("x"), mo("+"), mi("o"), mi("W", "O"))
        return said(
            "exercise.residual_sum.statement",
            x=eq(mi("x"), mvec(p["x"], c)),
            o=eq(mi("o"), mvec(p["o"], c)),
            W_O=eq(mi("W", "O"), mmatrix(p["W_O"], c)),
            out=out,
            form="(x; y)" if c else "(x, y)",
        )
