"""TeX math -> MathML at build time, so pages carry no math JavaScript.

Chromium draws MathML Core natively; the stylesheet picks a math font when the reader has
one and falls back to the system serif otherwise.
"""
from __future__ import annotations

import re

from latex2mathml.converter import convert

_UNKNOWN = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")
# A named function (sin, log, ...) followed by anything but an opening parenthesis:
# latex2mathml sets the two side by side ("sina"), TeX puts a thin space between them.
_FUNCTION = re.compile(r"(<mi>(?:sin|cos|tan|log|ln|exp|max|min|arg|det|lim|sup|inf)</mi>)(?!<mo[^>]*>&#x00028;)")


class MathError(ValueError):
    """TeX that cannot be turned into MathML; the message says what to fix."""


def tex_to_mathml(tex: str, display: bool) -> str:
    try:
        mathml = convert(tex.strip(), display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises several bare exception types
        detail = str(err) or type(err).__name__
        raise MathError(f"cannot read the TeX '{tex.strip()}' ({detail}); check that every brace is closed") from None
    unknown = _UNKNOWN.search(mathml)
    if unknown:
        raise MathError(f"unknown TeX command {unknown.group(1)} in '{tex.strip()}'")
    mathml = _FUNCTION.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    # latex2mathml writes a MathML 3 keyword that MathML Core does not know.
    return mathml.replace('width="negativethinmathspace"', 'width="-0.1667em"')
