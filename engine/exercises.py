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
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any, Callable

from .attention import softmax

MINUS = "\u2212"


# --- reading an answer ------------------------------------------------------------------------

class AnswerError(ValueError):
    """What the reader typed is not of the expected form; the message says which form."""


FORMS = {  # kind -> how the expected form is described to the reader
    "number": "a number, such as 1.25",
    "weight": "a number from 0 to 1 or a percentage, such as 0.45 or 45%",
    "vector": "a vector of {n} numbers, such as ({example})",
}
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _number(text: str, decimal_comma: bool) -> float:
    text = text.strip().replace(MINUS, "-").replace("\u2009", "").replace(" ", "")
    if decimal_comma:
        text = text.replace(",", ".")
    if not _NUMBER.match(text):
        raise ValueError(text)
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(text)
    return x


def read_answer(text: str, kind: str, n: int = 2, decimal_comma: bool = False) -> float | list[float]:
    """The reader's answer as a number or a list of ``n`` numbers; AnswerError if unreadable."""
    typed = str(text).strip()
    example = ", ".join(["1.2", f"{MINUS}0.4", "0.5"][:n]) if not decimal_comma else \
        "; ".join(["1,2", f"{MINUS}0,4", "0,5"][:n])
    form = FORMS[kind].format(n=n, example=example)
    if not typed:
        raise AnswerError(f"Type your answer: {form}.")
    try:
        if kind == "vector":
            inner = typed[1:-1] if typed[:1] in "([" and typed[-1:] in ")]" else typed
            parts = [p for p in re.split(r";" if decimal_comma else r"[,;]", inner)]
            if len(parts) != n:
                raise ValueError(typed)
            return [_number(p, decimal_comma) for p in parts]
        if kind == "weight" and typed.endswith("%"):
            return _number(typed[:-1], decimal_comma) / 100
        return _number(typed, decimal_comma)
    except ValueError:
        raise AnswerError(f"“{typed[:40]}” is not {form}.") from None


# --- exercise types ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Mistake:
    """A wrong computation a reader is likely to make, and the hint it earns."""

    name: str  # its id, for tests
    hint: str  # what the reader is told
    value: Callable[[dict], Any]  # the answer this mistake gives for a problem


@dataclass(frozen=True)
class Verdict:
    ok: bool  # the answer is right within the tolerance
    message: str  # what the reader is told
    mistake: str = ""  # the recognised mistake, if any


class Exercise:
    """Base of an exercise type."""

    name = ""
    kind = "number"  # number, weight or vector: how answers are read
    tolerance = 0.005  # an answer within this of the true one (each coordinate) is right
    mistakes: tuple[Mistake, ...] = ()

    def generate(self, seed: int) -> dict:
        raise NotImplementedError

    def solve(self, p: dict) -> Any:
        raise NotImplementedError

    def statement(self, p: dict) -> str:
        """The problem in Markdown, with its numbers."""
        raise NotImplementedError

    def close(self, a: Any, b: Any) -> bool:
        if isinstance(a, list):
            return len(a) == len(b) and all(abs(x - y) <= self.tolerance for x, y in zip(a, b))
        return abs(a - b) <= self.tolerance

    def check(self, p: dict, typed: str, decimal_comma: bool = False) -> Verdict:
        n = len(self.solve(p)) if self.kind == "vector" else 2
        try:
            answer = read_answer(typed, self.kind, n, decimal_comma)
        except AnswerError as err:
            return Verdict(False, str(err))
        if self.close(answer, self.solve(p)):
            return Verdict(True, "Right.")
        for mistake in self.mistakes:
            if self.close(answer, mistake.value(p)):
                return Verdict(False, mistake.hint, mistake.name)
        return Verdict(False, "Not quite. Work through the formula step by step and try again.")


