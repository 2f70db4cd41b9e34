"""The pages of a large site parsed and rendered on every core of the machine.

``parse`` and ``render`` give what ``parse_page`` and ``render_page`` would, in the order
of the pages, from a pool of worker processes forked from the build (so they have the
site's words, its own figures and the parser's settings as the build has them). What
needs the whole site (links, sections, numbering across lessons, the search index, the
menus) stays in the build, done once. A site of fewer than ``SERIAL_BELOW`` pages, or a
machine with one core, is built in the build's own process: there a pool costs more to
start than it saves. So is a site built by a process that runs other threads (``serve``):
forking it is safe only with one thread. The output is the same byte for byte either way (tested).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ..markdown.parser import Page
from ..output import search_sections
from . import cache, slim

SERIAL_BELOW = 400  # pages: fewer are parsed and rendered in the build's own process (at 200, a pool cost more)

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
    if threading.active_count() > 1:  # `serve`'s server, a test runner: a lock another thread
        return 0  # holds at the fork would stay held in the child for ever
    n = workers()
    return n if n > 1 else 0


def _parse_one(job: tuple[Path, str, str]) -> tuple[str, Any]:
    path, slug, text = job
    try:
        page = _WORK["parse"](_WORK["md"], path, slug, text, content_root=_WORK["content"], language=_WORK["language"])
    except Exception as err:  # raised again in the build, inside the file's `building`
        return "raised", err
    try:
        return "split", slim.split(page)  # the build keeps it small until it is rendered
    except Exception:
        return "page", _dumped(page)


def _dumped(value: Any) -> bytes | Any:
    """``value`` pickled, as the build keeps it (cache.py), or as it is if it will not pickle."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return value


def _revive(page: Page) -> Page:
    """A page as it comes from another process, ready to render: Pygments makes a regular
    expression lexer's rules on the first instance of its class, which an unpickled
    lexer is not; one instance made here makes them."""
    for token in page.tokens:
        lexer = ((token.meta or {}).get("code") or {}).get("lexer")
        if lexer is not None and not hasattr(lexer, "_tokens") and hasattr(type(lexer), "tokens"):
            type(lexer)()
    return page


def _render_one(at: int) -> tuple[str, Any]:
    """Render the page ``at`` of those the worker was forked with (not sent: a page
    pickled costs more than its rendering)."""
    page = _revive(slim.whole(_WORK["pages"][at]))
    try:
        body = _WORK["render"](_WORK["md"], page)
    except Exception as err:
        return "raised", err
    return "body", _dumped((body, _rendered_env(page), search_sections.read_ahead(body)))  # its search sections too


def _rendered_env(page: Page) -> dict:
    """A page's env as rendering left it, but its text's lines (the build has them)."""
    return {key: value for key, value in page.env.items() if key != "lines"}


def _run(fn: Callable, jobs: list, count: int) -> Iterator[tuple[str, Any]]:
    context = multiprocessing.get_context("fork")
    with context.Pool(count) as pool:
        yield from pool.imap(fn, jobs, chunksize=max(1, len(jobs) // (count * 8)))


def parse(
    md: MarkdownIt,
    jobs: list[tuple[Path, str, str]],
    content: Path,
    language: str,
    parse_page: Callable,
    store: cache.Site | None = None,
) -> Iterator[Callable[[], Page]]:
    """For each (path, slug, text) in order, a call giving its Page (``parse_page``'s,
    markdown/parser.py) or raising what parsing it raised: called inside the file's
    `building`. With ``store`` (cache.py) a page parsed by an earlier build is taken
    from it, and each page parsed now is kept in it."""
    _WORK.update(md=md, content=content, language=language, parse=parse_page)
    keys = [store.parse_key(path, text) if store else "" for path, _, text in jobs]
    kept = [store.get(key) if store else None for key in keys]
    missing = [job for job, page in zip(jobs, kept, strict=True) if page is None]
    count = _pooled(len(missing))
    made = iter(_run(_parse_one, missing, count) if count else [])
    for (path, slug, text), key, page in zip(jobs, keys, kept, strict=True):
        if page is not None:
            yield _given("page", slim.join(*page) if isinstance(page, tuple) else _revive(page))
        elif count:
            kind, value = next(made)
            if kind == "split":
                _keep(store, key, value)
                kind, value = "page", slim.join(*value)
            yield _given(kind, _kept(store, key, value) if kind == "page" else value)
        else:
            yield functools.partial(_serial, store, key, parse_page, md, path, slug, text, content, language)


def _serial(store, key, parse_page, md, path, slug, text, content, language) -> Page:
    page = parse_page(md, path, slug, text, content_root=content, language=language)
    _keep(store, key, page)
    return page


def _keep(store: cache.Site | None, key: str, value: Any) -> None:
    if store is not None and isinstance(data := _dumped(value), bytes):
        store.put(key, data)


def _kept(store: cache.Site | None, key: str, value: bytes | Any) -> Any:
    """What a worker made (pickled), kept in ``store`` under ``key``, and unpickled."""
    if not isinstance(value, bytes):
        return value
    if store is not None:
        store.put(key, value)
    made = pickle.loads(value)
    return _revive(made) if isinstance(made, Page) else made


def render(
    md: MarkdownIt,
    pages: list[Page],
    render_page: Callable,
    store: cache.Site | None = None,
) -> Iterator[Callable[[], str]]:
    """For each page in order, a call giving its body (``render_page``'s: the errors
    found while rendering join the page's) or raising what rendering it raised. With
    ``store``, a body an earlier build rendered from the same page in the same site is
    taken from it, and each body rendered now is kept."""
    _WORK.update(md=md, render=render_page)
    search_sections.READ.clear()  # (an earlier build's, in a process that builds again)
    site = cache.summary(pages) if store else ""
    keys = [cache.render_key(store, page, site) if store else "" for page in pages]
    kept = [store.get(key) if store else None for key in keys]
    missing = [page for page, done in zip(pages, kept, strict=True) if done is None]
    count = _pooled(len(missing))
    _WORK["pages"] = missing  # the workers, forked now, have them
    made = iter(_run(_render_one, list(range(len(missing))), count) if count else [])
    for page, key, done in zip(pages, keys, kept, strict=True):
        if done is None and not count:
            yield functools.partial(_serial_render, store, key, render_page, md, page)
            continue
        kind, value = ("body", done) if done is not None else next(made)
        if kind != "body":
            yield _given(kind, value)
            continue
        body, env, *read = _kept(store, key, value) if done is None else done
        if read:
            search_sections.READ[body] = read[0]
        _restore(page, env)
        page.packed = None  # its whole tokens: read no more
        yield _given("body", body)


def _serial_render(store, key, render_page, md, page: Page) -> str:
    body = render_page(md, _revive(slim.whole(page)))
    page.packed = None
    if store is not None:
        search_sections.READ[body] = search_sections.read_ahead(body)  # (read once: the index takes them from here)
        _keep(store, key, (body, _rendered_env(page), search_sections.READ[body]))
    return body


def _restore(page: Page, env: dict) -> None:
    """The page as rendering left it: what rendering added to its env (errors, warnings,
    numbers, ids)."""
    if env is page.env:
        return
    lines = page.env.get("lines")
    page.env.clear()
    page.env.update(env)
    page.env["lines"] = lines
    page.errors, page.warnings = env["errors"], env["warnings"]


def _given(kind: str, value: Any) -> Callable[[], Any]:
    def given() -> Any:
        if kind == "raised":
            raise value
        return value

    return given
