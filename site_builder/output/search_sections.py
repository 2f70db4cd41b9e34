"""The sections of a rendered page, read for the search index (site_builder/output/search.py).

A section is a lesson's intro (before its first heading) or an h2/h3 and what follows
it: its anchor, heading, text (formulas as one line of text: "softmax(QKᵀ/√dₖ)") and the
captions and titles of its figures and images. Read from the rendered HTML once a body;
bodies rendered in a worker or kept in the build cache bring theirs along (``READ``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from html import unescape
from typing import TypedDict

# A sub- or superscript Unicode has no letters for ("W" and a subscript "O") is kept
# between these marks in the results' words: js/search-box.js shows it as <sub> or <sup>.
SUB, SUB_END, SUP, SUP_END = "\ue000", "\ue001", "\ue002", "\ue003"

STILL = re.compile(r'<div class="ex-still">.*?</div>\n(?=<figcaption|</figure>)', re.S)


_SUB = str.maketrans("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-−=()inT⊤", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿᵀᵀ")


def _script(text: str, table: dict, marks: tuple[str, str]) -> str:
    """A sub- or superscript as Unicode when every character has one ("ₖ", "ᵀ"), else
    between its marks (SUB "O" SUB_END, shown as <sub>O</sub>)."""
    shifted = text.translate(table)
    return shifted if all(a != b for a, b in zip(text, shifted, strict=True)) else marks[0] + text + marks[1]


def _linear(tag: str, parts: list[str]) -> str:
    """A MathML element as one line of text, from its children's lines: "Kᵀ", "√dₖ", "a/b"."""
    kids = [p for p in parts if p.strip()]
    if tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover") and len(kids) >= 2:
        base, *scripts = kids
        if tag in ("msub", "munder"):
            return base + _script(scripts[0], _SUB, (SUB, SUB_END))
        if tag in ("msup", "mover"):
            return base + _script(scripts[0], _SUP, (SUP, SUP_END))
        return base + _script(scripts[0], _SUB, (SUB, SUB_END)) + _script(scripts[-1], _SUP, (SUP, SUP_END))
    if tag == "mfrac" and len(kids) == 2:
        return f"{kids[0]}/{kids[1]}"
    if tag == "msqrt":
        return "√" + "".join(kids)
    if tag == "mspace":
        return " "
    text = "".join(parts)
    if tag == "mo" and text in ("=", "<", ">", "≈", "≤", "≥", "≠", "→", "+"):
        return f" {text} "
    return text + " " if tag == "mo" and text == "," else text


class _Section(TypedDict):
    id: str  # the heading's anchor ("" before the first heading)
    heading: str
    text: list[str]  # the pieces of its text, joined when read
    caption: list[str]


class _Sections:
    """Split a rendered lesson body into sections of heading, text and captions; a
    formula as one line of text ("the rows of Kᵀ"), for snippets without holes."""

    SKIP = frozenset({"script", "noscript", "style", "nav"})
    MATH_SKIP = frozenset({"annotation", "annotation-xml"})

    def __init__(self):
        self.math: list[tuple[str, list[str]]] = []  # the open MathML elements, with their parts
        self.sections: list[_Section] = [{"id": "", "heading": "", "text": [], "caption": []}]
        self.skip = 0
        self.stack: list[str] = []
        self.in_heading = False
        self.in_caption = 0
        self.in_anchor = False
        self.in_data = False

    def handle_starttag(self, tag, attrs):
        if tag == "math" or self.math:
            self.math.append((tag, []))
            return
        attrs = dict(attrs)
        if tag in ("h2", "h3") and attrs.get("id"):
            self.sections.append({"id": attrs["id"], "heading": "", "text": [], "caption": []})
            self.in_heading = True
        elif tag == "a" and "header-anchor" in (attrs.get("class") or ""):
            self.in_anchor = True
        elif tag == "script" and "ex-data" in (attrs.get("class") or ""):
            self.in_data = True
        elif tag == "figcaption":
            self.in_caption += 1
        if tag in self.SKIP:
            self.skip += 1

    def handle_endtag(self, tag):
        if self.math:
            if not any(name == tag for name, _ in self.math):
                return  # an end tag with no open element: nothing to close
            while self.math:  # up to the element this tag closes
                name, parts = self.math.pop()
                text = "" if name in self.MATH_SKIP else _linear(name, parts)
                if self.math:
                    self.math[-1][1].append(text)
                else:
                    self.handle_data(text)
                if name == tag:
                    break
            return
        if tag in ("h2", "h3"):
            self.in_heading = False
        elif tag == "a":
            self.in_anchor = False
        elif tag == "figcaption":
            self.in_caption = max(0, self.in_caption - 1)
        elif tag == "script":
            self.in_data = False
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        if tag in ("p", "li", "dd", "dt", "td", "th", "pre", "div", "figcaption", "summary"):
            self.sections[-1]["text"].append(" ")

    def handle_startendtag(self, tag, attrs):  # <mspace/>, written shut
        if self.math:
            self.math[-1][1].append(" " if tag == "mspace" else "")
        else:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_data(self, data):
        if self.math:
            self.math[-1][1].append(data.strip())
            return
        section = self.sections[-1]
        if self.in_data:
            try:
                scene = json.loads(data).get("scene", {})
            except ValueError:
                return
            section["caption"].extend(f" {words} " for words in _scene_words(scene))  # each a phrase apart
            return
        if self.skip or self.in_anchor:
            return
        if self.in_heading:
            section["heading"] += data
        elif self.in_caption:
            section["caption"].append(data)
            section["text"].append(data)
        else:
            section["text"].append(data)


