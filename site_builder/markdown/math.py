"""TeX math -> MathML at build time, so pages carry no math JavaScript.

Chromium draws MathML Core natively; the stylesheet picks a math font when the reader has
one and falls back to the system serif otherwise.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from latex2mathml import commands as _commands
from latex2mathml import exceptions as _exceptions
from latex2mathml.converter import convert
from latex2mathml.symbols_parser import SYMBOLS as _SYMBOLS

from ...engine.figures.base import closest
from ..quoting import clip, quoted
from .math_groups import MathError, check_groups, group_depth, uncommented
from .math_output import (
    BAR_NAMES,
    BARS_AS,
    CLOSING_BAR,
    OPENING_BAR_MINUS,
    TRAILING_RELATION,
    UNARY_MINUS,
    compact,
    fences,
)

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
_ELEMENT_NAMES = (
    "math mrow mi mn mo ms mtext mspace msub msup msubsup munder mover munderover mfrac msqrt "
    "mroot mstyle merror mpadded mphantom menclose mtable mtr mtd mlabeledtr maligngroup "
    "malignmark semantics annotation mmultiscripts mprescripts none"
)
_ATTRIBUTE_NAMES = (
    "display mathvariant stretchy fence form separator lspace rspace width height depth "
    "columnalign columnspacing columnlines rowalign rowspacing rowlines frame framespacing "
    "linethickness accent accentunder movablelimits minsize maxsize symmetric scriptlevel "
    "displaystyle largeop notation align equalrows equalcolumns"
)
_ELEMENTS = set(_ELEMENT_NAMES.split())
_ATTRIBUTES = set(_ATTRIBUTE_NAMES.split())


# What latex2mathml gets wrong, put right before it reads the TeX:
# \begin{aligned} (it writes a bare "&"): the same table as align*, columns right, left, ...
_ALIGNED = re.compile(r"\\(begin|end)\{aligned\}")
# \tag{1} (it writes "(1)" after the formula): the number is set beside the equation.
_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")
# \operatorname{softmax} (it writes an operator, <mo>): a name, upright, as \sin is.
_OPERATOR = re.compile(r"\\operatorname(\*?)\s*\{([^{}]*)\}")
_OPERATOR_MARK = "exoperatorname"
_OPERATOR_OUT = re.compile(
    r"(?<!<msub>)(?<!<msup>)(?<!<msubsup>)<mi>\\" + _OPERATOR_MARK + r"([A-Za-z]+)</mi>(?!<mo[^>]*>&#x00028;)"
)
_OPERATOR_PAREN = re.compile(r"<mi>\\" + _OPERATOR_MARK + r"([A-Za-z]+)</mi>")
# A named function (or \operatorname) after a letter, number, script or closing
# bracket: latex2mathml sets "a_j \ln a_j" as "aⱼln aⱼ", TeX puts a thin space before the
# name too. The name may carry a script of its own (log₂).
_AFTER_ORDINARY = (
    r"(</mi>|</mn>|</msub>|</msup>|</msubsup>|</mrow>|<mo[^>]*>(?:&#x00029;|\]|&#x0005[dD];)</mo>|" + CLOSING_BAR + ")"
)
_FUNCTION_BEFORE = re.compile(
    _AFTER_ORDINARY + r"((?:<msub>|<msup>|<msubsup>)?<mi>(?:" + _NAMES + r"|\\" + _OPERATOR_MARK + r"[A-Za-z]+)</mi>)"
)


# \mathrm{softmax} (it writes one <mi> a letter, which a screen reader spells out): a
# run of upright letters that fills a group is one name, one <mi>, upright as any
# multi-letter <mi> is.
_UPRIGHT_WORD = re.compile(r'<mrow>((?:<mi mathvariant="normal">[A-Za-z]</mi>){2,})</mrow>')
_UPRIGHT_LETTER = re.compile(r'<mi mathvariant="normal">([A-Za-z])</mi>')


def _word(match: re.Match) -> str:
    return "<mi>" + "".join(_UPRIGHT_LETTER.findall(match.group(1))) + "</mi>"


# What each error latex2mathml raises means, in an author's words, and how to put it right.
_EXPLAINED = {
    _exceptions.NumeratorNotFoundError: (
        "a fraction written with \\over, \\atop or \\choose has nothing before it; "
        "write \\frac{a}{b} (or \\binom{n}{k})"
    ),
    _exceptions.DenominatorNotFoundError: (
        "a fraction written with \\over, \\atop or \\choose has nothing after it; write \\frac{a}{b} (or \\binom{n}{k})"
    ),
    _exceptions.DoubleSubscriptsError: (
        "one letter has two subscripts (as in x_a_b); put them in one group, x_{ab}, "
        "or give the first its own braces, {x_a}_b"
    ),
    _exceptions.DoubleSuperscriptsError: (
        "one letter has two superscripts (as in x^a^b); put them in one group, x^{ab}, "
        "or give the first its own braces, {x^a}^b"
    ),
    _exceptions.InvalidStyleForGenfracError: (
        "the fourth argument of \\genfrac, the style, is not 0, 1, 2 or 3; write one of them, or {} for none"
    ),
    _exceptions.InvalidAlignmentError: (
        "the letters in [...] after a \\begin{...} may be only l, c, r and |; e.g. \\begin{array}{lcr}"
    ),
    _exceptions.InvalidWidthError: (
        "\\skew has no width in whole mu before its accent; write one, e.g. \\skew{3}\\hat{A}"
    ),
    _exceptions.LimitsMustFollowMathOperatorError: (
        "\\limits or \\nolimits must come right after an operator such as \\sum or \\int; e.g. \\sum\\limits_{i=1}^{n}"
    ),
    RecursionError: "a \\newcommand or \\def uses itself and never ends; make its body not name itself",
}


# Fractions written between their two parts, as {a \over b}.
_INFIX = {"\\over", "\\atop", "\\choose", "\\brace", "\\brack", "\\above", "\\abovewithdelims", "\\atopwithdelims"}


def _explain(err: Exception, tex: str) -> str:
    """What a latex2mathml error means for ``tex``, and the fix: never the class's name."""
    if type(err) in _EXPLAINED:
        return _EXPLAINED[type(err)]
    sign = re.search(r"(?<!\\)([\^_])\s*$", tex)
    if isinstance(err, _exceptions.MissingSuperScriptOrSubscriptError) or sign:
        which = f"the '{sign.group(1)}' at the end" if sign else "a '^' or '_'"
        return f"{which} has nothing after it to raise or lower; write the script after it, e.g. x^{{2}} or x_{{i}}"
    if isinstance(err, _exceptions.MissingEndError):  # check_groups names the \begin first
        return "a \\begin{...} has no matching \\end{...}; add it after the environment's last line"
    if isinstance(err, _exceptions.ExtraLeftOrMissingRightError):  # and the \left
        return (
            "a \\left has no matching \\right, or a \\right or \\middle no \\left; "
            "pair them, e.g. \\left( x \\right) (\\left. or \\right. for an empty side)"
        )
    names = re.findall(r"\\[A-Za-z]+", tex)
    if isinstance(err, (_exceptions.NoAvailableTokensError, StopIteration)) and names:
        # The formula ended while a command waited for what it acts on ("\mathcal",
        # "\sqrt", "a \over"): the last command is the one waiting.
        name = names[-1]
        if name in _INFIX:
            return f"it ends before {name} has what goes under it; write it after {name}, e.g. {{a {name} b}}"
        example = f"{name}{{a}}{{b}}" if name in _commands.COMMANDS_WITH_TWO_PARAMETERS else f"{name}{{x}}"
        return f"it ends before {name} has what it acts on; give it its argument in braces, e.g. {example}"
    return (
        "a command lacks what it acts on, or a '^' or '_' its script; give each its arguments "
        "in braces, e.g. \\frac{a}{b}, x^{2}"
    )


