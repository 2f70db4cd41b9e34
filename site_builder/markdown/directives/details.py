"""A folded block: a summary line the reader opens to see the body.

    :::{details} How to use this figure
    - Click a cell to pick its row.
    :::

The body is Markdown (lists, math, nested directives). Lessons use it to keep a
figure's instructions out of the running text.
"""

from __future__ import annotations

from markdown_it.rules_core import StateCore

from .common import block_token, inline_token, parse_body, report


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    line0 = token.map[0] if token.map else 0  # (a directive's token has its lines)
    if not argument:
        report(
            state.env,
            line0,
            len(token.markup) + len(name) + 3,
            "{details} needs a summary after the name",
            "write ':::{details} How to use this figure' then the folded text below it",
        )
    if not token.content.strip():
        report(
            state.env,
            line0,
            1,
            "{details} has nothing to fold",
            "write the folded text on the lines between the opening and closing fences",
        )

    opening = block_token("details_open", "details", 1, token.map)
    opening.attrSet("class", "ex-details")
    summary = [
        block_token("details_summary_open", "summary", 1, token.map),
        inline_token(argument, token.map),
        block_token("details_summary_close", "summary", -1, token.map),
    ]
    children = parse_body(state, token.content, line0 + 1, token)
    closing = block_token("details_close", "details", -1, token.map)
    state.tokens[index : index + 1] = [opening, *summary, *children, closing]
    return 1  # go on into the body: it may hold directives too
