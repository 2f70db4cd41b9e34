"""Headings: anchor links named by their heading, and a table of contents.

Every h2 and h3 has a stable id (its text, slugified, by mdit-py-plugins' anchors) and
a visible "#" link to itself, beside it (in a ``div.ex-heading``, so that the heading's
own name stays its text). The link's accessible name is the heading's text, so a screen
reader says "Link to this section: Why divide by the square root", not "#".

A lesson with ``TOC_MIN`` or more such headings gets a table of contents at the top of
its body: a ``<nav>`` holding a ``<details>`` (folded on phones; static/js/toc.js opens
it on wide screens, where CSS sets it beside the text, and marks the section being read).

Each h2 of the page's own text (not one inside a quote or a list) opens a part, a
``div.ex-part`` holding the heading and what follows it up to the next such h2. The
browser lays out a part only once it is near the screen, or when static/js/parts.js
gets to it after the first frame: a long lesson's first layout is one screen's, not the
whole page's.
"""

from __future__ import annotations

import html

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.anchors.index import slugify

from ...engine.locale import t
from .math import MathError, tex_to_mathml

TOC_MIN = 4  # headings (h2, h3) from which a lesson gets a table of contents


def heading_text(inline: Token, as_html: bool = False) -> str:
    """The text of a heading, without its anchor link: plain (a formula as its TeX), or
    ``as_html`` for the table of contents (escaped, its formulas set as the heading sets
    them, in MathML)."""

    def shown(child: Token) -> str:
        if not as_html:
            return child.content
        if child.type.startswith("math_inline"):
            try:
                return tex_to_mathml(child.content, display=False)
            except MathError:  # the heading itself reports it
                pass
        return html.escape(child.content)

    parts = []
    skip = 0
    for child in inline.children or []:
        if child.type == "link_open" and "header-anchor" in str(child.attrGet("class") or ""):
            skip += 1
        elif child.type == "link_close" and skip:
            skip -= 1
        elif not skip and child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
            parts.append(shown(child))
    return "".join(parts).strip()


def _toc_rule(state: StateCore) -> None:
    tokens = state.tokens
    entries = []
    ids = {t.attrGet("id") for t in tokens if t.type == "heading_open" and t.attrGet("id")}
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type != "heading_open" or token.tag not in ("h2", "h3") or not token.attrGet("id"):
            index += 1
            continue
        inline = tokens[index + 1]
        text = heading_text(inline)
        anchor = token.attrGet("id")
        if any(c.type.startswith("math_inline") for c in inline.children or []):
            # the anchors plugin leaves formulas out of the id ("...-root-of-" for "... of $d_k$")
            wanted = slugify(text)
            if wanted not in ids:
                ids.discard(anchor)
                ids.add(wanted)
                token.attrSet("id", wanted)
                anchor = wanted
        entries.append((int(token.tag[1]), anchor, heading_text(inline, as_html=True)))
        # The "#" link goes beside the heading, not inside it: inside, it would be part of
        # the heading's name ("Five steps Link to this section: Five steps").
        children = inline.children or []
        start = next(
            (
                i
                for i, c in enumerate(children)
                if c.type == "link_open" and "header-anchor" in str(c.attrGet("class") or "")
            ),
            None,
        )
        if start is not None:
            end = next(i for i in range(start, len(children)) if children[i].type == "link_close")
            if start and children[start - 1].type == "text":
                children[start - 1].content = children[start - 1].content.rstrip()
            del children[start : end + 1]
            label = html.escape(t("page.anchor_label", title=text), quote=True)
            before, after = Token("html_block", "", 0), Token("html_block", "", 0)
            before.content = f'<div class="ex-heading ex-heading-{token.tag}">\n'
            before.meta = {"part": token.tag == "h2" and token.level == 0}
            after.content = (
                f'<a class="header-anchor" href="#{html.escape(str(anchor), quote=True)}" '
                f'aria-label="{label}">#</a>\n</div>\n'
            )
            tokens.insert(index + 3, after)
            tokens.insert(index, before)
            index += 1
        index += 3
    state.env["toc"] = entries
    if len(entries) >= TOC_MIN:
        toc = Token("toc", "nav", 0)
        toc.block = True
        toc.meta = {"entries": entries}
        at = 1 if tokens and tokens[0].type == "front_matter" else 0
        tokens.insert(at, toc)


def _html(content: str) -> Token:
    token = Token("html_block", "", 0)
    token.content = content
    return token


def _parts_rule(state: StateCore) -> None:
    """Each part opens at its h2's heading block and ends where the next one opens, the
    last with the page's text."""
    tokens, opened = [], False
    for token in state.tokens:
        if token.type == "html_block" and (token.meta or {}).get("part"):
            if opened:
                tokens.append(_html("</div>\n"))
            tokens.append(_html('<div class="ex-part">\n'))
            opened = True
        tokens.append(token)
    if opened:
        tokens.append(_html("</div>\n"))
        state.tokens[:] = tokens


def render_toc(entries) -> str:
    items = []
    for level, anchor, text in entries:
        items.append(f'<li class="ex-toc-h{level}"><a href="#{html.escape(anchor)}">{text}</a></li>')
    title = html.escape(t("page.on_this_page"))
    return (
        f'<nav class="ex-toc" aria-label="{title}">\n<details>\n<summary>{title}</summary>\n'
        "<ol>\n" + "\n".join(items) + "\n</ol>\n</details>\n</nav>\n"
    )


def toc_plugin(md: MarkdownIt) -> None:
    md.core.ruler.push("toc", _toc_rule)  # after the anchors rule has given the ids
    md.core.ruler.push("parts", _parts_rule)
    md.add_render_rule("toc", lambda self, tokens, idx, options, env: render_toc(tokens[idx].meta["entries"]))
