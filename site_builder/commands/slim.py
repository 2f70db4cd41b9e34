"""A parsed page kept small between parsing and rendering, for a site of thousands.

A page's tokens are most of what a build holds once every page is parsed and none is
rendered yet: about 80 KB a page as Python objects, 1.7 GB at 20,000 pages. The steps
between the two stages and after them (links, ids, figure numbers and references, the
build cache's summary, each page's scripts and its exercises for progress.js) read a
handful of them: the tokens ``kept`` says, and what the page's env holds.

So the worker of the pool (parallel.py) that parses a page hands it back in two pickles:
``small``, the page with only those tokens, its front matter and its env, which the build
uses as it would the whole page; and ``rest``, every token (compressed), in which each
object of the small page is a reference to it, not a copy. The worker that renders the
page (forked from the build, so it holds the small page as the whole-site steps left it:
links' addresses rewritten, figures referenced) makes the whole token list again with
``whole``, with those very objects in it, and renders the page as parse_page made it.
"""

from __future__ import annotations

import dataclasses
import io
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


class _Referring(pickle.Pickler):
    """Pickles every object of ``known`` as its place in that list."""

    def __init__(self, file: io.BytesIO, known: list) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.places = {id(obj): at for at, obj in enumerate(known)}

    def persistent_id(self, obj: Any) -> int | None:
        return self.places.get(id(obj))


class _Resolving(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, known: list) -> None:
        super().__init__(file)
        self.known = known

    def persistent_load(self, pid: Any) -> Any:
        return self.known[pid]


@dataclasses.dataclass
class Packed:
    """A small page's tokens as parse_page made them, all of them: ``rest`` (pickled,
    compressed) refers to the objects of ``known`` by their places in it."""

    rest: bytes
    known: list


def split(page: Page) -> tuple[bytes, bytes]:
    """The two pickles of ``page`` (the module's text): small and rest."""
    slim = [token for token in page.tokens if kept(token)]
    known = _objects([page.meta, page.env, slim, page.errors, page.warnings])
    small = pickle.dumps(
        (page.path, page.slug, page.meta, page.env, slim, page.errors, page.warnings, page.folder, page.url, known),
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    out = io.BytesIO()
    _Referring(out, known).dump(page.tokens)
    return small, zlib.compress(out.getvalue(), 1)


def join(small: bytes, rest: bytes) -> Page:
    """The small page of ``split``'s pickles, its whole tokens at hand (``whole``)."""
    path, slug, meta, env, slim, errors, warnings, folder, url, known = pickle.loads(small)
    page = Page(path=path, slug=slug, meta=meta, tokens=slim, env=env, errors=errors, warnings=warnings)
    page.folder, page.url = folder, url
    page.packed = Packed(rest, known)
    return page


def whole(page: Page) -> Page:
    """``page`` with every token of its Markdown (itself if it is whole already): the
    small page's objects, as the build has changed them, in their places."""
    packed = page.packed
    if packed is None:
        return page
    tokens = _Resolving(io.BytesIO(zlib.decompress(packed.rest)), packed.known).load()
    return dataclasses.replace(page, tokens=tokens, packed=None)
