"""Numbered figures and equations, and references to them.

    :::{attention-row} explorer
    :caption: One query row: the weights of *chased*.
    :::

    $$ a_j = e^{s_j} / \\sum_l e^{s_l} $$ (softmax)

    As {numref}`explorer` shows, ... by {eq}`softmax`; [](#explorer) is a link too.

Figures are numbered in page order ("Figure 2"), live figures and images with a caption
(``:::{figure} img/x.png``, its id from ``:name:``) in one sequence; equations with a
label are numbered too ("(1)").
``{numref}`` writes "Figure N" as a link (or the author's words, ``%s`` standing for the
number: ``{numref}`Panel %s <explorer>```), ``{eq}`` writes "(N)", and a link with no
text to a figure, an equation or a heading gets "Figure N", "(N)" or the heading's
words. A reference to nothing is a build error at path:line:col with a "did you mean".
"""
from __future__ import annotations

import difflib
import html
import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .common import report
from .roles import where

_LABELLED_SPLIT = "<"
_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")


def _references_rule(state: StateCore) -> None:
    env = state.env
    figures: dict[str, int] = {}
    equations: dict[str, int] = {}
    headings: dict[str, str] = {}
    counted_figures = 0  # every live figure and every image with a caption, in page order
    for i, token in enumerate(state.tokens):
        if token.type == "image_figure_open":
            caption = _image_caption(state.tokens, i)
            if caption is None:
                continue
            counted_figures += 1
            if token.attrGet("id"):
                figures[str(token.attrGet("id"))] = counted_figures
            state.tokens[caption].attrJoin("class", "ex-caption")
            _number_caption(state.tokens, caption, counted_figures)
        elif token.type == "figure":
            counted_figures += 1
            figures[token.meta["id"]] = counted_figures
            token.meta["number"] = figures[token.meta["id"]]
            caption = token.meta.get("caption")
            if caption:
                children: list[Token] = []
                state.md.inline.parse(caption, state.md, env, children)
                token.meta["caption_tokens"] = children
        elif token.type == "math_block_label":
            tag = _TAG.search(token.content)  # an equation's own \tag is its number
            counted = sum(1 for shown in equations.values() if shown.startswith("(") and shown[1:-1].isdigit())
            shown = (tag.group(2).strip() if tag.group(1) else f"({tag.group(2).strip()})") if tag \
                else f"({counted + 1})"
            equations[token.info] = shown
            token.meta = {**(token.meta or {}), "number": shown}
        elif token.type == "heading_open" and token.attrGet("id"):
            headings[str(token.attrGet("id"))] = state.tokens[i + 1].content
    referenced = set()
    known = [*figures, *equations]

    for parent in state.tokens:
        if parent.type != "inline" or not parent.children:
            continue
        children = parent.children
        for j, token in enumerate(children):
            if token.type == "prose_role" and token.meta["role"] in ("numref", "eq") and not token.meta.get("error"):
                _role(env, parent, token, figures, equations, referenced)
            elif (token.type == "link_open" and j + 1 < len(children) and children[j + 1].type == "link_close"
                  and str(token.attrGet("href") or "").startswith("#")):
                target = str(token.attrGet("href"))[1:]
                text = (f"Figure {figures[target]}" if target in figures else equations[target]
                        if target in equations else headings.get(target))
                if text is None:
                    line0 = (parent.map[0] if parent.map else 0)
                    close = difflib.get_close_matches(target, [*known, *headings], n=1)
                    report(env, line0, 1, f"the link [](#{target}) has no text and no figure, equation or heading "
                           f"'{target}' to take it from",
                           f"did you mean '#{close[0]}'?" if close else "write the link's text: [words](#target)")
                    continue
                if target in figures:
                    referenced.add(target)
                filler = Token("text", "", 0)
                filler.content = text
                children.insert(j + 1, filler)
                token.attrJoin("class", "ex-ref")
    for token in state.tokens:
        if token.type == "figure":
            token.meta["referenced"] = token.meta["id"] in referenced


