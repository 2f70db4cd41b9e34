"""TeX math -> MathML at build time, so pages carry no math JavaScript.

Chromium draws MathML Core natively; the stylesheet picks a math font when the reader has
one and falls back to the system serif otherwise.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

from .safety import clip, quoted

MAX_DEPTH = 40  # groups ({...}, \left...\right, environments) inside each other
MAX_LENGTH = 5000  # characters of TeX in one formula

_UNKNOWN = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")
# A named function (sin, log, ...) followed by anything but an opening parenthesis:
# latex2mathml sets the two side by side ("sina"), TeX puts a thin space between them.
_FUNCTION = re.compile(r"(<mi>(?:sin|cos|tan|log|ln|exp|max|min|arg|det|lim|sup|inf)</mi>)(?!<mo[^>]*>&#x00028;)")


_MTEXT = re.compile(r"(<mtext[^>]*>)(.*?)(</mtext>)", re.S)
_BARE_AMP = re.compile(r"&(?!#x[0-9A-Fa-f]+;|#[0-9]+;|[A-Za-z]+;)")
_NS = "{http://www.w3.org/1998/Math/MathML}"
# MathML Core elements and the attributes latex2mathml writes; anything else (a link,
# a style, markup smuggled through \text) is refused.
_ELEMENTS = set(
    "math mrow mi mn mo ms mtext mspace msub msup msubsup munder mover munderover mfrac msqrt "
    "mroot mstyle merror mpadded mphantom menclose mtable mtr mtd mlabeledtr maligngroup "
    "malignmark semantics annotation mmultiscripts mprescripts none".split())
_ATTRIBUTES = set(
    "display mathvariant stretchy fence form separator lspace rspace width height depth "
    "columnalign columnspacing columnlines rowalign rowspacing rowlines frame framespacing "
    "linethickness accent accentunder movablelimits minsize maxsize symmetric scriptlevel "
    "displaystyle largeop notation align equalrows equalcolumns".split())


class MathError(ValueError):
    """TeX that cannot be turned into MathML; the message says what to fix."""


def _depth(tex: str) -> int:
    r"""How deep groups nest: braces, \left/\right and \begin/\end."""
    depth = most = 0
    for match in re.finditer(r"\\[{}]|\\(?:left|begin)\b|\\(?:right|end)\b|[{}]", tex):
        token = match.group()
        if token in ("{", "\\left", "\\begin"):
            depth += 1
            most = max(most, depth)
        elif token in ("}", "\\right", "\\end"):
            depth -= 1
    return most


def tex_to_mathml(tex: str, display: bool) -> str:
    shown = quoted(tex.strip())
    if len(tex) > MAX_LENGTH:
        raise MathError(f"the TeX {shown} is longer than {MAX_LENGTH} characters; split it into several formulas")
    depth = _depth(tex)
    if depth > MAX_DEPTH:
        raise MathError(f"the TeX {shown} nests groups {depth} deep; at most {MAX_DEPTH} are allowed")
    try:
        mathml = convert(tex.strip(), display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises several bare exception types
        detail = clip(str(err) or type(err).__name__)
        raise MathError(f"cannot read the TeX {shown} ({detail}); check that every brace is closed") from None
    unknown = _UNKNOWN.search(mathml)
    if unknown:
        raise MathError(f"unknown TeX command {clip(unknown.group(1))} in {shown}")
    mathml = _FUNCTION.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    mathml = _MTEXT.sub(_escape_text, mathml)
    _check_safe(mathml, shown)
    # latex2mathml writes a MathML 3 keyword that MathML Core does not know.
    return mathml.replace('width="negativethinmathspace"', 'width="-0.1667em"')


def _escape_text(match: re.Match) -> str:
    """latex2mathml copies \\text{...} verbatim: escape it, so it stays text."""
    inner = _BARE_AMP.sub("&amp;", match.group(2)).replace("<", "&lt;").replace(">", "&gt;")
    return match.group(1) + inner + match.group(3)


def _check_safe(mathml: str, tex: str) -> None:
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError as err:
        raise MathError(f"the TeX {tex} does not make valid MathML ({err})") from None
    for element in root.iter():
        name = element.tag.replace(_NS, "")
        if name not in _ELEMENTS:
            raise MathError(f"the TeX {tex} makes a <{name}> element, which lesson math may not hold")
        for attribute in element.attrib:
            if attribute not in _ATTRIBUTES:
                raise MathError(f"the TeX {tex} sets '{attribute}', which lesson math may not set "
                                f"(\\href, \\style and \\class are not allowed)")
