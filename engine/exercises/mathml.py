"""Statements: text and MathML, written without a TeX converter.

A statement is HTML: words, and inline formulas made with ``mathml`` (or ``eq``) from
variables (``mi``), numbers (``mn``), operators (``mo``) and vectors (``mvec``). The
numbers take ``decimal_comma`` so that they are written in the reader's notation.
"""

from __future__ import annotations

from ..locale import t
from ..nowrap import keep_formulas_with_text
from .kit import MINUS, _escape, _fmt

__all__ = ["eq", "mathml", "mi", "mmatrix", "mn", "mo", "mvec", "plain", "said"]  # a statement's builders


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


def mmatrix(W: list[list[float]], decimal_comma: bool = False) -> str:
    """A matrix in round brackets, one row of ``W`` a row, in the reader's notation."""
    rows = "".join("<mtr>" + "".join(f"<mtd>{mn(x, decimal_comma)}</mtd>" for x in row) + "</mtr>" for row in W)
    return f"<mrow><mo>(</mo><mtable>{rows}</mtable><mo>)</mo></mrow>"


def mathml(*parts: str) -> str:
    """An inline formula of the parts, e.g. mathml(mi("q"), mo("\u22c5"), mi("k"))."""
    return (
        '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>' + "".join(parts) + "</mrow></math>"
    )


def eq(left: str, right: str) -> str:
    """An inline formula ``left = right``, e.g. eq(mi("q"), mvec([1, -0.5]))."""
    return mathml(left, "<mo>=</mo>", right)


DK = mi("d", "k")
SCALED = "".join([mi("s"), "<mo>=</mo>", mi("q"), "<mo>\u22c5</mo>", mi("k"), "<mo>/</mo>", f"<msqrt>{DK}</msqrt>"])
OUTPUT = "".join(
    [
        mi("o"),
        "<mo>=</mo>",
        '<munder><mo movablelimits="true">\u2211</mo><mi>j</mi></munder>',
        mi("a", "j"),
        mi("v", "j"),
    ]
)


def plain(words: str) -> str:
    """Words for a statement, with <, > and & escaped."""
    return _escape(words, quote=False)


def said(key: str, **formulas: str) -> str:
    """The words of catalogue ``key`` in the current language (engine/locale.py), escaped
    as ``plain`` escapes them, with ``formulas`` (MathML, numbers) in their fields, each
    kept on the line of the text touching it (nowrap.py)."""
    return keep_formulas_with_text(plain(t(key)).format(**formulas))
