"""print.html: every lesson of the site on one page, for print and "Save as PDF", its
figures as their stills, its exercises with a blank line for the answer. The lessons'
ids are kept apart and their addresses rebased to the site's root, where the page is
written."""

from __future__ import annotations

import html as html_lib
import posixpath
import re

PRINT_PAGE = "print.html"
TOC = re.compile(r'<nav class="ex-toc".*?</nav>\n?', re.S)
# an exercise as the lesson page holds it (markdown/directives/exercise.py writes it)
_LIVE = re.compile(
    r'<form class="ex-answer" novalidate>\n<label for="[^"]*">(?P<label>[^<]*)</label> '
    r'<input [^>]*?placeholder="(?P<form>[^"]*)">.*?</form>\n<p class="ex-feedback"[^>]*></p>\n'
    r'<script type="application/json" class="ex-exercise-data">[^<]*</script>\n',
    re.S,
)
BLANK = "_" * 24  # the line an answer is written on, on paper


def on_paper(body: str) -> str:
    """A rendered page body with its exercises as paper holds them (print.html): the
    problem as the build wrote it and, for the form, a blank line to write the answer on
    and the form the answer takes; no field, no buttons, no data for the runtime."""
    return _LIVE.sub(
        lambda m: (
            f'<p class="ex-answer-line">{m["label"]}: <span aria-hidden="true">{BLANK}</span> '
            f"<small>({m['form']})</small></p>\n"
        ),
        body,
    )


def print_prefix(url: str) -> str:
    """What a lesson's ids are prefixed with on print.html, and its article's own id."""
    return re.sub(r"[^A-Za-z0-9-]", "-", url.removesuffix(".html"))


def print_body(body: str, url: str, printed: set[str]) -> str:
    """A lesson's body as print.html (at the site's root) holds it: without "On this
    page", its exercises as paper holds them (a blank line for the answer, no form: the
    page runs no exercise script), with its ids (and what names them: anchors, labels,
    ARIA references) prefixed by the lesson, so that lessons side by side on one page
    keep theirs apart, and its relative addresses rebased from the lesson's folder. A
    link to a lesson that is on print.html too (``printed``) becomes a link within the
    page. One pass over the body's attribute values (found by their ``="``), each told
    apart by the name before it."""
    prefix = print_prefix(url)
    folder = posixpath.dirname(url)
    body = TOC.sub("", body, count=1)
    body = on_paper(body)

    def changed(name: str | None, value: str) -> str | None:
        """The value's new text, quoted; None: as it is."""
        if value[:1] == "#" and name in ("href", "…href"):
            return f'"#{prefix}--{value[1:]}"'
        if name in _ID_NAMES:
            return '"' + " ".join(f"{prefix}--{i}" for i in value.split()) + '"'
        if name not in ("href", "src") or _ABSOLUTE.match(value):
            return None
        path, _, fragment = value.partition("#")
        target = posixpath.normpath(posixpath.join(folder, html_lib.unescape(path))) if path else url
        if name == "href" and target in printed:
            return f'"#{print_prefix(target)}' + (f"--{fragment}" if fragment else "") + '"'
        return f'"{html_lib.escape(target)}' + (f"#{fragment}" if fragment else "") + '"'

    out: list[str] = []
    done = 0
    for candidate in _CANDIDATES.finditer(body):  # a value after a name ending as one of _NAMES does
        at = candidate.end() - 2
        if at < done:
            continue
        end = body.find('"', at + 2)
        if end == -1:
            break
        name = next((name for name in _NAMES if _named(body, at, name)), None)
        if name is None and body.endswith("href", 0, at):
            name = "…href"  # a longer name ending in "href": its "#" anchors are the lesson's too
        new = changed(name, body[at + 2 : end])
        if new is not None:
            out += (body[done : at + 1], new)
            done = end + 1
    return "".join(out) + body[done:] if out else body


# The attributes print_body changes: those naming ids, then the addresses.
_ID_NAMES = ("id", "for", "headers", "aria-labelledby", "aria-describedby", "aria-controls")
_NAMES = (*_ID_NAMES, "href", "src")
_ABSOLUTE = re.compile(r"^(#|/|[a-zA-Z][a-zA-Z0-9+.-]*:)")
# Where a value may be one of _NAMES': the name's letters just before its '="' (the others,
# a still's thousands of coordinates, are passed by; _named then tells the name for sure)
_CANDIDATES = re.compile("(?:" + "|".join(re.escape(name) for name in _NAMES) + ')="')


def _named(body: str, at: int, name: str) -> bool:
    """Whether the attribute value at ``at`` is ``name``'s: the name just before it, and
    no letter, digit or underscore before the name (``data-id`` is an id, ``grid`` no)."""
    if not body.endswith(name, 0, at):
        return False
    before = at - len(name) - 1
    return before < 0 or not (body[before].isalnum() or body[before] == "_")
