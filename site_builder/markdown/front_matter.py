"""A lesson's front matter: the keys it may hold, read and checked, and front matter
written without its opening '---' (which Markdown would show as text)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ...engine.figures.base import closest
from ..errors import SourceError
from ..quoting import quote
from ..structure.files import load_yaml, yaml_problem
from .directives.common import report

# Front matter keys a lesson may use: name -> (type, what it is for)
FRONT_MATTER = {
    "title": (str, "the lesson's title"),
    "order": (int, "its place in the track (1, 2, ...)"),
    "summary": (str, "one sentence shown in the list of lessons"),
    "description": (str, "a sentence for search engines and link previews (default: the summary)"),
    "image": (str, "a picture for link previews, relative to the content folder"),
}


def front_matter(tokens, path: Path, env: dict) -> dict[str, Any]:
    """The lesson's front matter, its keys checked against FRONT_MATTER (each problem reported)."""
    if not tokens or tokens[0].type != "front_matter":
        return {}
    token = tokens[0]
    try:
        data = load_yaml(token.content) or {}
    except yaml.YAMLError as err:
        line, col, problem, hint = yaml_problem(err, token.content)
        report(env, line, col, f"front matter is not valid YAML: {problem}", hint)
        return {}
    if not isinstance(data, dict):
        report(env, 1, 1, "front matter must be `key: value` lines")
        return {}
    lines = token.content.split("\n")
    meta: dict[str, Any] = {}
    for key, value in data.items():
        line0 = 1 + next((i for i, text in enumerate(lines) if text.split(":", 1)[0].strip() == str(key)), 0)
        spec = FRONT_MATTER.get(key)
        if spec is None:
            close = closest(str(key), FRONT_MATTER)
            hint = f"did you mean '{close}'?" if close else f"known keys: {', '.join(FRONT_MATTER)}"
            report(env, line0, 1, f"unknown front matter key {quote(str(key))}", hint)
            continue
        kind, doc = spec
        if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if value is None:  # `title:` with nothing after it
            report(
                env,
                line0,
                len(str(key)) + 2,
                f"front matter '{key}' is empty",
                f"write its value after the colon, or remove the line ({key}: {doc})",
            )
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            report(
                env,
                line0,
                len(str(key)) + 3,
                f"front matter '{key}' expects {'an integer' if kind is int else 'text'}, got {quote(value)}",
                f"{key}: {doc}",
            )
            continue
        meta[key] = value
    return meta


_KEY_LINE = re.compile(rf"^({'|'.join(FRONT_MATTER)})\s*:")
_ANY_KEY_LINE = re.compile(r"^[A-Za-z_][\w-]*\s*:")


def headless_front_matter(tokens, text: str, env: dict) -> None:
    """Warn about front matter lines at the top of a file without the opening '---':
    Markdown shows them as text (often a heading) and the title is lost."""
    if tokens and tokens[0].type == "front_matter":
        return
    lines = text.split("\n")
    if lines[0].rstrip() == "---" and len(lines) > 1 and _ANY_KEY_LINE.match(lines[1]):
        last = 1
        while last + 1 < len(lines) and _ANY_KEY_LINE.match(lines[last + 1]):
            last += 1
        report(
            env,
            0,
            1,
            "the front matter opened here is not closed, so it is shown as text and the page has no title of its own",
            f"put a line '---' below its last `key: value` line (line {last + 1})",
        )
        return
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or not _KEY_LINE.match(lines[first]):
        return
    key = lines[first].split(":", 1)[0].strip()
    env.setdefault("warnings", []).append(
        SourceError(
            env["path"],
            first + 1,
            1,
            f"'{key}:' looks like front matter, but the file does not start with '---', so it is shown as text",
            "put a line '---' above it and another below the last `key: value` line",
        )
    )
