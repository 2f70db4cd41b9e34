"""Numbers written for readers, in a language's rules: the one formatter of the engine,
the exercises, the build and the stills.

A language's rules are its catalogue's ``number.*`` words (``Rules.of``): decimal
separator, thousands separator (grouping from ``group_min`` digits), percent pattern
and the separator of a vector's numbers; every negative number takes the typographic
minus. static/js/numbers.js is the JavaScript twin; both are checked against one table
of cases, tests/fixtures/number-cases.json (tests/test_numbers.py runs it here,
tests/node/numbers.mjs in Node).

    fixed(-0.5)            -> '−0.50'    (never '−0.00': a negative rounded to zero is '0.00')
    trimmed(0.50)          -> '0.5'      (at most ``digits`` decimals, no trailing zeros)
    percent(0.042)         -> '4.2%'     (one decimal below 10%, whole numbers above)
    vector([0.5, -1], 2)   -> '(0.50, −1.00)'
    localized('-12345.5', GERMAN-like rules) -> '−12.345,5'

Stdlib only: the engine runs in Pyodide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

MINUS = "\u2212"  # the typographic minus sign


class Rules(NamedTuple):
    """How a language writes numbers (indexable as the tuple locale.number_format() was)."""

    decimal: str = "."
    group: str = ""  # the thousands separator; "" writes none
    group_min: int = 5  # a whole part of fewer digits is not grouped ("1234", "12 345")
    percent: str = "{}%"
    list: str = ", "  # between the numbers of a vector

    @classmethod
    def of(cls, messages: Mapping[str, str]) -> Rules:
        """The rules a catalogue's number.* words give."""
        return cls(
            messages["number.decimal"],
            messages["number.group"],
            int(messages["number.group_min"]),
            messages["number.percent"],
            messages["number.list"],
        )


ENGLISH = Rules()


def localized(text: str, rules: Rules = ENGLISH) -> str:
    """A number written the Python way ('-1234.50') in ``rules``: its decimal separator,
    its grouping of thousands and the typographic minus."""
    sign, body = (MINUS, text[1:]) if text[:1] == "-" else ("", text)
    point = body.find(".")
    if (point if point >= 0 else len(body)) < rules.group_min:  # no thousands to group: most numbers
        return sign + (body if rules.decimal == "." or point < 0 else body.replace(".", rules.decimal))
    whole, dot, fraction = body.partition(".")
    if whole.isdigit():
        whole = f"{int(whole):,}".replace(",", rules.group)
    return sign + whole + (rules.decimal + fraction if dot else "")


def fixed(x: float, digits: int = 2, rules: Rules = ENGLISH) -> str:
    """``x`` with ``digits`` decimals; a negative number rounded to zero is written without
    its minus ('0.00', not '−0.00')."""
    text = f"{x:.{digits}f}"
    if text[0] == "-" and not text.strip("-0."):
        text = text[1:]
    return localized(text, rules)


def trimmed(x: float, digits: int = 2, rules: Rules = ENGLISH) -> str:
    """``x`` with at most ``digits`` decimals and no trailing zeros ('0.5', '3', '−1.25')."""
    text = f"{x:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return localized(text, rules)


def percent(w: float, rules: Rules = ENGLISH) -> str:
    """A weight as a percentage: one decimal below 10%, whole numbers above."""
    if w == 0.0:
        return rules.percent.format("0")
    return rules.percent.format(localized(f"{100 * w:.{1 if w < 0.1 else 0}f}", rules))


def vector(xs: Iterable[float], digits: int = 2, rules: Rules = ENGLISH) -> str:
    """A vector: '(0.50, −1.00)'; in German '(0,50; −1,00)'."""
    return "(" + rules.list.join(fixed(x, digits, rules) for x in xs) + ")"
