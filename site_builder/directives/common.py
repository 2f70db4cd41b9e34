"""Helpers shared by the directives: option lines and error reports."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import SourceError

_OPTION = re.compile(r"^:([A-Za-z][\w-]*):(?:\s+(.*?))?\s*$")


@dataclass
class OptionLine:
    name: str
    value: str
    line: int  # 0-based line in the source file
    name_col: int  # 1-based column of the option's name
    value_col: int  # 1-based column of its value


def parse_body(state, body: str, first_line0: int) -> list:
    """Block-parse a directive's body as Markdown; its tokens keep this file's lines.

    Only the block stage runs here: the outer pipeline's inline and later rules then
    handle these tokens once, like any others (and nested directives in them)."""
    children: list = []
    state.md.block.parse(body, state.md, state.env, children)
    for child in children:
        if child.map:
            child.map = [child.map[0] + first_line0, child.map[1] + first_line0]
    return children


def report(env: dict, line0: int, col: int, message: str, hint: str = "") -> None:
    """Record an error at a 0-based line of the current source (nested bodies add an offset)."""
    env.setdefault("errors", []).append(
        SourceError(env.get("path", "<string>"), env.get("line_offset", 0) + line0 + 1, col, message, hint)
    )


def split_options(content: str, first_line0: int) -> tuple[list[OptionLine], str, int]:
    """Split a directive's content into its leading ``:name: value`` lines and the body.

    Returns the options, the body text and the 0-based line where the body starts.
    """
    options: list[OptionLine] = []
    lines = content.split("\n")
    used = 0
    for offset, raw in enumerate(lines):
        stripped = raw.lstrip()
        match = _OPTION.match(stripped)
        if not match:
            break
        indent = len(raw) - len(stripped)
        value = match.group(2) or ""
        value_col = indent + (raw[indent:].find(value, len(match.group(1)) + 2) if value else len(stripped)) + 1
        options.append(OptionLine(match.group(1), value, first_line0 + offset, indent + 2, value_col))
        used = offset + 1
    body = "\n".join(lines[used:])
    return options, body, first_line0 + used
