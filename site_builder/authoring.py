"""Everyday Markdown beyond CommonMark, enabled in this one place.

``authoring_plugin`` is what ``create_parser`` adds for authors: highlighted code
(highlight.py), GFM task lists, definition lists, attributes on images and spans
(``{.class}`` / ``{#id}``), bare URLs as links (linkify-it-py), image figures,
and headings' anchor links and table of contents (toc.py). docs/markdown.md
lists every syntax the site understands.
"""
from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from .directives.image import image_sizes_rule
from .highlight import highlight_plugin
from .toc import toc_plugin


def authoring_plugin(md: MarkdownIt) -> None:
    md.use(highlight_plugin)
    md.use(tasklists_plugin, label=True)
    md.use(deflist_plugin)
    md.use(attrs_plugin, spans=True, allowed=["id", "class"])
    md.options["linkify"] = True
    md.enable(["linkify"])
    # {figure} and {image} are directives (directives/image.py); plain ![alt](src) images
    # get their size from the file here, load lazily and are copied with the site
    md.core.ruler.after("inline", "image_sizes", image_sizes_rule)
    md.use(toc_plugin)  # anchor links named by their heading; a table of contents

