"""MathML put right after latex2mathml wrote it: bars spaced as TeX spaces them, and the
markup made compact as an HTML page reads it; math.py calls both."""

from __future__ import annotations

import re

# Bars: TeX sets |, \| and \vert as ordinary symbols and \lvert, \rvert, \lVert, \rVert
# as opening and closing ones: no space beside them ("|u| |v|", "‖x‖"). latex2mathml
# writes them as operators MathML spaces as infix ones inside a row ("|u |   | v |"),
# \vert as a letter and \bigl\lvert as the text "\lvert". Each bar becomes a fence with
# no space of its own, opening and closing in turn (per kind of bar), as written.
BAR_NAMES = re.compile(r"\\(lvert|rvert|vert|lVert|rVert|Vert)(?![A-Za-z])\s*")
BARS_AS = {"lvert": "|", "rvert": "|", "vert": "|", "lVert": "\\|", "rVert": "\\|", "Vert": "\\|"}
_BAR = re.compile(r"<m[oi]((?: [a-z]+=\"[^\"]*\")*)>(&#x0007C;|\||&#x02016;|‖)</m[oi]>")


def fences(mathml: str) -> str:
    """Every bar that \\left and \\right did not size as a fence with no space beside it,
    opening and closing in turn (see BAR_NAMES)."""
    opened = {"|": False, "‖": False}

    def fence(match: re.Match) -> str:
        attributes, char = match.groups()
        if 'stretchy="true"' in attributes and "form=" in attributes:
            return match.group(0)  # \left| ... \right|: latex2mathml's own fence
        kind = "|" if char in ("|", "&#x0007C;") else "‖"
        form = "postfix" if opened[kind] else "prefix"
        opened[kind] = not opened[kind]
        sized = re.findall(r' (?:minsize|maxsize)="[^"]*"', attributes)  # \big|
        stretchy = "true" if sized else "false"
        return f'<mo fence="true" form="{form}" stretchy="{stretchy}" lspace="0" rspace="0"{"".join(sized)}>{char}</mo>'

    return _BAR.sub(fence, mathml)


# A minus that starts a group, or follows an operator other than a closing bracket (a
# comma, "=", "("), is a sign: "(0.20, −1.50)", "H = −∑". latex2mathml leaves it in the
# middle of a row, where MathML spaces it as subtraction ("(0.20, − 1.50)").
# A relation that ends a formula ("$s =$ {value}", a number from the prose after it) has
# the text's own space after it; MathML's space as well made two ("s =  1.75").
TRAILING_RELATION = re.compile(r"<mo>([=<>≈≤≥≠→])</mo></mrow></math>$")
UNARY_MINUS = re.compile(r"(<mrow>|<math[^>]*>|<mo(?: [^>]*)?>(?![)\]|}⟩])[^<]*</mo>)<mo>−</mo>")
CLOSING_BAR = r'<mo fence="true" form="postfix"[^>]*>(?:&#x0007C;|&#x02016;)</mo>'  # an ordinary's end: |v| \cos
OPENING_BAR_MINUS = re.compile(r'(<mo fence="true" form="prefix"[^>]*>[|‖]</mo>)<mo>−</mo>')

_CHARACTER = re.compile(r"&#x([0-9A-Fa-f]+);")


def compact(mathml: str) -> str:
    """The same MathML in fewer bytes, as an HTML page reads it: no namespace (the HTML
    parser gives <math> its own) and characters as themselves, not as references
    ("&#x02211;" is "∑"), except those markup needs escaped and the invisible ones:
    about 0.2 KB less of a lesson's first frame, compressed."""

    def character(match: re.Match) -> str:
        char = chr(int(match.group(1), 16))
        return match.group(0) if char in "<>&\"'" or not char.isprintable() else char

    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)
    return _CHARACTER.sub(character, mathml)
