"""The exercise kit: seeds, reading an answer in the reader's notation, and the
``Exercise`` base class with its ``Mistake``s and ``Verdict``s (see the package's
docstring for the life of an exercise)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import numbers
from ..locale import Say, base_language, catalogue, t, unisolated


def _escape(text: str, quote: bool = True) -> str:
    """What ``html.escape`` does, without importing ``html`` (and its table of entities)
    when the worker starts."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&#x27;") if quote else text


MINUS = numbers.MINUS
SEED_LIMIT = 2**31  # seeds are whole numbers from 0 to SEED_LIMIT - 1

# Languages (primary subtags of an HTML lang code) whose readers write 0,45 for 0.45.
_DECIMAL_COMMA_LANGUAGES = (
    "af az be bg bs ca cs da de el es et eu fi fo fr gl hr hu hy id is it ka kk ky lt lv mk mn nb "
    "nl nn no pl pt ro ru sk sl sq sr sv tr uk uz vi"
)
_DECIMAL_COMMA = frozenset(_DECIMAL_COMMA_LANGUAGES.split())


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
    draws = 50  # how often ``generate`` draws again while a mistake's answer lands near the right one

    def generate(self, seed: int) -> dict:
        """The problem's numbers for ``seed``, drawn with ``random.Random(seed)`` only, so
        that the build and the reader's browser make the same problem. By default ``draw``
        makes them, drawn again (up to ``draws`` times) until each mistake is ``apart``
        from the right answer, so that every mistake can earn its hint."""
        rng = random.Random(seed)
        for _ in range(self.draws):
            p = self.draw(rng)
            if self.apart(p):
                break
        return p

    def draw(self, rng: random.Random) -> dict:
        """One problem's numbers, from ``rng`` only (``generate`` calls it)."""
        raise NotImplementedError

    def apart(self, p: dict) -> bool:
        """Whether every known mistake's answer is more than three tolerances from the right
        one (for a vector, in some coordinate)."""
        right = self.solve(p)

        def gap(answer: Any) -> float:
            if isinstance(right, list):
                return max(abs(x - y) for x, y in zip(answer, right, strict=True))
            return abs(answer - right)

        return all(gap(m.value(p)) > 3 * self.tolerance for m in self.mistakes)

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
        return {
            "type": self.name,
            "seed": seed,
            "kind": self.kind,
            "n": n,
            "statement": self.statement(p, decimal_comma),
            "form": expected_form(self.kind, n, decimal_comma),
        }

    def grade(self, seed: int, typed: str, decimal_comma: bool = False) -> Verdict:
        """The verdict on ``typed`` for the problem of ``seed``."""
        return self.check(self.generate(seed), typed, decimal_comma)

    def close(self, a: Any, b: Any) -> bool:
        """Within the tolerance, an answer exactly at it included: the true answer may come
        out a last bit off (1.675 as 1.6749999999999998), and both ways of rounding it to
        two decimals, 1.67 and 1.68, are right."""
        slack = self.tolerance * (1 + 1e-9)
        if isinstance(a, list):
            return len(a) == len(b) and all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))
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
        if (
            self.kind == "weight"
            and not isinstance(answer, list)
            and not -self.tolerance <= answer <= 1 + self.tolerance
        ):
            return Verdict(False, t("runtime.answer_weight_range"))  # "150%": no weight is
        return Verdict(False, t("runtime.answer_wrong"))


def random_vector(rng: random.Random, d: int) -> list[float]:
    """``d`` numbers from -2 to 2 in steps of 0.1, none zero: easy to work by hand."""
    return [rng.choice([-1, 1]) * rng.randint(1, 20) / 10 for _ in range(d)]


def _dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


_POINT, _COMMA = numbers.Rules(), numbers.Rules(decimal=",")  # a statement groups no thousands


def _fmt(x: float, decimal_comma: bool = False) -> str:
    """A number as a statement writes it: at most two decimals, a typographic minus."""
    return numbers.trimmed(x, 2, _COMMA if decimal_comma else _POINT)
