"""Numeric exercises graded by the engine: a problem made from a seed, an answer read in
the reader's notation, and hints from the mistakes each exercise type recognises.

An exercise type is a small class, like a figure: ``generate(seed)`` makes the numbers
on screen, ``solve`` computes the answer with the same engine the figures use, and
``mistakes`` lists wrong computations a reader is likely to make, each with its hint:

    s_j = q . k_j / sqrt(d_k)         (Vaswani et al. 2017, eq. 1)
    a_j = exp(s_j / T) / sum_l exp(s_l / T)
    o   = sum_j a_j v_j

``check`` reads what the reader typed (a number, a percentage, a vector such as
"(1.2, −0.4)", with a typographic minus or a decimal comma) and returns a verdict: right
within the stated tolerance, a known mistake with its hint, wrong, or unreadable with
the form that is expected.

The same code runs twice: at build time for the page's own problem (its ``:seed:``), and
in the reader's browser, in the engine's worker, for "New numbers" and for a seed given
in the page's address (``#ex-2=417``): ``problem`` writes the statement (HTML with
MathML, so no TeX converter is needed in the browser) and ``grade`` checks an answer.
Whether a language writes a decimal comma is decided in one place,
``uses_decimal_comma``.

The package mirrors figures/: ``kit`` (seeds, answers, ``Exercise``), ``mathml`` (the
statements' formulas) and one module an exercise type.
"""

from __future__ import annotations

from ..registry import Registry
from .head_concat import HeadConcat
from .kit import (
    KINDS,
    MINUS,
    SEED_LIMIT,
    AnswerError,
    Exercise,
    Mistake,
    SeedError,
    Verdict,
    expected_form,
    parse_seed,
    random_vector,
    read_answer,
    uses_decimal_comma,
)
from .mathml import eq, mathml, mi, mmatrix, mn, mo, mvec, plain, said
from .offset_similarity import OffsetSimilarity
from .output_vector import OutputVector
from .projected_score import ProjectedScore
from .scaled_score import ScaledScore
from .softmax_weight import SoftmaxWeight

# the types defined here; others are registered by the figures' packages (figures/__init__.py)
EXERCISES: Registry[Exercise] = Registry(
    (e.name, e)
    for e in (ScaledScore(), SoftmaxWeight(), OutputVector(), ProjectedScore(), HeadConcat(), OffsetSimilarity())
)


def glyphs() -> str:
    """MathML holding every character a statement can draw, in either notation: the
    build keeps these in the subset math font, since fresh problems are written in the
    browser after the build."""
    numbers = mn(-0.123456789, False) + mn(1.5, True) + mvec([1, 2], True) + mvec([1, 2], False)
    return "".join(e.statement(e.generate(1), comma) for e in EXERCISES.values() for comma in (False, True)) + mathml(
        numbers, "<mn>0123456789</mn>"
    )


__all__ = [
    "EXERCISES",
    "KINDS",
    "MINUS",
    "SEED_LIMIT",
    "AnswerError",
    "Exercise",
    "HeadConcat",
    "Mistake",
    "OffsetSimilarity",
    "OutputVector",
    "ProjectedScore",
    "ScaledScore",
    "SeedError",
    "SoftmaxWeight",
    "Verdict",
    "eq",
    "expected_form",
    "glyphs",
    "mathml",
    "mi",
    "mmatrix",
    "mn",
    "mo",
    "mvec",
    "parse_seed",
    "plain",
    "random_vector",
    "read_answer",
    "said",
    "uses_decimal_comma",
]
