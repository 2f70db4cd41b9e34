"""The exercise "output-vector": the output o = sum_j a_j v_j of one query."""

from __future__ import annotations

import random

from ..attention import softmax
from ..locale import Say
from .kit import Exercise, Mistake, _dot, random_vector
from .mathml import DK, OUTPUT, eq, mathml, mi, mn, mvec, said
from .softmax_weight import SoftmaxWeight


class OutputVector(Exercise):
    """The output o = sum_j a_j v_j of one query over three tokens."""

    name = "output-vector"
    kind = "vector"
    tolerance = 0.01
    mistakes = (
        Mistake(
            "forgot-sqrt-d",
            Say("exercise.output_vector.forgot_sqrt_d"),
            lambda p: OutputVector.blend(p, softmax([_dot(p["q"], k) for k in p["K"]])),
        ),
        Mistake(
            "plain-average", Say("exercise.output_vector.plain_average"), lambda p: OutputVector.blend(p, [1 / 3] * 3)
        ),
        Mistake(
            "scores-not-weights",
            Say("exercise.output_vector.scores_not_weights"),
            lambda p: OutputVector.blend(p, SoftmaxWeight.scores(p)),
        ),
    )

    @staticmethod
    def blend(p: dict, a: list[float]) -> list[float]:
        return [sum(a[j] * p["V"][j][c] for j in range(3)) for c in range(2)]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {
            "q": random_vector(rng, 2),
            "K": [random_vector(rng, 2) for _ in range(3)],
            "V": [random_vector(rng, 2) for _ in range(3)],
        }

    def solve(self, p: dict) -> list[float]:
        return self.blend(p, softmax(SoftmaxWeight.scores(p)))

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        rows = ", ".join(
            said("exercise.output_vector.pair", k=eq(mi("k", i + 1), mvec(k, c)), v=eq(mi("v", i + 1), mvec(v, c)))
            for i, (k, v) in enumerate(zip(p["K"], p["V"], strict=True))
        )
        form = "(x; y)" if c else "(x, y)"
        return said(
            "exercise.output_vector.statement",
            q=eq(mi("q"), mvec(p["q"], c)),
            rows=rows,
            d_k=eq(DK, mn(2, c)),
            T=eq(mi("T"), mn(1, c)),
            o=mathml(OUTPUT),
            form=form,
        )
