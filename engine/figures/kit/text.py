"""Numbers and words for people: the one format every figure writes its numbers in.

A figure never formats a number by hand: ``num`` (fixed decimals, a typographic minus,
no "−0.00"), ``vec`` for a vector, ``pct`` for a weight. ``Value`` formats use them too,
so a number reads the same in the figure, in its read-outs and in the prose around it.
They write numbers the way the site's language does (engine/numbers.py, in the rules of
engine/locale.py): a decimal comma
and "50 %" in German, grouped thousands in both; in Hebrew each number (a whole vector,
a percentage) is an isolated left-to-right run, so it reads the same inside Hebrew words.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ... import numbers
from ...locale import Say, isolated, number_format, t, typed

MINUS = numbers.MINUS  # the typographic minus sign the kit writes


def spoken(words: Any) -> Any:
    """Text in the current language for a ``Say``; anything else as it is."""
    return words() if isinstance(words, Say) else words


def num(x: float, digits: int = 2) -> str:
    """A number for display with a typographic minus and no '−0.00': num(-0.5) == '−0.50'
    (in German '−0,50')."""
    return isolated(numbers.fixed(x, digits, number_format()))


def vec(p, digits: int = 2) -> str:
    """A vector for display: (0.50, −1.00); in German (0,50; −1,00)."""
    return isolated(numbers.vector(p, digits, number_format()))


def pct(w: float) -> str:
    """A weight as a percentage: one decimal below 10%, whole numbers above."""
    return isolated(numbers.percent(w, number_format()))


def formula(text: str) -> str:
    """A formula written among words ("= 0.79×0.12 + 0.06×0.40"), kept as one
    left-to-right run in a right-to-left language, so its terms keep their order beside
    Hebrew words; unchanged in English and German."""
    return isolated(text)


def quote(word: str) -> str:
    """A token quoted for prose, so that "." or "the" reads as a word of the sentence
    (“the” in English, „the“ in German)."""
    return t("figure.quote", word=word)


def field_text(x: float) -> str:
    """A number for a text field: the shortest text that reads back as exactly x, with
    the language's decimal separator (parse_number reads it back)."""
    text = repr(float(x))
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else typed(text)


SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    """A whole number as a subscript, for a position in a label or a formula: 12 -> ₁₂."""
    return str(n).translate(SUBSCRIPTS)


def setting(x: float) -> str:
    """A setting as a sentence names it and a reader types it: 0.1 (0,1 in German), 1e+05."""
    return typed(f"{x:g}")


def shown(value: Any) -> str:
    """A reader's input as they gave it, for an error message: 3.0 from a slider as 3."""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value).strip()


def clip(text: str, limit: int = 40) -> str:
    """A reader's or author's text quoted in a message, cut to ``limit`` characters."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Words:
    """A figure's words: the catalogue keys under its prefix, declared as data.

    ``say = Words("figure.kv_cache")`` then ``TITLE = say("title")`` is
    ``Say("figure.kv_cache.title")`` (``say("status", t=3)`` with fields, as ``Say`` takes
    them); ``say.all("x_grow x_grow_title")`` gives a tuple of
    them, ``say.table(peaked="kind_peaked")`` (or a dict, for keys that are not names) a
    dict. A key of another prefix is written whole: ``say("figure.key.positive")``. Every
    key declared is kept in ``Words.declared``, which the catalogue test reads."""

    declared: ClassVar[set[str]] = set()

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, name: str, **fields: Any) -> Say:
        key = name if name.startswith("figure.") else f"{self.prefix}.{name}"
        Words.declared.add(key)
        return Say(key, **fields)

    def all(self, names: str) -> tuple[Say, ...]:
        """Several words, named in one string separated by spaces."""
        return tuple(self(name) for name in names.split())

    def button(self, name: str, **fields: Any) -> tuple[Say, Say]:
        """An experiment's label and title: ``name`` and ``name_title``, an experiment's
        ``-`` written ``_`` (``say.button("hide-future")``), ``fields`` filled in both."""
        key = name.replace("-", "_")
        return self(key, **fields), self(f"{key}_title", **fields)

    def table(self, names: dict[str, str] | None = None, **more: str) -> dict[str, Say]:
        """A dict of words: {what: key}, in the order given."""
        return {what: self(name) for what, name in {**(names or {}), **more}.items()}
