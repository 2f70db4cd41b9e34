"""The exercise "softmax-weight": one attention weight a_j of a query over a few keys."""

from __future__ import annotations

import math
import random

from ..attention import softmax
from ..locale import Say
from .kit import Exercise, Mistake, _dot, random_vector
from .mathml import DK, eq, mathml, mi, mn, mvec, said


class SoftmaxWeight(Exercise):
    """The weight a_j of one of three keys for one query, at temperature T."""

    name = "softmax-weight"
    kind = "weight"
    mistakes = (
        Mistake(
            "forgot-sqrt-d",
            Say("exercise.softmax_weight.forgot_sqrt_d"),
            lambda p: softmax([_dot(p["q"], k) for k in p["K"]], p["T"])[p["j"]],
        ),
        Mistake(
            "forgot-temperature",
            Say("exercise.softmax_weight.forgot_temperature"),
            lambda p: softmax(SoftmaxWeight.scores(p))[p["j"]],
        ),
        Mistake("raw-score", Say("exercise.softmax_weight.raw_score"), lambda p: SoftmaxWeight.scores(p)[p["j"]]),
        Mistake(
            "max-not-softmax",
            Say("exercise.softmax_weight.max_not_softmax"),
            lambda p: 1.0 if max(range(3), key=lambda i: SoftmaxWeight.scores(p)[i]) == p["j"] else 0.0,
        ),
    )

    @staticmethod
    def scores(p: dict) -> list[float]:
        return [_dot(p["q"], k) / math.sqrt(len(p["q"])) for k in p["K"]]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {
            "q": random_vector(rng, 2),
            "K": [random_vector(rng, 2) for _ in range(3)],
            "T": rng.choice([0.5, 2.0]),
            "j": rng.randrange(3),
        }

    def solve(self, p: dict) -> float:
        return softmax(self.scores(p), p["T"])[p["j"]]

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        keys = ", ".join(eq(mi("k", i + 1), mvec(k, c)) for i, k in enumerate(p["K"]))
        j = p["j"] + 1
        return said(
            "exercise.softmax_weight.statement",
            q=eq(mi("q"), mvec(p["q"], c)),
            keys=keys,
            d_k=eq(DK, mn(2, c)),
            T=eq(mi("T"), mn(p["T"], c)),
            a_j=mathml(mi("a", j)),
            j=j,
        )
