"""The HTML an author's code writes into a page (an exercise type's statement), cleaned
with nh3 (the Python binding of the Rust ammonia crate) to an allow-list: the MathML the
exercise kit writes and plain text formatting, each with only the attributes it needs.
Anything else (a script, an event attribute, a ``javascript:`` or ``data:`` link, a
``<meta http-equiv>``, a style, a form, a frame) is dropped, whatever its spelling: the
text is parsed as a browser parses it, never matched with a pattern.

The allow-list is declared once, in static/js/statement-markup.js: the reader's browser
cleans to it the statements the engine makes there (js/statement.js), and this module
reads its object literal, which is JSON."""

from __future__ import annotations

import json
from pathlib import Path

import nh3

from ..output.assets import STATIC

MARKUP_FILE = STATIC / "js" / "statement-markup.js"


def read_markup(path: Path = MARKUP_FILE) -> dict:
    """The object literal that statement-markup.js gives ``explorables.statementMarkup``."""
    text = path.read_text(encoding="utf-8")
    start = text.index("{", text.index("explorables.statementMarkup ="))
    return json.loads(text[start : text.index("};", start) + 1])


MARKUP = read_markup()
MATHML = frozenset(MARKUP["mathml"])
TEXT = frozenset(MARKUP["text"])
TAGS = MATHML | TEXT
ATTRIBUTES = {tag: frozenset(names) for tag, names in MARKUP["attributes"].items()}
URL_SCHEMES = frozenset(MARKUP["url_schemes"])
DROP_CONTENT = frozenset(MARKUP["drop_content"])


def clean(html: str) -> str:
    """``html`` with only the allowed elements and attributes (the text of a dropped
    element stays, but a script's or style's content goes with it)."""
    return nh3.clean(
        html,
        tags=set(TAGS),
        attributes={k: set(v) for k, v in ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
        clean_content_tags=set(DROP_CONTENT),
    )
