"""The pages of a large site parsed and rendered on every core of the machine.

``parse`` and ``render`` give what ``parse_page`` and ``render_page`` would, in the order
of the pages, from a pool of worker processes forked from the build (so they have the
site's words, its own figures and the parser's settings as the build has them). What
needs the whole site (links, sections, numbering across lessons, the search index, the
menus) stays in the build, done once. A site of fewer than ``SERIAL_BELOW`` pages, or a
machine with one core, is built in the build's own process: there a pool costs more to
start than it saves. The output is the same byte for byte either way (tested).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ..markdown.parser import Page

SERIAL_BELOW = 150  # pages: fewer are parsed and rendered in the build's own process

_WORK: dict[str, Any] = {}  # what the workers inherit when forked: the parser and the content's root


def workers() -> int:
    """The processes a pool may use: the cores this process may run on."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _pooled(count: int) -> int:
    """How many workers for ``count`` pages (0: none, the build's own process)."""
    if count < SERIAL_BELOW or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    n = workers()
    return n if n > 1 else 0


def _parse_one(job: tuple[Path, str, str]) -> tuple[str, Any]:
    path, slug, text = job
    try:
        page = _WORK["parse"](_WORK["md"], path, slug, text, content_root=_WORK["content"], language=_WORK["language"])
    except Exception as err:  # raised again in the build, inside the file's `building`
        return "raised", err
    return "page", page


def _revive(page: Page) -> Page:
    """A page as it comes from another process, ready to render: Pygments makes a regular
    expression lexer's rules on the first instance of its class, which an unpickled
    lexer is not; one instance made here makes them."""
    for token in page.tokens:
        lexer = ((token.meta or {}).get("code") or {}).get("lexer")
        if lexer is not None and not hasattr(lexer, "_tokens") and hasattr(type(lexer), "tokens"):
            type(lexer)()
    return page


def _render_one(page: Page) -> tuple[str, Any]:
    _revive(page)
    try:
        body = _WORK["render"](_WORK["md"], page)
    except Exception as err:
        return "raised", err
    return "body", (body, page.env)


def _run(fn: Callable, jobs: list, count: int) -> Iterator[tuple[str, Any]]:
    context = multiprocessing.get_context("fork")
    with context.Pool(count) as pool:
        yield from pool.imap(fn, jobs, chunksize=max(1, len(jobs) // (count * 8)))


def parse(
    md: MarkdownIt, jobs: list[tuple[Path, str, str]], content: Path, language: str, parse_page: Callable
) -> Iterator[Callable[[], Page]]:
    """For each (path, slug, text) in order, a call giving its Page (``parse_page``'s,
    markdown/parser.py) or raising what parsing it raised: called inside the file's
    `building`."""
    _WORK.update(md=md, content=content, language=language, parse=parse_page)
    count = _pooled(len(jobs))
    if not count:
        for path, slug, text in jobs:
            yield functools.partial(parse_page, md, path, slug, text, content_root=content, language=language)
        return
    for kind, value in _run(_parse_one, jobs, count):
        yield _given(kind, _revive(value) if kind == "page" else value)


def render(md: MarkdownIt, pages: list[Page], render_page: Callable) -> Iterator[Callable[[], str]]:
    """For each page in order, a call giving its body (``render_page``'s: the errors
    found while rendering join the page's) or raising what rendering it raised."""
    _WORK.update(md=md, render=render_page)
    count = _pooled(len(pages))
    if not count:
        for page in pages:
            yield functools.partial(render_page, md, page)
        return
    for page, (kind, value) in zip(pages, _run(_render_one, pages, count), strict=True):
        if kind == "body":
            body, env = value
            page.env.clear()
            page.env.update(env)  # what rendering added: its errors and warnings, numbers, ids
            page.errors, page.warnings = env["errors"], env["warnings"]
            yield _given("body", body)
        else:
            yield _given(kind, value)


def _given(kind: str, value: Any) -> Callable[[], Any]:
    def given() -> Any:
        if kind == "raised":
            raise value
        return value

    return given
