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
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any, Callable

from .attention import softmax
from .locale import Say, base_language, catalogue, t, unisolated
from .nowrap import keep_formulas_with_text


def _escape(text: str, quote: bool = True) -> str:
    """What ``html.escape`` does, without importing ``html`` (and its table of entities)
    when the worker starts."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&#x27;") if quote else text


MINUS = "\u2212"
SEED_LIMIT = 2 ** 31  # seeds are whole numbers from 0 to SEED_LIMIT - 1

# Languages (primary subtags of an HTML lang code) whose readers write 0,45 for 0.45.
_DECIMAL_COMMA = frozenset(
    "af az be bg bs ca cs da de el es et eu fi fo fr gl hr hu hy id is it ka kk ky lt lv mk mn nb "
    "nl nn no pl pt ro ru sk sl sq sr sv tr uk uz vi".split())


def uses_decimal_comma(language: str) -> bool:
    """Whether readers of ``language`` (site.yml's HTML lang code, e.g. "de", "pt-BR") write a
    decimal comma. The one place exercises decide it: the build, the statements and the
    answer reader all ask here. A language with a catalogue (engine/locales/) says so by
    its ``number.decimal``; for the others the list above decides."""
    shipped = catalogue(language).get("number.decimal")
    if shipped:
        return shipped == ","
    return base_language(language or "") in _DECIMAL_COMMA


class SeedError(ValueError):
    """A seed that is not a whole number in range; the message says what a seed is.
    ``got`` is what was given, as the message quotes it (the reader's worker words the
    message in the page's language from it)."""

    def __init__(self, got: str) -> None:
        super().__init__(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, got {got}")
        self.got = got


def parse_seed(text: Any) -> int:
    """A seed from a page address or a ``:seed:`` option: a whole number from 0 to 2^31 - 1."""
    if isinstance(text, bool):
        raise SeedError(repr(text))
    if isinstance(text, int):
        seed = text
    else:
        typed = str(text).strip()
        if not re.fullmatch(r"[0-9]{1,10}", typed):
            raise SeedError(f"'{typed[:20]}{'…' if len(typed) > 20 else ''}'")
        seed = int(typed)
    if not 0 <= seed < SEED_LIMIT:
        raise SeedError(str(seed))
    return seed


# --- reading an answer ------------------------------------------------------------------------

class AnswerError(ValueError):
    """What the reader typed is not of the expected form; the message says which form."""


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _number(text: str, decimal_comma: bool) -> float:
    text = unisolated(text).strip().replace(MINUS, "-").replace("\u2009", "").replace(" ", "")
    if decimal_comma:
        text = text.replace(",", ".")
    if not _NUMBER.match(text):
        raise ValueError(text)
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(text)
    return x


def expected_form(kind: str, n: int = 2, decimal_comma: bool = False) -> str:
    """How the expected answer is described to the reader, in the reader's notation and
    the words of the page's language (engine/locale.py)."""
    def number(text: str) -> str:
        return text.replace(".", ",") if decimal_comma else text
    if kind == "vector":
        example = ("; " if decimal_comma else ", ").join(number(x) for x in ["1.2", f"{MINUS}0.4", "0.5"][:n])
        return t("runtime.answer_vector", n=n, example=example)
    if kind in ("weight", "percent"):
        return t("runtime.answer_weight", a=number("0.45"), b=t("number.percent").replace("{}", "45"))
    return t("runtime.answer_number", example=number("1.25"))


def read_answer(text: str, kind: str, n: int = 2, decimal_comma: bool = False) -> float | list[float]:
    """The reader's answer as a number or a list of ``n`` numbers; AnswerError if unreadable."""
    typed = str(text).strip()
    form = expected_form(kind, n, decimal_comma)
    if not typed:
        raise AnswerError(t("runtime.answer_missing", form=form))
    try:
        if kind == "vector":
            inner = typed[1:-1] if typed[:1] in "([" and typed[-1:] in ")]" else typed
            # With a decimal comma the numbers are parted by ";"; without one "," parts
            # them, as "(1.2, -0.4)" is read in every language.
            parts = inner.split(";") if decimal_comma and ";" in inner else re.split(r"[,;]", inner)
            if len(parts) != n:
                raise ValueError(typed)
            return [_number(p, decimal_comma) for p in parts]
        if kind in ("weight", "percent") and typed.endswith("%"):
            return _number(typed[:-1], decimal_comma) / 100
        return _number(typed, decimal_comma)
    except ValueError:
        raise AnswerError(t("runtime.answer_unreadable", typed=typed[:40], form=form)) from None


# --- exercise types ---------------------------------------------------------------------------

KINDS = ("number", "percent", "vector", "weight")  # how answers are read; "weight" is "percent"

@dataclass(frozen=True)
class Mistake:
    """A wrong computation a reader is likely to make, and the hint it earns."""

    name: str  # its id, for tests
    hint: str | Say  # what the reader is told: words, or a catalogue key's Say (in the page's language)
    value: Callable[[dict], Any]  # the answer this mistake gives for a problem


@dataclass(frozen=True)
class Verdict:
    ok: bool  # the answer is right within the tolerance
    message: str  # what the reader is told
    mistake: str = ""  # the recognised mistake, if any


class Exercise:
    """Base of an exercise type. A subclass sets ``name`` (the ``{exercise}`` directive's
    argument), ``kind``, ``tolerance`` and ``mistakes``, and writes ``generate``,
    ``solve`` and ``statement``; ``register`` (the figures' decorator) makes it available.
    The built-in types below and an author's own (in the site's figures/ folder, see
    docs/writing-a-figure.md) are written the same way."""

    name = ""
    kind = "number"  # how answers are read: number, percent (0.45 or 45 %; "weight" too) or vector
    tolerance = 0.005  # an answer within this of the true one (each coordinate) is right
    mistakes: tuple[Mistake, ...] = ()

    def generate(self, seed: int) -> dict:
        """The problem's numbers for ``seed``, drawn with ``random.Random(seed)`` only, so
        that the build and the reader's browser make the same problem."""
        raise NotImplementedError

    def solve(self, p: dict) -> Any:
        """The right answer: a number, or a list of numbers for a vector."""
        raise NotImplementedError

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        """The problem as HTML (text and MathML) with its numbers in the reader's notation."""
        raise NotImplementedError

    def answer_size(self, p: dict) -> int:
        """How many numbers an answer has (a vector's length; 1 otherwise)."""
        answer = self.solve(p)
        return len(answer) if isinstance(answer, list) else 1

    def problem(self, seed: int, decimal_comma: bool = False) -> dict:
        """What a page shows for ``seed``: the statement and the form an answer takes."""
        p = self.generate(seed)
        n = self.answer_size(p)
        return {"type": self.name, "seed": seed, "kind": self.kind, "n": n,
                "statement": self.statement(p, decimal_comma),
                "form": expected_form(self.kind, n, decimal_comma)}

    def grade(self, seed: int, typed: str, decimal_comma: bool = False) -> Verdict:
        """The verdict on ``typed`` for the problem of ``seed``."""
        return self.check(self.generate(seed), typed, decimal_comma)

    def close(self, a: Any, b: Any) -> bool:
        """Within the tolerance, an answer exactly at it included: the true answer may come
        out a last bit off (1.675 as 1.6749999999999998), and both ways of rounding it to
        two decimals, 1.67 and 1.68, are right."""
        slack = self.tolerance * (1 + 1e-9)
        if isinstance(a, list):
            return len(a) == len(b) and all(abs(x - y) <= slack for x, y in zip(a, b))
        return abs(a - b) <= slack

    def check(self, p: dict, typed: str, decimal_comma: bool = False) -> Verdict:
        n = self.answer_size(p)
        try:
            answer = read_answer(typed, self.kind, n, decimal_comma)
        except AnswerError as err:
            return Verdict(False, str(err))
        if self.close(answer, self.solve(p)):
            return Verdict(True, t("runtime.answer_right"))
        for mistake in self.mistakes:
            if self.close(answer, mistake.value(p)):
                return Verdict(False, str(mistake.hint), mistake.name)  # a hint may be a Say
        if self.kind == "weight" and not -self.tolerance <= answer <= 1 + self.tolerance:
            return Verdict(False, t("runtime.answer_weight_range"))  # "150%": no weight is
        return Verdict(False, t("runtime.answer_wrong"))


def random_vector(rng: random.Random, d: int) -> list[float]:
    """``d`` numbers from -2 to 2 in steps of 0.1, none zero: easy to work by hand."""
    return [rng.choice([-1, 1]) * rng.randint(1, 20) / 10 for _ in range(d)]


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def _fmt(x: float, decimal_comma: bool = False) -> str:
    """A number as a statement writes it: at most two decimals, a typographic minus."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    text = text.replace("-", MINUS)
    return text.replace(".", ",") if decimal_comma else text


# --- statements: text and MathML, written without a TeX converter --------------------------------
# A statement is HTML: words, and inline formulas made with ``mathml`` (or ``eq``) from
# variables (``mi``), numbers (``mn``), operators (``mo``) and vectors (``mvec``). The
# numbers take ``decimal_comma`` so that they are written in the reader's notation.

def mi(name: str, sub: str | int | None = None) -> str:
    """A variable, with a subscript (a letter or a position)."""
    base = f"<mi>{_escape(name)}</mi>"
    if sub is None:
        return base
    low = f"<mn>{sub}</mn>" if isinstance(sub, int) else f"<mi>{_escape(sub)}</mi>"
    return f"<msub>{base}{low}</msub>"


def mn(x: float, decimal_comma: bool = False) -> str:
    """A number with at most two decimals, in the reader's notation."""
    text = _fmt(x, decimal_comma)
    if text.startswith(MINUS):
        return f"<mrow><mo>{MINUS}</mo><mn>{text[1:]}</mn></mrow>"  # first in its row: a prefix, set tight
    return f"<mn>{text}</mn>"


def mo(op: str) -> str:
    """An operator or a sign: mo("=") , mo("\u22c5") for a dot product, mo("+")."""
    return f"<mo>{_escape(op)}</mo>"


def mvec(v: list[float], decimal_comma: bool = False) -> str:
    """A vector, written as the site's math converter writes (1.2, -0.4)."""
    comma = ";" if decimal_comma else ","
    inner = f"<mo>{comma}</mo>".join(mn(x, decimal_comma) for x in v)
    return f'<mo stretchy="false">(</mo>{inner}<mo stretchy="false">)</mo>'


def mathml(*parts: str) -> str:
    """An inline formula of the parts, e.g. mathml(mi("q"), mo("\u22c5"), mi("k"))."""
    return ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>'
            + "".join(parts) + "</mrow></math>")


def eq(left: str, right: str) -> str:
    """An inline formula ``left = right``, e.g. eq(mi("q"), mvec([1, -0.5]))."""
    return mathml(left, "<mo>=</mo>", right)


_DK = mi("d", "k")
_SCALED = "".join([mi("s"), "<mo>=</mo>", mi("q"), "<mo>\u22c5</mo>", mi("k"), "<mo>/</mo>",
                   f"<msqrt>{_DK}</msqrt>"])
_OUTPUT = "".join([mi("o"), "<mo>=</mo>", "<munder><mo movablelimits=\"true\">\u2211</mo><mi>j</mi></munder>",
                   mi("a", "j"), mi("v", "j")])


def plain(words: str) -> str:
    """Words for a statement, with <, > and & escaped."""
    return _escape(words, quote=False)


def said(key: str, **formulas: str) -> str:
    """The words of catalogue ``key`` in the current language (engine/locale.py), escaped
    as ``plain`` escapes them, with ``formulas`` (MathML, numbers) in their fields, each
    kept on the line of the text touching it (nowrap.py)."""
    return keep_formulas_with_text(plain(t(key)).format(**formulas))


class ScaledScore(Exercise):
    """s = q . k / sqrt(d_k) for one query and one key."""

    name = "scaled-score"
    kind = "number"
    mistakes = (
        Mistake("forgot-sqrt-d", Say("exercise.scaled_score.forgot_sqrt_d"),
                lambda p: _dot(p["q"], p["k"])),
        Mistake("divided-by-d", Say("exercise.scaled_score.divided_by_d"),
                lambda p: _dot(p["q"], p["k"]) / len(p["q"])),
    )

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        d = rng.choice([2, 3, 4])
        return {"q": random_vector(rng, d), "k": random_vector(rng, d)}

    def solve(self, p: dict) -> float:
        return _dot(p["q"], p["k"]) / math.sqrt(len(p["q"]))

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        return said("exercise.scaled_score.statement", q=eq(mi("q"), mvec(p["q"], c)),
                    k=eq(mi("k"), mvec(p["k"], c)), d_k=eq(_DK, mn(len(p["q"]), c)), score=mathml(_SCALED))


class SoftmaxWeight(Exercise):
    """The weight a_j of one of three keys for one query, at temperature T."""

    name = "softmax-weight"
    kind = "weight"
    mistakes = (
        Mistake("forgot-sqrt-d", Say("exercise.softmax_weight.forgot_sqrt_d"),
                lambda p: softmax([_dot(p["q"], k) for k in p["K"]], p["T"])[p["j"]]),
        Mistake("forgot-temperature", Say("exercise.softmax_weight.forgot_temperature"),
                lambda p: softmax(SoftmaxWeight.scores(p))[p["j"]]),
        Mistake("raw-score", Say("exercise.softmax_weight.raw_score"),
                lambda p: SoftmaxWeight.scores(p)[p["j"]]),
        Mistake("max-not-softmax", Say("exercise.softmax_weight.max_not_softmax"),
                lambda p: 1.0 if max(range(3), key=lambda i: SoftmaxWeight.scores(p)[i]) == p["j"] else 0.0),
    )

    @staticmethod
    def scores(p: dict) -> list[float]:
        return [_dot(p["q"], k) / math.sqrt(len(p["q"])) for k in p["K"]]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {"q": random_vector(rng, 2), "K": [random_vector(rng, 2) for _ in range(3)],
                "T": rng.choice([0.5, 2.0]), "j": rng.randrange(3)}

    def solve(self, p: dict) -> float:
        return softmax(self.scores(p), p["T"])[p["j"]]

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        keys = ", ".join(eq(mi("k", i + 1), mvec(k, c)) for i, k in enumerate(p["K"]))
        j = p["j"] + 1
        return said("exercise.softmax_weight.statement", q=eq(mi("q"), mvec(p["q"], c)), keys=keys,
                    d_k=eq(_DK, mn(2, c)), T=eq(mi("T"), mn(p["T"], c)), a_j=mathml(mi("a", j)), j=j)


class OutputVector(Exercise):
    """The output o = sum_j a_j v_j of one query over three tokens."""

    name = "output-vector"
    kind = "vector"
    tolerance = 0.01
    mistakes = (
        Mistake("forgot-sqrt-d", Say("exercise.output_vector.forgot_sqrt_d"),
                lambda p: OutputVector.blend(p, softmax([_dot(p["q"], k) for k in p["K"]]))),
        Mistake("plain-average", Say("exercise.output_vector.plain_average"),
                lambda p: OutputVector.blend(p, [1 / 3] * 3)),
        Mistake("scores-not-weights", Say("exercise.output_vector.scores_not_weights"),
                lambda p: OutputVector.blend(p, SoftmaxWeight.scores(p))),
    )

    @staticmethod
    def blend(p: dict, a: list[float]) -> list[float]:
        return [sum(a[j] * p["V"][j][c] for j in range(3)) for c in range(2)]

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)
        return {"q": random_vector(rng, 2), "K": [random_vector(rng, 2) for _ in range(3)],
                "V": [random_vector(rng, 2) for _ in range(3)]}

    def solve(self, p: dict) -> list[float]:
        return self.blend(p, softmax(SoftmaxWeight.scores(p)))

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma
        rows = ", ".join(said("exercise.output_vector.pair", k=eq(mi("k", i + 1), mvec(k, c)),
                              v=eq(mi("v", i + 1), mvec(v, c)))
                         for i, (k, v) in enumerate(zip(p["K"], p["V"])))
        form = "(x; y)" if c else "(x, y)"
        return said("exercise.output_vector.statement", q=eq(mi("q"), mvec(p["q"], c)), rows=rows,
                    d_k=eq(_DK, mn(2, c)), T=eq(mi("T"), mn(1, c)), o=mathml(_OUTPUT), form=form)


EXERCISES: dict[str, Exercise] = {e.name: e for e in (ScaledScore(), SoftmaxWeight(), OutputVector())}


def glyphs() -> str:
    """MathML holding every character a statement can draw, in either notation: the
    build keeps these in the subset math font, since fresh problems are written in the
    browser after the build."""
    numbers = mn(-0.123456789, False) + mn(1.5, True) + mvec([1, 2], True) + mvec([1, 2], False)
    return "".join(e.statement(e.generate(1), comma) for e in EXERCISES.values() for comma in (False, True)) \
        + mathml(numbers, "<mn>0123456789</mn>")
