"""TeX math -> MathML at build time, so pages carry no math JavaScript.

Chromium draws MathML Core natively; the stylesheet picks a math font when the reader has
one and falls back to the system serif otherwise.
"""
from __future__ import annotations

import re
from functools import lru_cache
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

from .safety import clip, quoted

MAX_DEPTH = 40  # groups ({...}, \left...\right, environments) inside each other
MAX_LENGTH = 5000  # characters of TeX in one formula

_UNKNOWN = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")
# A named function (sin, log, ...) followed by anything but an opening parenthesis:
# latex2mathml sets the two side by side ("sina"), TeX puts a thin space between them.
_NAMES = "sin|cos|tan|log|ln|exp|max|min|arg|det|lim|sup|inf"
_FUNCTION = re.compile(r"(?<!<msub>)(?<!<msup>)(?<!<msubsup>)(<mi>(?:" + _NAMES + r")</mi>)(?!<mo[^>]*>&#x00028;)")


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


# What latex2mathml gets wrong, put right before it reads the TeX:
# \begin{aligned} (it writes a bare "&"): the same table as align*, columns right, left, ...
_ALIGNED = re.compile(r"\\(begin|end)\{aligned\}")
# \tag{1} (it writes "(1)" after the formula): the number is set beside the equation.
_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")
# \operatorname{softmax} (it writes an operator, <mo>): a name, upright, as \sin is.
_OPERATOR = re.compile(r"\\operatorname(\*?)\s*\{([^{}]*)\}")
_OPERATOR_MARK = "exoperatorname"
_OPERATOR_OUT = re.compile(r"(?<!<msub>)(?<!<msup>)(?<!<msubsup>)<mi>\\" + _OPERATOR_MARK + r"([A-Za-z]+)</mi>(?!<mo[^>]*>&#x00028;)")
_OPERATOR_PAREN = re.compile(r"<mi>\\" + _OPERATOR_MARK + r"([A-Za-z]+)</mi>")
# A named function (or \operatorname) after a letter, number, script or closing
# bracket: latex2mathml sets "a_j \ln a_j" as "aⱼln aⱼ", TeX puts a thin space before the
# name too. The name may carry a script of its own (log₂).
_AFTER_ORDINARY = r"(</mi>|</mn>|</msub>|</msup>|</msubsup>|</mrow>|<mo[^>]*>(?:&#x00029;|\]|&#x0005[dD];)</mo>)"
_FUNCTION_BEFORE = re.compile(_AFTER_ORDINARY + r"((?:<msub>|<msup>|<msubsup>)?<mi>(?:" + _NAMES
                              + r"|\\" + _OPERATOR_MARK + r"[A-Za-z]+)</mi>)")


# \mathrm{softmax} (it writes one <mi> a letter, which a screen reader spells out): a
# run of upright letters that fills a group is one name, one <mi>, upright as any
# multi-letter <mi> is.
_UPRIGHT_WORD = re.compile(r'<mrow>((?:<mi mathvariant="normal">[A-Za-z]</mi>){2,})</mrow>')
_UPRIGHT_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')


def _word(match: re.Match) -> str:
    return "<mi>" + "".join(_UPRIGHT_LETTER.findall(match.group(1))) + "</mi>"


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


def _prepare(tex: str, display: bool) -> tuple[str, str]:
    """The TeX latex2mathml reads right, and the equation's tag ("" for none)."""
    tags = _TAG.findall(tex)
    tag = ""
    if tags:
        if not display:
            raise MathError(f"\\tag numbers a display equation, not inline math: {quoted(tex)}; "
                            "write the equation between $$ and $$")
        if len(tags) > 1:
            raise MathError(f"an equation takes one \\tag, this one has {len(tags)}: {quoted(tex)}")
        star, text = tags[0]
        tag = text.strip() if star else f"({text.strip()})"
        tex = _TAG.sub("", tex)
    tex = _ALIGNED.sub(lambda m: f"\\{m.group(1)}{{align*}}", tex)

    def operator(match: re.Match) -> str:
        star, name = match.groups()
        if star:
            raise MathError(f"\\operatorname* (limits under the name) is not supported: {quoted(tex)}; "
                            "write \\operatorname{...}_j, with the subscript beside the name")
        if not re.fullmatch(r"[A-Za-z]+", name.strip()):
            raise MathError(f"\\operatorname takes a name of letters, got '{name}' in {quoted(tex)}; "
                            "e.g. \\operatorname{softmax} or \\operatorname{argmax}")
        return f"\\{_OPERATOR_MARK}{name.strip()} "

    return _OPERATOR.sub(operator, tex), tag


