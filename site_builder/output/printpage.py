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
_ID_REFS = re.compile(r'\b(id|for|headers|aria-labelledby|aria-describedby|aria-controls)="([^"]*)"')
_OWN_ANCHOR = re.compile(r'href="#([^"]*)"')
_ADDRESS = re.compile(r'\b(href|src)="([^"]*)"')
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
    page."""
    prefix = print_prefix(url)
    folder = posixpath.dirname(url)
    body = TOC.sub("", body, count=1)
    body = on_paper(body)
    body = _ID_REFS.sub(lambda m: f'{m[1]}="' + " ".join(f"{prefix}--{i}" for i in m[2].split()) + '"', body)
    body = _OWN_ANCHOR.sub(lambda m: f'href="#{prefix}--{m[1]}"', body)

    def rebase(m: re.Match) -> str:
        attribute, address = m[1], m[2]
        if re.match(r"^(#|/|[a-zA-Z][a-zA-Z0-9+.-]*:)", address):
            return m[0]
        path, _, fragment = address.partition("#")
        target = posixpath.normpath(posixpath.join(folder, html_lib.unescape(path))) if path else url
        if attribute == "href" and target in printed:
            return f'href="#{print_prefix(target)}' + (f"--{fragment}" if fragment else "") + '"'
        return f'{attribute}="{html_lib.escape(target)}' + (f"#{fragment}" if fragment else "") + '"'

    return _ADDRESS.sub(rebase, body)