# A tag, a comment, a declaration; the attributes' quoted values may hold ">".
_TAG = re.compile(
    r"""<(?:(/?)([a-zA-Z][^\t\n\r\f />\x00]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|!--.*?-->|[!?][^>]*>)""", re.S
)
_ATTR = re.compile(r"""([^\s/>=][^\s/=>]*)(?:\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?""")
_READ = frozenset({"h2", "h3", "a", "script"})  # the tags whose attributes _Sections reads
_RAW = {"script": re.compile(r"</script\s*>", re.I), "style": re.compile(r"</style\s*>", re.I)}


_MATH_END = re.compile(r"</math\s*>", re.I)


@lru_cache(maxsize=4096)
def _math_text(formula: str) -> str:
    """A formula (<math>...</math>) as one line of text, as _Sections reads it: the
    lessons of a site write the same ones again and again."""
    reader = _Sections()
    _read_html(reader, formula, whole_formulas=False)
    return "".join(reader.sections[0]["text"])


def _feed(parser: _Sections, html: str) -> None:
    """Read a page's body ``html`` into ``parser`` (``_read_html``), each formula whole."""
    _read_html(parser, html, whole_formulas=True)


def _read_html(parser: _Sections, html: str, whole_formulas: bool) -> None:
    """Read ``html`` into ``parser``'s handlers as html.parser would, in one pass of one
    regular expression over the body (the builder's HTML: tags closed, text escaped):
    text between tags unescaped, a script's or a style's text as it is; with
    ``whole_formulas``, each formula's text as read before (``_math_text``)."""
    at = 0
    while (tag := _TAG.search(html, at)) is not None:
        if tag.start() > at:
            parser.handle_data(unescape(html[at : tag.start()]))
        at = tag.end()
        closing, name, rest = tag.groups()
        if name is None:
            continue  # a comment or a declaration
        name = name.lower()
        if closing:
            parser.handle_endtag(name)
            continue
        if name == "math" and whole_formulas and not parser.math and (end := _MATH_END.search(html, at)) is not None:
            parser.handle_data(_math_text(html[tag.start() : end.end()]))  # as read tag by tag, once a formula
            at = end.end()
            continue
        attrs = (
            [  # only the tags the sections are told apart by have attributes read
                (key.lower(), None if value is None else unescape(value[1:-1] if value[:1] in ("'", '"') else value))
                for key, value in _ATTR.findall(rest.rstrip("/"))
            ]
            if name in _READ and not parser.math
            else []
        )
        if rest.endswith("/"):
            parser.handle_startendtag(name, attrs)
            continue
        parser.handle_starttag(name, attrs)
        if name in _RAW:  # its text is read as it is, up to its end tag
            end = _RAW[name].search(html, at)
            stop = end.start() if end else len(html)
            if stop > at:
                parser.handle_data(html[at:stop])
            if end is None:
                return
            parser.handle_endtag(name)
            at = end.end()
    if at < len(html):
        parser.handle_data(unescape(html[at:]))


def _scene_words(scene) -> list[str]:
    """The words a figure names itself and its panels by: titles and captions. Not the
    tooltips of its cells and marks, which repeat a word once a row ("entropy" 25 times
    in one table) and outranked the sections that are about it."""
    if not isinstance(scene, dict):
        return []
    parts = [scene, *(p for p in scene.get("panels") or [] if isinstance(p, dict))]
    return [part[key] for part in parts for key in ("title", "caption") if isinstance(part.get(key), str)]


def sections_of(body: str) -> list[dict]:
    """The sections of a rendered page body (its id, heading, text and captions). Kept for
    the next build: a rebuild while serving reads only the pages that changed."""
    return [dict(section) for section in (READ.get(body) or _sections_of(body))]


# The sections of bodies read where they were rendered (a worker of commands/parallel.py,
# or the build cache): the build's index takes them from here, not reading those bodies again.
READ: dict[str, tuple[dict, ...]] = {}


def read_ahead(body: str) -> tuple[dict, ...]:
    """The sections of ``body``, to hand to the build with it (``READ``)."""
    return _sections_of(body)


@lru_cache(maxsize=256)
def _sections_of(body: str) -> tuple[dict, ...]:
    parser = _Sections()
    _feed(parser, STILL.sub("", body))  # a figure's still repeats its first frame's words
    out = []
    for section in parser.sections:
        text = re.sub(r"\s+", " ", "".join(section["text"])).strip()
        out.append(
            {
                "id": section["id"],
                "heading": section["heading"].strip(),
                "text": text,
                "caption": re.sub(r"\s+", " ", "".join(section["caption"])).strip(),  # read as the text is
            }
        )
    return tuple(out)
