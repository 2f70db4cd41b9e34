"""Directives: MyST-style colon fences such as ``:::{attention-row} explorer``.

``directives_plugin`` adds one core rule that finds colon fences whose info is
``{name} argument`` and hands each to the directive of that name (a figure from
engine.figures, or one of the teaching directives here). Unknown names are reported
with a "did you mean". Errors go to ``env["errors"]`` with source lines.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ....engine.figures import FIGURES
from ....engine.figures.base import closest
from ...authors.checks import is_directive_name
from ...authors.loader import named_in_failed, unknown_hint
from ...quoting import clip
from . import admonition, details, exercise, figure, image, names, question
from .common import check_closed, parse_body, report

_INFO = re.compile(r"^\{([^}]*)\}\s*(.*)$")

_OWN = {
    "question": question.expand,
    "details": details.expand,
    "figure": image.expand,
    "image": image.expand,
    "exercise": exercise.expand,
}  # the admonitions' kinds are the others
# name -> handler(state, token_index, name, argument) -> number of tokens it left
TEACHING = {name: _OWN.get(name, admonition.expand) for name in names.TEACHING}


def known_names() -> list[str]:
    """The directives a lesson may write (a figure misnamed in its module is no suggestion)."""
    return sorted([*(name for name in FIGURES if is_directive_name(name)), *TEACHING])


def _directives_rule(state: StateCore) -> None:
    index = 0
    while index < len(state.tokens):
        token = state.tokens[index]
        if token.type != "colon_fence":
            index += 1
            continue
        if not check_closed(state.env, token):
            token.type = "directive_error"
            index += 1
            continue
        match = _INFO.match(token.info.strip())
        if match is None:
            index += _plain_div(state, index)
            continue
        name, argument = match.group(1).strip(), match.group(2).strip()
        if name in FIGURES:
            figure.expand(state, index, name, argument)
            index += 1
        elif name in TEACHING:
            index += TEACHING[name](state, index, name, argument)
        elif named_in_failed(name):  # its module's error is listed: one mistake, one message
            token.type = "directive_error"
            if argument:
                state.env.setdefault("unmade_figures", set()).add(argument)
            index += 1
        else:
            close = closest(name, known_names())
            hint = unknown_hint(
                name,
                _site_folder(state.env),
                (f"did you mean '{{{close}}}'?" if close else f"known directives: {', '.join(known_names())};")
                + " `explorables figures` lists every figure and its options",
            )
            report(
                state.env,
                token.map[0] if token.map else 0,
                len(token.markup) + 1,
                f"unknown directive '{{{clip(name)}}}'",
                hint,
            )
            token.type = "directive_error"
            if argument:  # most likely a figure's id: the prose quoting it stays quiet (roles.py)
                state.env.setdefault("unmade_figures", set()).add(argument)
            index += 1


def _site_folder(env: MutableMapping[str, Any]):
    """The folder the site's files are named from in messages (content/'s parent)."""
    content = env.get("content_root")
    return content.parent if content is not None else None


def _plain_div(state: StateCore, index: int) -> int:
    """A colon fence with no directive (``:::`` or ``::: note``) is a div of Markdown."""
    token = state.tokens[index]
    classes = " ".join(["ex-block", *token.info.split()])
    opening = Token("div_open", "div", 1)
    opening.attrSet("class", classes)
    opening.map = token.map
    closing = Token("div_close", "div", -1)
    children = parse_body(state, token.content, (token.map[0] if token.map else 0) + 1, token)
    state.tokens[index : index + 1] = [opening, *children, closing]
    return 1


def directives_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("block", "directives", _directives_rule)
    figure.add_render_rules(md)
    question.add_render_rules(md)
    admonition.add_render_rules(md)
    exercise.add_render_rules(md)
