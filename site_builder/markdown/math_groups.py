"""The groups of a TeX formula, checked before latex2mathml reads it: braces, \\left and
\\right, \\begin and \\end, each closed by its own kind, and how deep they nest; a
group left open or closed twice is an error that says where (math.py turns TeX into
MathML)."""

from __future__ import annotations

import re

from ..quoting import quoted


class MathError(ValueError):
    """TeX that cannot be turned into MathML; the message says what to fix."""


def group_depth(tex: str) -> int:
    r"""How deep groups nest: braces, \left/\right and \begin/\end."""
    depth = most = 0
    for match in re.finditer(r"\\[{}]|\\(?:left|begin)\b|\\(?:right|end)\b|[{}]", tex):
        token = match.group()
        if token in ("{", "\\left", "\\begin"):
            depth += 1
            most = max(most, depth)
        elif token in ("}", "\\right", "\\end"):
            depth -= 1
    return most


# The TeX cut into what check_groups looks at: a whole \begin{name} or \end{name}, a
# command, an escaped character (\{ is a brace to draw, not a group), a brace, or any
# other character but space.
_GROUP_TOKEN = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z]+|\\.|[{}]|\S", re.S)
# Commands whose argument is text: inside it \left, \begin, ... are words, not groups.
_TEXT_COMMANDS = {
    "\\text",
    "\\textrm",
    "\\textit",
    "\\textbf",
    "\\textsf",
    "\\texttt",
    "\\textup",
    "\\textmd",
    "\\textnormal",
    "\\mbox",
    "\\hbox",
    "\\fbox",
    "\\emph",
}
# The delimiter \right takes to close what \left opened.
_CLOSER = {
    "(": ")",
    "[": "]",
    "\\{": "\\}",
    "\\lbrace": "\\rbrace",
    "\\langle": "\\rangle",
    "\\lvert": "\\rvert",
    "\\lVert": "\\rVert",
    "\\lfloor": "\\rfloor",
    "\\lceil": "\\rceil",
    "\\lbrack": "\\rbrack",
    "<": ">",
}
_OPENER = {closer: opener for opener, closer in _CLOSER.items()}


def _place(tex: str, pos: int) -> str:
    """Where in ``tex`` the character at ``pos`` is, in words an author finds it by."""
    before = tex[:pos].rstrip()
    if not before:
        return "at the start"
    return "after " + (quoted(before) if len(before) <= 16 else quoted("…" + before[-15:].lstrip()))


def _open_group_error(entry: tuple[str, str, int], tex: str, shown: str, before: str = "") -> MathError:
    """The error for a group opened at ``entry`` and not closed (``before``: by what came first)."""
    kind, label, pos = entry
    where = _place(tex, pos)
    until = f" before {before}" if before else ""
    if kind == "{":
        problem = f"the '{{' {where} is never closed{until}"
        fix = "add '}' where its group ends (or write \\{ to show a brace)"
    elif kind == "left":
        problem = f"the \\left{label} {where} has no matching \\right{until}"
        fix = f"add \\right{_CLOSER.get(label, label)} where the bracket closes (or \\right. for none)"
    else:
        problem = f"the \\begin{{{label}}} {where} has no \\end{{{label}}}{until}"
        fix = f"add \\end{{{label}}} after its last line"
    return MathError(f"cannot read the TeX {shown}: {problem}; {fix}")


_COMMENT = re.compile(r"(?<!\\)%[^\n]*")  # a TeX comment, to the end of its line (not \\%)


def uncommented(tex: str) -> str:
    """``tex`` with its comments blanked out, each character's place kept."""
    return _COMMENT.sub(lambda found: " " * len(found.group()), tex)


def check_groups(tex: str, shown: str) -> None:
    r"""Every '{' closed by a '}', every \left by a \right and every \begin by its \end, each
    inside the one around it, as TeX requires; latex2mathml would close what is left open at
    the end of the formula and draw it as if the author had."""
    stack: list[tuple[str, str, int]] = []  # ("{" | "left" | "begin", delimiter or name, position)
    tokens = list(_GROUP_TOKEN.finditer(uncommented(tex)))
    text = 0  # how many text arguments ({...} after \text) the scan is inside
    for i, match in enumerate(tokens):
        token, pos = match.group(), match.start()
        if token == "{":
            in_text = i > 0 and tokens[i - 1].group() in _TEXT_COMMANDS
            text += in_text
            stack.append(("{", "text" if in_text else "", pos))
        elif token == "}":
            if not stack:
                raise MathError(
                    f"cannot read the TeX {shown}: the '}}' {_place(tex, pos)} has no '{{' opening it; "
                    "remove it, or add the '{' its group starts with (or write \\} to show a brace)"
                )
            if stack[-1][0] != "{":
                raise _open_group_error(stack[-1], tex, shown, f"the '}}' {_place(tex, pos)}")
            text -= stack.pop()[1] == "text"
        elif text:
            continue
        elif token in ("\\left", "\\right", "\\middle"):
            if i + 1 == len(tokens):
                raise MathError(
                    f"cannot read the TeX {shown}: {token} at the end has no bracket after it; "
                    f"write e.g. {token}( or {token}| (or {token}. for none)"
                )
            delimiter = tokens[i + 1].group()
            if token == "\\left":
                stack.append(("left", delimiter, pos))
            elif token == "\\middle":
                if not any(kind == "left" for kind, _, _ in stack) or stack[-1][0] == "begin":
                    raise MathError(
                        f"cannot read the TeX {shown}: the \\middle{delimiter} {_place(tex, pos)} is not "
                        "between a \\left and its \\right; put it inside \\left( ... \\right), "
                        f"or write \\mid or {delimiter} alone"
                    )
            elif not stack:
                opener = _OPENER.get(delimiter, delimiter)
                raise MathError(
                    f"cannot read the TeX {shown}: the \\right{delimiter} {_place(tex, pos)} has no "
                    f"matching \\left; add \\left{opener} where the bracket opens (or \\left. for none), "
                    f"or write {delimiter} alone"
                )
            elif stack[-1][0] != "left":
                raise _open_group_error(stack[-1], tex, shown, f"\\right{delimiter}")
            else:
                stack.pop()
        elif token.startswith(("\\begin", "\\end")) and "{" in token:  # not \\begingroup, \\endgroup
            name = token[token.index("{") + 1 : -1].strip()
            if token.startswith("\\begin"):
                stack.append(("begin", name, pos))
            elif not stack:
                raise MathError(
                    f"cannot read the TeX {shown}: the \\end{{{name}}} {_place(tex, pos)} has no "
                    f"\\begin{{{name}}}; add \\begin{{{name}}} before its first line, or remove it"
                )
            elif stack[-1][:2] != ("begin", name):
                raise _open_group_error(stack[-1], tex, shown, f"\\end{{{name}}}")
            else:
                stack.pop()
    if stack:
        raise _open_group_error(stack[-1], tex, shown)
