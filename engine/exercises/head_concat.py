"""The exercise "head-concat": two heads' outputs joined, [o^1, o^2] W_O (lesson 4).
Written with the public kit's names and the engine only, as an author's exercise type is."""

from __future__ import annotations

import random

from ..heads import split_blocks
from ..linalg import matmul
from ..locale import Say
from .kit import Exercise, Mistake, random_vector
from .mathml import eq, mathml, mi, mmatrix, mo, mvec, said


def _times(v: list[float], W: list[list[float]]) -> list[float]:
    return matmul([v], W)[0]


def _blocks(p: dict) -> tuple[list[list[float]], list[list[float]]]:
    """W_O's two blocks of rows: W_O^1 meets head 1's part, W_O^2 head 2's."""
    top, bottom = split_blocks(p["W_O"], [2, 2])
    return top, bottom


def _plus(a: list[float], b: list[float]) -> list[float]:
    return [x + y for x, y in zip(a, b, strict=True)]


class HeadConcat(Exercise):
    """MultiHead = [o^1, o^2] W_O = o^1 W_O^1 + o^2 W_O^2 for two 2-D head outputs and a 4 x 2 W_O."""

    name = "head-concat"
    kind = "vector"
    tolerance = 0.01
    mistakes = (
        Mistake(
            "added-heads",
            Say("exercise.head_concat.added_heads"),
            lambda p: _times(_plus(p["o1"], p["o2"]), _blocks(p)[0]),
        ),
        Mistake("head-1-only", Say("exercise.head_concat.head_1_only"), lambda p: _times(p["o1"], _blocks(p)[0])),
        Mistake(
            "swapped-blocks",
            Say("exercise.head_concat.swapped_blocks"),
            lambda p: _plus(_times(p["o1"], _blocks(p)[1]), _times(p["o2"], _blocks(p)[0])),
        ),
        Mistake("no-w-o", Say("exercise.head_concat.no_w_o"), lambda p: _plus(p["o1"], p["o2"])),
    )

    def draw(self, rng: random.Random) -> dict:
        o1, o2 = random_vector(rng, 2), random_vector(rng, 2)
        # whole numbers and halves: a reader multiplies them by hand
        W_O = [[rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0]) for _ in range(2)] for _ in range(4)]
        return {"o1": o1, "o2": o2, "W_O": W_O}

    def solve(self, p: dict) -> list[float]:
        return _times(p["o1"] + p["o2"], p["W_O"])  # the concatenation, a row of 4, times W_O

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        head = lambda r: f"<msup>{mi('o')}<mn>{r}</mn></msup>"  # noqa: E731
        output = mathml(mi("MultiHead"), mo("="), mo("["), head(1), mo(","), head(2), mo("]"), mi("W", "O"))
        return said(
            "exercise.head_concat.statement",
            o1=eq(head(1), mvec(p["o1"], c)),
            o2=eq(head(2), mvec(p["o2"], c)),
            W_O=eq(mi("W", "O"), mmatrix(p["W_O"], c)),
            output=output,
            form="(x; y)" if c else "(x, y)",
        )