def _known_commands() -> list[str]:
    """Every command latex2mathml draws: its symbols and the commands it names."""
    names = {name for name in _SYMBOLS if re.fullmatch(r"\\[A-Za-z]+", name)}
    # a font the table spells with a letter, \\mathbfit{x}: the command is \\mathbfit
    names |= {found.group(1) for name in _SYMBOLS if (found := re.fullmatch(r"(\\[A-Za-z]+)\{.*\}", name))}
    for value in vars(_commands).values():
        if isinstance(value, dict):
            value = list(value)
        for name in (value,) if isinstance(value, str) else value if isinstance(value, (tuple, list)) else ():
            if isinstance(name, str) and re.fullmatch(r"\\[A-Za-z]+", name):
                names.add(name)
    # refused by _check_safe, so never worth suggesting
    return sorted(names - {"\\href", "\\class", "\\style", "\\cssId"})


_KNOWN: list[str] = []


def _did_you_mean(name: str) -> str:
    """The hint for an unknown command: "; did you mean \\frac?" for \\fracc, or "" when
    no known command is close."""
    if not _KNOWN:
        _KNOWN.extend(_known_commands())
    close = closest(name, _KNOWN, 0.75, begun=False)  # \foo is no \footnote
    return f"; did you mean {close}?" if close else ""


_MATH_COMMAND = re.compile(r"\\math[A-Za-z]*")


def _check_fonts(tex: str, shown: str) -> None:
    """latex2mathml reads any \\math... command it does not know as a font and drops it
    silently (\\mathbbb{R} is drawn as a plain R): such a name is an unknown command."""
    if not _KNOWN:
        _KNOWN.extend(_known_commands())
    tex = uncommented(tex)
    for found in _MATH_COMMAND.finditer(tex):
        if found.group() not in _KNOWN and tex[found.start() - 1 : found.start()] != "\\":
            raise MathError(f"unknown TeX command {clip(found.group())} in {shown}{_did_you_mean(found.group())}")


