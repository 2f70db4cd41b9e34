"""The exercise "offset-similarity": PE(t) . PE(t + k) / (D/2), the similarity of two
sinusoidal position codes k places apart (lesson 5). Written with the public kit's names
and the engine only, as an author's exercise type is."""

from __future__ import annotations

import math
import random

from ..locale import Say
from ..positional import frequencies, pe_similarity, pe_similarity_terms
from .kit import Exercise, Mistake
from .mathml import eq, mathml, mi, mn, mo, said


def _degrees(p: dict) -> float:
    """The similarity with each angle theta_i k read as degrees, as a calculator set so gives it."""
    terms = [math.cos(math.radians(theta * p["k"])) for theta in frequencies(p["D"], p["base"])]
    return sum(terms) / len(terms)


def _no_two(p: dict) -> float:
    """The similarity with theta_i = b^(-i/D), the 2 of the exponent left out."""
    D, b, k = p["D"], p["base"], p["k"]
    terms = [math.cos(b ** (-i / D) * k) for i in range(D // 2)]
    return sum(terms) / len(terms)


class OffsetSimilarity(Exercise):
    """The similarity at offset k of the codes of D = 4, 6 or 8 dimensions with a given base."""

    name = "offset-similarity"
    tolerance = 0.01
    mistakes = (
        Mistake(
            "not-averaged",
            Say("exercise.offset_similarity.not_averaged"),
            lambda p: math.fsum(pe_similarity_terms(p["k"], p["D"], p["base"])),
        ),
        Mistake("degrees", Say("exercise.offset_similarity.degrees"), _degrees),
        Mistake("exponent-without-2", Say("exercise.offset_similarity.exponent_without_2"), _no_two),
        Mistake("fastest-clock-only", Say("exercise.offset_similarity.fastest_clock_only"), lambda p: math.cos(p["k"])),
    )

    def draw(self, rng: random.Random) -> dict:
        return {"D": rng.choice([4, 6, 8]), "base": rng.choice([100, 1000, 10000]), "k": rng.randint(2, 16)}

    def solve(self, p: dict) -> float:
        return pe_similarity(p["k"], p["D"], p["base"])

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        similarity = mathml(
            mi("PE"),
            mo("("),
            mi("t"),
            mo(")"),
            mo("\u22c5"),
            mi("PE"),
            mo("("),
            mi("t"),
            mo("+"),
            mi("k"),
            mo(")"),
            mo("/"),
            mo("("),
            mi("D"),
            mo("/"),
            mn(2, c),
            mo(")"),
        )
        return said(
            "exercise.offset_similarity.statement",
            D=eq(mi("D"), mn(p["D"], c)),
            base=eq(mi("b"), mn(p["base"], c)),
            k=eq(mi("k"), mn(p["k"], c)),
            similarity=similarity,
        )
