"""Helpers shared by the directives: option lines and error reports."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

from markdown_it.token import Token

from ...errors import SourceError

_OPTION = re.compile(r"^:([A-Za-z][\w-]*):(?:\s+(.*?))?\s*$")


@dataclass
class OptionLine:
    name: str
    value: str
    line: int  # 0-based line in the source file
    name_col: int  # 1-based column of the option's name
    value_col: int  # 1-based column of its value


def parse_body(state, body: str, first_line0: int, parent=None) -> list:
    """Block-parse a directive's body as Markdown; its tokens keep this file's lines.

    Only the block stage runs here: the outer pipeline's inline and later rules then
    handle these tokens once, like any others (and nested directives in them). A block
    left open at the end of the body was cut short by the parent's closing fence: the
    child remembers that fence, for the error message."""
    children: list = []
    state.md.block.parse(body, state.md, state.env, children)
    end = first_line0 + len(body.split("\n"))
    for child in children:
        if child.map:
            child.map = [child.map[0] + first_line0, child.map[1] + first_line0]
            if parent is not None and child.type == "colon_fence" and child.map[1] >= end - 1 and parent.map:
                child.meta = {**(child.meta or {}), "parent": (parent.info.strip(), parent.map[0], parent.map[1] - 1)}
    return children


_CLOSING = re.compile(r"^(:{3,})\s*$")


def block_token(kind: str, tag: str, nesting: Literal[-1, 0, 1], source_map) -> Token:
    """A block token a directive puts in place of its fence (an opening, a closing)."""
    token = Token(kind, tag, nesting)
    token.block = True
    token.map = source_map
    return token


def inline_token(text: str, source_map) -> Token:
    """A title's or summary's text, parsed as inline Markdown by the pipeline's inline stage."""
    token = Token("inline", "", 0)
    token.content = text
    token.map = source_map
    token.children = []
    return token


def fence_closed(token, lines: list[str]) -> bool:
    """Whether a colon fence ends with its own closing line (else it ran to the end of
    the lesson, or of its parent block, swallowing everything after it)."""
    start, end = token.map
    if end - start < 2 or end - 1 >= len(lines):
        return False
    match = _CLOSING.match(lines[end - 1].lstrip(" \t>"))
    return match is not None and len(match.group(1)) >= len(token.markup)


def check_closed(env: MutableMapping[str, Any], token) -> bool:
    """Report a colon fence that is never closed, at the line where it opened."""
    if fence_closed(token, env.get("lines") or []):
        return True
    what = (token.info.strip().split() or [""])[0] if token.info.strip().startswith("{") else "':::'"
    parent = (token.meta or {}).get("parent")
    colons = len(token.markup)
    if parent:
        info, opened, closed = parent
        name = info.split()[0] if info.startswith("{") else "':::'"
        message = (
            f"the {what} block opened here is never closed: the fence on line {closed + 1} closed the "
            f"{name} block of line {opened + 1} around it first"
        )
        hint = (
            f"give the outer block more colons than the inner one: '{':' * (colons + 1)}{info}' ... "
            f"'{':' * (colons + 1)}' around '{token.markup}{token.info.strip()}' ... '{token.markup}'"
        )
        env["cut_short"] = closed  # the outer block's own closing fence is left over, after this line
    elif not token.info.strip() and token.map[0] > env.get("cut_short", len(env.get("lines") or ())):
        return False  # that left-over fence, read as a block of its own: the error above says why
    else:
        message = f"the {what} block opened here is never closed, so it would hold the rest of the lesson"
        hint = (
            f"end it with a line '{token.markup}'; a block inside it needs fewer colons than the block "
            f"around it (e.g. '::::{{question}}' around ':::{{attention-row}}')"
        )
    report(env, token.map[0], 1, message, hint)
    return False


def found_in(env: MutableMapping[str, Any], block, text: str, nth: int = 0) -> tuple[int, int]:
    """The 0-based line and 1-based column where ``text`` stands in the source lines of
    ``block`` (a paragraph, a list item), its ``nth`` time there (0: the first), for a
    message about something inside it; else its first line, column 1."""
    lines = env.get("lines") or []
    offset = env.get("line_offset", 0)  # a directive's body: its lines start there
    first, end = block.map if block.map else (0, 1)
    for line0 in range(first, min(end, len(lines) - offset)):
        at = lines[offset + line0].find(text)
        while at >= 0 and nth:
            nth -= 1
            at = lines[offset + line0].find(text, at + len(text))
        if at >= 0:
            return line0, at + 1
    return first, 1


def report(env: MutableMapping[str, Any], line0: int, col: int, message: str, hint: str = "") -> None:
    """Record an error at a 0-based line of the current source (nested bodies add an offset)."""
    env.setdefault("errors", []).append(
        SourceError(env.get("path", "<string>"), env.get("line_offset", 0) + line0 + 1, col, message, hint)
    )


def known_options(
    env: MutableMapping[str, Any],
    options: list[OptionLine],
    known: Collection[str],
    unknown: Callable[[str], str],
    hint: str,
) -> dict[str, OptionLine]:
    """The options named in ``known``, by name; each other one is reported at its name,
    ``unknown(name)`` saying what is wrong and ``hint`` which options there are."""
    found = {}
    for option in options:
        if option.name in known:
            found[option.name] = option
        else:
            report(env, option.line, option.name_col, unknown(option.name), hint)
    return found


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


def where(env: MutableMapping[str, Any], parent: Token, token: Token) -> tuple[int, int]:
    """0-based source line and 1-based column of a role, for error messages."""
    line0 = parent.map[0] if parent.map else 0
    before = parent.content[: token.meta["pos"]]
    line0 += before.count("\n")
    lines = env.get("lines") or []
    text = lines[line0] if 0 <= line0 < len(lines) else ""
    at = text.find(token.meta["raw"].split("\n")[0])
    col = at + 1 if at >= 0 else len(before) - (before.rfind("\n") + 1) + 1
    return line0, col
