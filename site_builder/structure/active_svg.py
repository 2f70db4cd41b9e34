"""SVG images that would run code. An SVG shown by <img> never runs its scripts, but one
opened by itself (a reader follows the image's address, or a link to it) is a document of
the site's origin: its scripts and event handlers run with the site's cookies and storage.
The build publishes no SVG that holds any (``active_part``), wherever it sits in content/."""

from __future__ import annotations

import re
from pathlib import Path
from xml.parsers import expat

# Elements that run code or hold a document of their own (which may run code).
ACTIVE_ELEMENTS = {"script", "foreignobject", "iframe", "object", "embed", "handler", "listener"}
# Animation that may set an address or a handler (<set attributeName="href" to="javascript:...">).
ANIMATIONS = {"set", "animate"}
_JAVASCRIPT = re.compile(r"^\s*(javascript|vbscript|data\s*:\s*text/html)\s*:?", re.I)
# For a file that is not well-formed XML (browsers show an error, but say so anyway).
_LOOSE = re.compile(
    r"<\s*(script|foreignobject|iframe|object|embed|handler)\b|(?<=\s)on[a-z]+\s*=|javascript\s*:", re.I
)


def _local(name: str) -> str:
    return name.rsplit(" ", 1)[-1].rsplit(":", 1)[-1].lower()


def active_part(path: Path) -> tuple[int, int, str] | None:
    """(line, column, what) of the first part of the SVG file ``path`` that would run code
    when the file is opened by itself: a <script> or <foreignObject> element, an on...
    event attribute, a javascript: address, an animation that sets one; or None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    found: list[tuple[int, int, str]] = []
    parser = expat.ParserCreate(namespace_separator=" ")

    def start(name, attributes):
        if found:
            return
        where = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        tag = _local(name)
        if tag in ACTIVE_ELEMENTS:
            found.append((*where, f"a <{name.rsplit(' ', 1)[-1]}> element"))
            return
        for attribute, value in attributes.items():
            key = _local(attribute)
            if key.startswith("on"):
                found.append((*where, f"the event attribute {key}= on <{tag}>"))
            elif _JAVASCRIPT.match(value or ""):
                found.append((*where, f"a script address in {key}= on <{tag}>"))
            elif (
                tag in ANIMATIONS
                and key == "attributename"
                and (value.lower().startswith("on") or _local(value) == "href")
            ):
                found.append((*where, f"an animation of {value} on <{tag}>"))
            if found:
                return

    parser.StartElementHandler = start
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        match = _LOOSE.search(data.decode("utf-8", "replace"))
        if match and not found:
            text = data.decode("utf-8", "replace")
            line = text.count("\n", 0, match.start()) + 1
            found.append(
                (line, match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1, f"'{match.group(0).strip()}'")
            )
    return found[0] if found else None


def active_message(path: Path) -> tuple[int, int, str, str] | None:
    """The build's error for an SVG that would run code, as (line, column, message, hint)
    in the SVG file itself, or None."""
    part = active_part(path)
    if part is None:
        return None
    line, col, what = part
    return (
        line,
        col,
        f"the SVG image {path.name} holds {what}; opened by itself, an SVG runs its scripts as a page of the site",
        "remove it (an image needs no script), or save the image as PNG",
    )
