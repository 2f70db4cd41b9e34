"""The exercise "scaled-score": s = q . k / sqrt(d_k) for one query and one key."""

from __future__ import annotations

import math
import random

from ..locale import Say
from .kit import Exercise, Mistake, _dot, random_vector
from .mathml import DK, SCALED, eq, mathml, mi, mn, mvec, said


class ScaledScore(Exercise):
    """s = q . k / sqrt(d_k) for one query and one key."""

    name = "scaled-score"
    mistakes = (
        Mistake("forgot-sqrt-d", Say("exercise.scaled_score.forgot_sqrt_d"), lambda p: _dot(p["q"], p["k"])),
        Mistake(
            "divided-by-d", Say("exercise.scaled_score.divided_by_d"), lambda p: _dot(p["q"], p["k"]) / len(p["q"])
        ),
    )

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        d = rng.choice([2, 3, 4])
        return {"q": random_vector(rng, d), "k": random_vector(rng, d)}

    def solve(self, p: dict) -> float:
        return _dot(p["q"], p["k"]) / math.sqrt(len(p["q"]))

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        return said(
            "exercise.scaled_score.statement",
            q=eq(mi("q"), mvec(p["q"], c)),
            k=eq(mi("k"), mvec(p["k"], c)),
            d_k=eq(DK, mn(len(p["q"]), c)),
            score=mathml(SCALED),
        )
