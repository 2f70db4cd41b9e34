"""The HTML an author's code writes into a page (an exercise type's statement), cleaned
with nh3 (the Python binding of the Rust ammonia crate) to an allow-list: the MathML the
exercise kit writes and plain text formatting, each with only the attributes it needs.
Anything else (a script, an event attribute, a ``javascript:`` or ``data:`` link, a
``<meta http-equiv>``, a style, a form, a frame) is dropped, whatever its spelling: the
text is parsed as a browser parses it, never matched with a pattern."""
from __future__ import annotations

import nh3

MATHML = frozenset({
    "math", "mi", "mn", "mo", "ms", "mrow", "msub", "msup", "msubsup", "mfrac", "msqrt", "mroot", "mtable",
    "mtr", "mtd", "mtext", "mspace", "mover", "munder", "munderover", "mpadded", "mphantom", "menclose",
    "mstyle", "semantics", "annotation",
})
TEXT = frozenset({"p", "em", "strong", "b", "i", "code", "span", "sub", "sup", "br"})
TAGS = MATHML | TEXT
ATTRIBUTES = {
    "*": {"class"},
    "math": {"xmlns", "display"},
    "mi": {"mathvariant"}, "mn": {"mathvariant"}, "mtext": {"mathvariant"},
    "mstyle": {"mathvariant", "displaystyle", "scriptlevel"},
    "mo": {"stretchy", "lspace", "rspace", "fence", "separator", "form", "largeop", "movablelimits", "symmetric",
           "minsize", "maxsize", "accent"},
    "mover": {"accent"}, "munder": {"accentunder"}, "munderover": {"accent", "accentunder"},
    "mfrac": {"linethickness"}, "mspace": {"width", "height", "depth"},
    "mpadded": {"width", "height", "depth", "lspace", "voffset"}, "menclose": {"notation"},
    "mtd": {"columnspan", "rowspan"}, "annotation": {"encoding"},
}


def clean(html: str) -> str:
    """``html`` with only the allowed elements and attributes (the text of a dropped
    element stays, but a script's or style's content goes with it)."""
    return nh3.clean(html, tags=set(TAGS), attributes={k: set(v) for k, v in ATTRIBUTES.items()},
                     url_schemes=set(), link_rel=None, strip_comments=True,
                     clean_content_tags={"script", "style", "template", "iframe", "noscript", "object", "embed"})