@lru_cache(maxsize=4096)
def tex_to_mathml(tex: str, display: bool) -> str:
    """MathML for TeX; a display equation with a \\tag gets its number beside it.
    Kept for the next build (a rebuild while serving meets the same formulas again); a
    formula that cannot be read raises each time."""
    shown = quoted(tex.strip())
    if len(tex) > MAX_LENGTH:
        raise MathError(f"the TeX {shown} is longer than {MAX_LENGTH} characters; split it into several formulas")
    depth = _depth(tex)
    if depth > MAX_DEPTH:
        raise MathError(f"the TeX {shown} nests groups {depth} deep; at most {MAX_DEPTH} are allowed")
    source, tag = _prepare(tex.strip(), display)
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises several bare exception types
        detail = clip(str(err) or type(err).__name__)
        raise MathError(f"cannot read the TeX {shown} ({detail}); check that every brace is closed") from None
    mathml = _UPRIGHT_WORD.sub(_word, mathml)
    # \infty is an ordinary symbol in TeX; latex2mathml makes it an operator, spaced as
    # one on both sides ("− ∞")
    mathml = mathml.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")
    mathml = _FUNCTION_BEFORE.sub(r'\1<mspace width="0.1667em"></mspace>\2', mathml)
    mathml = _OPERATOR_OUT.sub(r'<mi>\1</mi><mspace width="0.1667em"></mspace>', mathml)
    mathml = _OPERATOR_PAREN.sub(r"<mi>\1</mi>", mathml)
    if "<mi>&</mi>" in mathml:
        raise MathError(f"'&' separates columns, but {shown} has one outside a table; "
                        "use it inside \\begin{aligned}, \\begin{cases} or a matrix, or write \\& for the sign")
    unknown = _UNKNOWN.search(mathml)
    if unknown:
        raise MathError(f"unknown TeX command {clip(unknown.group(1))} in {shown}")
    mathml = _FUNCTION.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    mathml = _MTEXT.sub(_escape_text, mathml)
    _check_safe(mathml, shown)
    # latex2mathml writes a MathML 3 keyword that MathML Core does not know.
    mathml = mathml.replace('width="negativethinmathspace"', 'width="-0.1667em"')
    mathml = _compact(mathml)
    mathml = _UNARY_MINUS.sub(r'\1<mo form="prefix">−</mo>', mathml)
    mathml = _TRAILING_RELATION.sub(r'<mo rspace="0">\1</mo></mrow></math>', mathml)
    if tag:
        tag = tag.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        mathml += f'<span class="ex-eq-number">{tag}</span>'
    return mathml


_CHARACTER = re.compile(r"&#x([0-9A-Fa-f]+);")
# A minus that starts a group, or follows an operator other than a closing bracket (a
# comma, "=", "("), is a sign: "(0.20, −1.50)", "H = −∑". latex2mathml leaves it in the
# middle of a row, where MathML spaces it as subtraction ("(0.20, − 1.50)").
# A relation that ends a formula ("$s =$ {value}", a number from the prose after it) has
# the text's own space after it; MathML's space as well made two ("s =  1.75").
_TRAILING_RELATION = re.compile(r"<mo>([=<>≈≤≥≠→])</mo></mrow></math>$")
_UNARY_MINUS = re.compile(r"(<mrow>|<math[^>]*>|<mo(?: [^>]*)?>(?![)\]|}⟩])[^<]*</mo>)<mo>−</mo>")


def _compact(mathml: str) -> str:
    """The same MathML in fewer bytes, as an HTML page reads it: no namespace (the HTML
    parser gives <math> its own) and characters as themselves, not as references
    ("&#x02211;" is "∑"), except those markup needs escaped and the invisible ones:
    about 0.2 KB less of a lesson's first frame, compressed."""
    def character(match: re.Match) -> str:
        char = chr(int(match.group(1), 16))
        return match.group(0) if char in "<>&\"'" or not char.isprintable() else char
    mathml = mathml.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "", 1)
    return _CHARACTER.sub(character, mathml)


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
