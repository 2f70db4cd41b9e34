"""Everyday Markdown beyond CommonMark, enabled in this one place.

``authoring_plugin`` is what ``create_parser`` adds for authors: highlighted code
(highlight.py), GFM task lists, definition lists, attributes on images and spans
(``{.class}`` / ``{#id}``), bare URLs as links (linkify-it-py), image figures,
and headings' anchor links and table of contents (toc.py). docs/markdown.md
lists every syntax the site understands.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from .directives.common import found_in
from .directives.image import image_sizes_rule
from .highlight import highlight_plugin, warn
from .toc import toc_plugin


def authoring_plugin(md: MarkdownIt) -> None:
    md.use(highlight_plugin)
    md.use(tasklists_plugin, label=True)
    md.use(deflist_plugin)
    md.use(attrs_plugin, spans=True, allowed=list(ATTRIBUTES))
    md.core.ruler.after("inline", "dropped_attributes", _dropped_attributes)
    md.options["linkify"] = True
    md.enable(["linkify"])
    md.linkify.pretest = _QuickPretest(md.linkify)  # type: ignore[union-attr]
    # {figure} and {image} are directives (directives/image.py); plain ![alt](src) images
    # get their size from the file here, load lazily and are copied with the site
    md.core.ruler.after("inline", "image_sizes", image_sizes_rule)
    md.use(toc_plugin)  # anchor links named by their heading; a table of contents


class _QuickPretest:
    """linkify-it's ``pretest(text)`` (may the text hold a link?), answered as it answers
    it, a fraction of the time: its one regular expression is three alternatives (a
    scheme after a boundary, a fuzzy host, "@"), and the first, which tries a class of
    every Unicode punctuation and space at each character, can match only where one of
    the schemes' names stands ("http:", "//", ...), which a search for the names alone
    finds quickly. Parsing the benchmark's 200 lessons spent a third of its time there."""

    def __init__(self, linkify) -> None:
        self.linkify, self.source = linkify, None

    def _compile(self) -> None:
        """The expressions of linkify's schemes as they are now (``add`` changes them)."""
        linkify = self.linkify
        names = [re.escape(name) for name, compiled in linkify._compiled.items() if name and compiled]
        self.names = re.compile("|".join(names), re.IGNORECASE) if names else None
        self.schema = re.compile(linkify.re["schema_test"], re.IGNORECASE)
        self.host = re.compile(linkify.re["host_fuzzy_test"], re.IGNORECASE)
        self.source = linkify.re["schema_test"]

    def __call__(self, text: str) -> bool:
        if self.source is not self.linkify.re["schema_test"]:
            self._compile()
        if "@" in text or self.host.search(text):
            return True
        return bool(self.names and self.names.search(text) and self.schema.search(text))


ATTRIBUTES = ("id", "class")  # what `{...}` after an image, a link, a span or code may set
_BLOCK = re.compile(r"(?<=[)\]`])\{([^{}\n]*)\}")  # an attribute block where the plugin reads one
_CODE = re.compile(r"(`+)(.+?)\1", re.S)  # a code span: its backticks kept, its text blanked
_KEY = re.compile(r"(?:^|\s)([A-Za-z_:][\w:.-]*)=")


def _dropped_attributes(state: StateCore) -> None:
    """Warn of each ``key=value`` in an attribute block that the page leaves out
    (``{width=300}``, ``{style=...}``): only ``{#id}`` and ``{.class}`` are written, and
    the rest went silently."""
    for block in state.tokens:
        if block.type != "inline":
            continue
        masked = _CODE.sub(lambda code: code.group(1) + " " * len(code.group(2)) + code.group(1), block.content)
        for found in _BLOCK.finditer(masked):  # (code spans blanked out: `f(x){a=1}` is code, not attributes)
            dropped = [key for key in _KEY.findall(found.group(1)) if key not in ATTRIBUTES]
            if dropped:
                line0, col = found_in(state.env, block, found.group())
                warn(
                    state.env,
                    line0,
                    col,
                    f"{{{found.group(1)}}}: {', '.join(dropped)} "
                    f"{'is' if len(dropped) == 1 else 'are'} not written into the page; only {{#id}} and "
                    f"{{.class}} are",
                    "an image's size comes from its file, and a look from a class "
                    "(no inline style: the pages allow none)",
                )