def _image_caption(tokens, index: int) -> int | None:
    """The index of the caption's opening token of the image figure opened at ``index``."""
    depth = 0
    for j in range(index + 1, len(tokens)):
        kind = tokens[j].type
        if kind == "image_caption_open" and depth == 0:
            return j
        if kind == "image_figure_open":
            depth += 1
        elif kind == "image_figure_close":
            if depth == 0:
                return None
            depth -= 1
    return None


def _number_caption(tokens, caption: int, number: int) -> None:
    """'Figure N.' at the start of an image's caption, inside its first paragraph."""
    mark = Token("html_inline", "", 0)
    mark.content = f'<span class="ex-caption-number">Figure {number}.</span> '
    for j in range(caption + 1, len(tokens)):
        if tokens[j].type == "image_caption_close":
            break
        if tokens[j].type == "inline":
            tokens[j].children = [mark, *(tokens[j].children or [])]
            return
    opening = Token("html_block", "", 0)
    opening.content = mark.content
    tokens.insert(caption + 1, opening)


def _role(env, parent, token, figures, equations, referenced) -> None:
    role, content = token.meta["role"], token.meta["content"]
    words = ""
    target = content
    if content.endswith(">") and _LABELLED_SPLIT in content:
        words, target = content[:-1].rsplit(_LABELLED_SPLIT, 1)
        words, target = words.strip(), target.strip()
    table: dict = figures if role == "numref" else equations
    what = "figure" if role == "numref" else "labelled equation"
    if target not in table:
        line0, col = where(env, parent, token)
        close = difflib.get_close_matches(target, list(table), n=1)
        listed = ", ".join(table) or "none"
        report(env, line0, col, f"{{{role}}}: no {what} '{target}' on this page",
               (f"did you mean '{close[0]}'? " if close else "") + f"{what}s here: {listed}")
        token.meta["error"] = True
        return
    number = table[target]
    if role == "numref":
        referenced.add(target)
        text = words.replace("%s", str(number)) if words else f"Figure {number}"
    else:
        text = words.replace("%s", number.strip("()")) if words else number
    token.meta["html"] = (f'<a class="ex-ref" href="#{html.escape(target, quote=True)}">'
                          f"{html.escape(text)}</a>")


def references_plugin(md: MarkdownIt) -> None:
    md.core.ruler.push("prose_references", _references_rule)  # after the headings get their ids
    figure_rule = md.renderer.rules["figure"]
    math_rule = md.renderer.rules.get("math_block_label")

    def render_figure(self, tokens, idx, options, env) -> str:
        out = figure_rule(tokens, idx, options, env)
        meta = tokens[idx].meta
        if not out or not (meta.get("caption_tokens") or meta.get("referenced")):
            return out
        caption = self.renderInline(meta.get("caption_tokens") or [], options, env)
        figcaption = (f'<figcaption class="ex-caption"><span class="ex-caption-number">Figure {meta["number"]}'
                      f'{"." if caption else ""}</span>{" " + caption if caption else ""}</figcaption>\n')
        end = out.rfind("</figure>")
        return out[:end] + figcaption + out[end:]

    def render_equation(self, tokens, idx, options, env) -> str:
        out = math_rule(tokens, idx, options, env)
        token = tokens[idx]
        if 'class="ex-eq-number"' in out:  # its own \tag gives the number
            return out.replace('<div class="ex-math">', f'<div class="ex-math ex-equation" id="{html.escape(token.info, quote=True)}">', 1)
        label = html.escape(token.info, quote=True)
        number = f'<span class="ex-eq-number">{token.meta["number"]}</span>'
        if out.startswith('<div class="ex-math">') and out.rstrip().endswith("</div>"):
            body = out.rstrip()[len('<div class="ex-math">'):-len("</div>")]
            return f'<div class="ex-math ex-equation" id="{label}">{body}{number}</div>\n'
        return f'<div class="ex-math ex-equation" id="{label}">{out}{number}</div>\n'

    md.add_render_rule("figure", render_figure)
    if math_rule is not None:
        md.add_render_rule("math_block_label", render_equation)