def _prepare(tex: str, display: bool) -> tuple[str, str]:
    """The TeX latex2mathml reads right, and the equation's tag ("" for none)."""
    tags = _TAG.findall(tex)
    tag = ""
    if tags:
        if not display:
            raise MathError(
                f"\\tag numbers a display equation, not inline math: {quoted(tex)}; "
                "write the equation between $$ and $$"
            )
        if len(tags) > 1:
            raise MathError(f"an equation takes one \\tag, this one has {len(tags)}: {quoted(tex)}")
        star, text = tags[0]
        tag = text.strip() if star else f"({text.strip()})"
        tex = _TAG.sub("", tex)
    tex = _ALIGNED.sub(lambda m: f"\\{m.group(1)}{{align*}}", tex)

    def operator(match: re.Match) -> str:
        star, name = match.groups()
        if star:
            raise MathError(
                f"\\operatorname* (limits under the name) is not supported: {quoted(tex)}; "
                "write \\operatorname{...}_j, with the subscript beside the name"
            )
        if not re.fullmatch(r"[A-Za-z]+", name.strip()):
            raise MathError(
                f"\\operatorname takes a name of letters, got '{name}' in {quoted(tex)}; "
                "e.g. \\operatorname{softmax} or \\operatorname{argmax}"
            )
        return f"\\{_OPERATOR_MARK}{name.strip()} "

    return BAR_NAMES.sub(lambda m: BARS_AS[m.group(1)], _OPERATOR.sub(operator, tex)), tag


@lru_cache(maxsize=4096)
def tex_to_mathml(tex: str, display: bool) -> str:
    """MathML for TeX; a display equation with a \\tag gets its number beside it.
    Kept for the next build (a rebuild while serving meets the same formulas again); a
    formula that cannot be read raises each time."""
    shown = quoted(tex.strip())
    if len(tex) > MAX_LENGTH:
        raise MathError(f"the TeX {shown} is longer than {MAX_LENGTH} characters; split it into several formulas")
    depth = group_depth(tex)
    if depth > MAX_DEPTH:
        raise MathError(f"the TeX {shown} nests groups {depth} deep; at most {MAX_DEPTH} are allowed")
    check_groups(tex.strip(), shown)
    _check_fonts(tex, shown)
    source, tag = _prepare(tex.strip(), display)
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises several bare exception types
        raise MathError(f"cannot read the TeX {shown}: {_explain(err, tex.strip())}") from None
    mathml = _UPRIGHT_WORD.sub(_word, mathml)
    mathml = fences(mathml)  # before the space after an ordinary: |v| \cos
    # \infty is an ordinary symbol in TeX; latex2mathml makes it an operator, spaced as
    # one on both sides ("− ∞")
    mathml = mathml.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")
    mathml = _FUNCTION_BEFORE.sub(r'\1<mspace width="0.1667em"></mspace>\2', mathml)
    mathml = _OPERATOR_OUT.sub(r'<mi>\1</mi><mspace width="0.1667em"></mspace>', mathml)
    mathml = _OPERATOR_PAREN.sub(r"<mi>\1</mi>", mathml)
    if "<mi>&</mi>" in mathml:
        raise MathError(
            f"'&' separates columns, but {shown} has one outside a table; "
            "use it inside \\begin{aligned}, \\begin{cases} or a matrix, or write \\& for the sign"
        )
    unknown = _UNKNOWN.search(mathml)
    if unknown:
        raise MathError(f"unknown TeX command {clip(unknown.group(1))} in {shown}{_did_you_mean(unknown.group(1))}")
    mathml = _FUNCTION.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    mathml = _MTEXT.sub(_escape_text, mathml)
    _check_safe(mathml, shown)
    # latex2mathml writes a MathML 3 keyword that MathML Core does not know.
    mathml = mathml.replace('width="negativethinmathspace"', 'width="-0.1667em"')
    mathml = compact(mathml)
    mathml = UNARY_MINUS.sub(r'\1<mo form="prefix">−</mo>', mathml)
    mathml = OPENING_BAR_MINUS.sub(r'\1<mo form="prefix">−</mo>', mathml)  # |−x|
    mathml = TRAILING_RELATION.sub(r'<mo rspace="0">\1</mo></mrow></math>', mathml)
    if tag:
        tag = tag.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        mathml += f'<span class="ex-eq-number">{tag}</span>'
    return mathml


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
                raise MathError(
                    f"the TeX {tex} sets '{attribute}', which lesson math may not set "
                    f"(\\href, \\style and \\class are not allowed)"
                )
