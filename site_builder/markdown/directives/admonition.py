"""Admonitions (MyST names): a note, tip, warning or important box beside the text.

    :::{note} Optional title
    Body in Markdown.
    :::

    :::{tip} Folded until opened
    :class: dropdown
    The body stays hidden until the reader opens it.
    :::

Without a title the box is titled by its kind ("Note"). ``:class: dropdown`` folds it
into a <details> the reader opens; other classes are added to the box for the stylesheet.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from ....engine.figures.base import closest
from ....engine.locale import t
from .common import block_token, inline_token, parse_body, report, split_options

KINDS = ("note", "tip", "warning", "important")
TITLES = {"note": "page.note", "tip": "page.tip", "warning": "page.warning", "important": "page.important"}
OPTIONS = ("class",)
_CLASS = re.compile(r"^[A-Za-z][\w-]*$")


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    line0 = token.map[0] if token.map else 0  # (a directive's token has its lines)
    env = state.env
    options, body, body_line0 = split_options(token.content, line0 + 1)
    classes: list[str] = []
    for opt in options:
        if opt.name not in OPTIONS:
            close = closest(opt.name, OPTIONS)
            report(
                env,
                opt.line,
                opt.name_col,
                f"{{{name}}}: unknown option '{opt.name}'",
                f"did you mean '{close}'?" if close else "an admonition takes only ':class: dropdown'",
            )
            continue
        for cls in opt.value.split():
            if not _CLASS.match(cls):
                report(
                    env,
                    opt.line,
                    opt.value_col,
                    f"{{{name}}}: class {cls!r} is not a simple name",
                    "use letters, digits, '-' and '_', e.g. ':class: dropdown'",
                )
            else:
                classes.append(cls)
    if not body.strip():
        report(
            env,
            line0,
            1,
            f"{{{name}}} is empty",
            f"write its text on the lines between ':::{{{name}}}' and the closing ':::'",
        )
    dropdown = "dropdown" in classes
    title = argument or t(TITLES[name])
    css = " ".join(["ex-admonition", f"ex-{name}", *[c for c in classes if c != "dropdown"]])

    opening = block_token("admonition_open", "details" if dropdown else "aside", 1, token.map)
    opening.meta = {"kind": name, "classes": css, "dropdown": dropdown}
    heading = [
        block_token("admonition_title_open", "summary" if dropdown else "p", 1, token.map),
        inline_token(title, token.map),
        block_token("admonition_title_close", "summary" if dropdown else "p", -1, token.map),
    ]
    heading[0].meta = {"dropdown": dropdown}
    heading[2].meta = {"dropdown": dropdown}
    children = parse_body(state, body, body_line0)
    closing = block_token("admonition_close", "details" if dropdown else "aside", -1, token.map)
    closing.meta = {"dropdown": dropdown}
    state.tokens[index : index + 1] = [opening, *heading, *children, closing]
    return 1  # go on into the body: it may hold directives too


def _open(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    if meta["dropdown"]:
        return f'<details class="{meta["classes"]}">\n'
    return f'<aside class="{meta["classes"]}" role="note">\n'


def _title_open(self, tokens, idx, options, env) -> str:
    return "<summary>" if tokens[idx].meta["dropdown"] else '<p class="ex-admonition-title">'


def _title_close(self, tokens, idx, options, env) -> str:
    return "</summary>\n" if tokens[idx].meta["dropdown"] else "</p>\n"


def _close(self, tokens, idx, options, env) -> str:
    return "</details>\n" if tokens[idx].meta["dropdown"] else "</aside>\n"


def add_render_rules(md: MarkdownIt) -> None:
    md.add_render_rule("admonition_open", _open)
    md.add_render_rule("admonition_title_open", _title_open)
    md.add_render_rule("admonition_title_close", _title_close)
    md.add_render_rule("admonition_close", _close)
