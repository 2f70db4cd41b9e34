"""A parsed page kept small between parsing and rendering, for a site of thousands.

A page's tokens are most of what a build holds once every page is parsed and none is
rendered yet: about 80 KB a page as Python objects, 1.7 GB at 20,000 pages. The steps
between the two stages and after them (links, ids, figure numbers and references, the
build cache's summary, each page's scripts and its exercises for progress.js) read a
handful of them: the tokens ``kept`` says, and what the page's env holds.

So the worker of the pool (parallel.py) that parses a page hands it back in two pickles:
``small``, the page with only those tokens, its front matter and its env, which the build
uses as it would the whole page; and ``rest``, the whole page (compressed). The worker
that renders the page (forked from the build, so it holds the small page as the
whole-site steps left it: links' addresses rewritten, figures referenced) unpickles the
whole page and gives each of its objects that the small page has (``known``: found in
the same order in both, from the same roots) what the small one holds now (``whole``),
then renders the page as parse_page made it and the build changed it.
"""

from __future__ import annotations

import dataclasses
import pickle
import zlib
from pathlib import PurePath
from typing import Any

from markdown_it.token import Token

from ..markdown.parser import Page
from ..structure.links import _HTML_ID

# The token types read after parsing: ids (links.ids_of, ids.id_clashes), figures
# (references, scripts.figures_of), exercises and questions (track.py, scripts.engine_needs).
KEPT_TYPES = frozenset({"figure", "exercise_open", "question_open", "math_block_label"})
_HTML = frozenset({"html_block", "html_inline"})


def kept(token: Token) -> bool:
    """Whether a page's top-level ``token`` stays in its small page: one of KEPT_TYPES,
    one with an id (a heading's, an image's; cache.summary), raw HTML with an id in it,
    or an inline token with such HTML or an id among its children (links.ids_of,
    ids._label_clashes)."""
    if token.type in KEPT_TYPES or token.attrGet("id") or (isinstance(token.meta, dict) and "id" in token.meta):
        return True
    if token.type in _HTML:
        return bool(_HTML_ID.search(token.content))
    return any(
        (child.type in _HTML and _HTML_ID.search(child.content)) or child.attrGet("id")
        for child in token.children or ()
    )


def _objects(roots: list) -> list:
    """Every object reachable from ``roots`` whose identity counts (dicts, lists, sets,
    tokens and other objects with attributes; not strings, numbers or paths, which a
    copy stands for), once each, in an order fixed by the roots."""
    found: list = []
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        obj = stack.pop()
        if obj is None or isinstance(obj, (str, bytes, int, float, PurePath, type)) or id(obj) in seen:
            continue
        if isinstance(obj, tuple):
            stack.extend(reversed(obj))
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, dict):
            stack.extend(reversed([*obj.keys(), *obj.values()]))
        elif isinstance(obj, (list, set, frozenset)):
            stack.extend(reversed(list(obj)))
        elif isinstance(obj, Token):
            stack.extend([obj.children, obj.meta, obj.map, obj.attrs])
        elif hasattr(obj, "__dict__"):
            stack.append(vars(obj))
    return found


def _roots(meta: dict, env: dict, tokens: list, errors: list, warnings: list) -> list:
    """Where ``_objects`` starts in a page: the same in the small page and the whole."""
    return [meta, env, [token for token in tokens if kept(token)], errors, warnings]


def _graft(copy: Any, kept_now: Any) -> None:
    """Give ``copy`` (an object of the whole page) what its twin in the small page holds."""
    if isinstance(copy, Token):
        for name in Token.__slots__:
            setattr(copy, name, getattr(kept_now, name))
    elif isinstance(copy, (dict, set)):
        copy.clear()
        copy.update(kept_now)
    elif isinstance(copy, list):
        copy[:] = kept_now
    # (an object with attributes: its __dict__ is one of the dicts)


@dataclasses.dataclass
class Packed:
    """A small page's whole (``rest``: pickled, compressed) and the objects ``_objects``
    found in it when it was split (``known``), as the build has changed them since."""

    rest: bytes
    known: list


def split(page: Page) -> tuple[bytes, bytes]:
    """The two pickles of ``page`` (the module's text): small and rest."""
    parts = (page.meta, page.env, page.tokens, page.errors, page.warnings)
    roots = _roots(*parts)
    small = pickle.dumps(
        (
            page.path,
            page.slug,
            page.meta,
            page.env,
            roots[2],
            page.errors,
            page.warnings,
            page.folder,
            page.url,
            _objects(roots),
        ),
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    return small, zlib.compress(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL), 1)


def join(small: bytes, rest: bytes) -> Page:
    """The small page of ``split``'s pickles, its whole at hand (``whole``)."""
    path, slug, meta, env, slim, errors, warnings, folder, url, known = pickle.loads(small)
    page = Page(path=path, slug=slug, meta=meta, tokens=slim, env=env, errors=errors, warnings=warnings)
    page.folder, page.url = folder, url
    page.packed = Packed(rest, known)
    return page


def whole(page: Page) -> Page:
    """``page`` with every token of its Markdown (itself if it is whole already), each
    object the small page has holding what it holds now."""
    packed = page.packed
    if packed is None:
        return page
    parts = pickle.loads(zlib.decompress(packed.rest))
    copies = _objects(_roots(*parts))
    if len(copies) != len(packed.known):
        raise ValueError(f"{page.path}: the small page and the whole differ ({len(packed.known)}, {len(copies)})")
    for copy, kept_now in zip(copies, packed.known, strict=True):
        _graft(copy, kept_now)
    return dataclasses.replace(page, tokens=parts[2], packed=None)