def _rng_vector(rng: random.Random, d: int) -> list[float]:
    return [rng.choice([-1, 1]) * rng.randint(1, 20) / 10 for _ in range(d)]


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def _fmt(x: float) -> str:
    """A number for a TeX statement (TeX's "-" is set as a minus sign)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _vec(v: list[float]) -> str:
    return "(" + ", ".join(_fmt(x) for x in v) + ")"


class ScaledScore(Exercise):
    """s = q . k / sqrt(d_k) for one query and one key."""

    name = "scaled-score"
    kind = "number"
    mistakes = (
        Mistake("forgot-sqrt-d", "You computed q·k but did not divide by √d_k.",
                lambda p: _dot(p["q"], p["k"])),
        Mistake("divided-by-d", "You divided by d_k; the score is divided by its square root, √d_k.",
                lambda p: _dot(p["q"], p["k"]) / len(p["q"])),
    )

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        d = rng.choice([2, 3, 4])
        return {"q": _rng_vector(rng, d), "k": _rng_vector(rng, d)}

    def solve(self, p: dict) -> float:
        return _dot(p["q"], p["k"]) / math.sqrt(len(p["q"]))

    def statement(self, p: dict) -> str:
        return (f"A query $q = {_vec(p['q'])}$ meets a key $k = {_vec(p['k'])}$ "
                f"($d_k = {len(p['q'])}$). What is their scaled score $s = q \\cdot k / \\sqrt{{d_k}}$? "
                "Give two decimals.")


class SoftmaxWeight(Exercise):
    """The weight a_j of one of three keys for one query, at temperature T."""

    name = "softmax-weight"
    kind = "weight"
    mistakes = (
        Mistake("forgot-sqrt-d", "You left out the division by √d_k before the softmax.",
                lambda p: softmax([_dot(p["q"], k) for k in p["K"]], p["T"])[p["j"]]),
        Mistake("forgot-temperature", "You left out the temperature: divide each score by T before the softmax.",
                lambda p: softmax(SoftmaxWeight.scores(p))[p["j"]]),
        Mistake("raw-score", "That is the score s_j itself; the weight is its softmax.",
                lambda p: SoftmaxWeight.scores(p)[p["j"]]),
        Mistake("max-not-softmax", "You gave the whole weight to the best match; the softmax shares it out.",
                lambda p: 1.0 if max(range(3), key=lambda i: SoftmaxWeight.scores(p)[i]) == p["j"] else 0.0),
    )

    @staticmethod
    def scores(p: dict) -> list[float]:
        return [_dot(p["q"], k) / math.sqrt(len(p["q"])) for k in p["K"]]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {"q": _rng_vector(rng, 2), "K": [_rng_vector(rng, 2) for _ in range(3)],
                "T": rng.choice([0.5, 2.0]), "j": rng.randrange(3)}

    def solve(self, p: dict) -> float:
        return softmax(self.scores(p), p["T"])[p["j"]]

    def statement(self, p: dict) -> str:
        keys = ", ".join(f"$k_{i + 1} = {_vec(k)}$" for i, k in enumerate(p["K"]))
        return (f"A query $q = {_vec(p['q'])}$ meets three keys {keys} ($d_k = 2$) at temperature "
                f"$T = {_fmt(p['T'])}$. What weight $a_{p['j'] + 1}$ does key {p['j'] + 1} get? "
                "A number from 0 to 1 or a percentage.")


class OutputVector(Exercise):
    """The output o = sum_j a_j v_j of one query over three tokens."""

    name = "output-vector"
    kind = "vector"
    tolerance = 0.01
    mistakes = (
        Mistake("forgot-sqrt-d", "Your weights skip the division by √d_k.",
                lambda p: OutputVector.blend(p, softmax([_dot(p["q"], k) for k in p["K"]]))),
        Mistake("plain-average", "That is the plain average of the values; weight each by its softmax share.",
                lambda p: OutputVector.blend(p, [1 / 3] * 3)),
        Mistake("scores-not-weights", "You weighted the values by the scores; take their softmax first.",
                lambda p: OutputVector.blend(p, SoftmaxWeight.scores(p))),
    )

    @staticmethod
    def blend(p: dict, a: list[float]) -> list[float]:
        return [sum(a[j] * p["V"][j][c] for j in range(3)) for c in range(2)]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {"q": _rng_vector(rng, 2), "K": [_rng_vector(rng, 2) for _ in range(3)],
                "V": [_rng_vector(rng, 2) for _ in range(3)]}

    def solve(self, p: dict) -> list[float]:
        return self.blend(p, softmax(SoftmaxWeight.scores(p)))

    def statement(self, p: dict) -> str:
        rows = ", ".join(f"$k_{i + 1} = {_vec(k)}$ with $v_{i + 1} = {_vec(v)}$"
                         for i, (k, v) in enumerate(zip(p["K"], p["V"])))
        return (f"A query $q = {_vec(p['q'])}$ attends over three tokens: {rows} ($d_k = 2$, $T = 1$). "
                "What is its output $o = \\sum_j a_j v_j$? Write it as (x, y).")


EXERCISES: dict[str, Exercise] = {e.name: e for e in (ScaledScore(), SoftmaxWeight(), OutputVector())}
