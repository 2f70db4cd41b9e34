"""The exercise "rotary-score": a 2-D query at position t and a key at position u, each
turned clockwise by theta per position (lesson 5's rotation R); their score.

    q_t . k_u = (q R_t) . (k R_u) = (q R_(t-u)) . k

Written as an author writes an exercise type, with the public kit only, and registered
with it: the rotary-positions figure's package imports this module.
"""

from __future__ import annotations

import math
import random

from explorables.figures import Exercise, Mistake, Say, eq, mathml, mi, mn, mo, mvec, random_vector, register, said

ANGLES = (30, 45, 60, 90)  # degrees a position: cosines and sines a reader knows


def turned(v: list[float], degrees: float) -> list[float]:
    """``v`` turned clockwise by ``degrees``, as lesson 5's clock hands turn."""
    a = math.radians(degrees)
    return [v[0] * math.cos(a) + v[1] * math.sin(a), -v[0] * math.sin(a) + v[1] * math.cos(a)]


def dot(a: list[float], b: list[float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def score(p: dict, t_turn: float, u_turn: float) -> float:
    """The score with the query turned ``t_turn`` positions and the key ``u_turn``."""
    return dot(turned(p["q"], p["theta"] * t_turn), turned(p["k"], p["theta"] * u_turn))


@register
class RotaryScore(Exercise):
    """q_t . k_u for a 2-D query and key turned by theta times their positions."""

    name = "rotary-score"
    tolerance = 0.01
    mistakes = (
        Mistake("not-turned", Say("exercise.rotary_score.not_turned"), lambda p: dot(p["q"], p["k"])),
        Mistake("query-only", Say("exercise.rotary_score.query_only"), lambda p: score(p, p["t"], 0)),
        Mistake("opposite-ways", Say("exercise.rotary_score.opposite_ways"), lambda p: score(p, p["t"], -p["u"])),
    )

    def draw(self, rng: random.Random) -> dict:
        """Two positions, neither 0 (``generate`` draws again until the answers are ``apart``)."""
        q, k = random_vector(rng, 2), random_vector(rng, 2)
        theta, (t_, u) = rng.choice(ANGLES), rng.sample(range(1, 7), 2)
        return {"q": q, "k": k, "theta": theta, "t": t_, "u": u}

    def apart(self, p: dict) -> bool:
        """The right answer and every mistake's more than 0.05 from each other: each hint is told apart."""
        answers = sorted([self.solve(p), *(m.value(p) for m in self.mistakes)])
        return min(answers[i + 1] - answers[i] for i in range(len(answers) - 1)) > 0.05

    def solve(self, p: dict) -> float:
        return score(p, p["t"], p["u"])

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        return said(
            "exercise.rotary_score.statement",
            q=eq(mi("q"), mvec(p["q"], c)),
            t=eq(mi("t"), mn(p["t"], c)),
            k=eq(mi("k"), mvec(p["k"], c)),
            u=eq(mi("u"), mn(p["u"], c)),
            theta=eq(mi("θ"), mn(p["theta"], c) + mo("°")),
            score=mathml(mi("q", "t"), mo("⋅"), mi("k", "u")),
        )
