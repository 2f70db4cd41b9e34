"""Check-yourself questions whose answers stay hidden until the reader opens them.

::::{question} If every key were identical, what would the weights be?
The answer, in Markdown (math and figures allowed).
::::
"""

from __future__ import annotations

from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ....engine.locale import t
from .common import parse_body, report


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    line0 = token.map[0] if token.map else 0  # (a directive's token has its lines)
    env = state.env
    if not argument:
        report(
            env,
            line0,
            len(token.markup) + len(name) + 3,
            "{question} needs the question after the name",
            "write ':::{question} Why can the output never leave the hull?' then the answer below it",
        )
    body_line0 = line0 + 1
    if not token.content.strip():
        report(
            env,
            line0,
            1,
            "{question} has no answer",
            "write the answer on the lines between the opening and closing fences",
        )

    children = parse_body(state, token.content, body_line0, token)

    number = env["question_count"] = env.get("question_count", 0) + 1
    opening = Token("question_open", "details", 1)
    opening.meta = {"title": argument, "number": number}
    opening.map = token.map
    closing = Token("question_close", "details", -1)
    state.tokens[index : index + 1] = [opening, *children, closing]
    return 1  # go on into the answer: it may hold directives too


def _open(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    title = self.md_inline(meta["title"], env) if hasattr(self, "md_inline") else meta["title"]
    return (
        f'<details class="ex-question">\n<summary>'
        f'<span class="ex-question-label">{escape(t("page.check_yourself"))}</span> '
        f'{title}</summary>\n<div class="ex-answer">\n'
    )


def _close(self, tokens, idx, options, env) -> str:
    return "</div>\n</details>\n"


def add_render_rules(md: MarkdownIt) -> None:
    def md_inline(text: str, env: dict) -> str:
        # the title's own inline tokens: md.renderInline would also render what the core
        # rules add after them, such as the page's list of footnotes
        tokens = md.parseInline(text, env)
        return renderer.renderInline(tokens[0].children or [], md.options, env) if tokens else ""

    renderer: Any = md.renderer  # a RendererHTML, given an attribute of the project's own:
    renderer.md_inline = md_inline  # titles may hold inline Markdown and math
    md.add_render_rule("question_open", _open)
    md.add_render_rule("question_close", _close)
